"""Running the bot: its configuration (``config``), the one web server (``web``), ``/healthz`` and
``/metrics`` (``health``, ``metrics``), the PostgreSQL standby lock (``standby``) and the owner's
commands (``owner``).

It may use ``table`` and what lies below it.
"""
