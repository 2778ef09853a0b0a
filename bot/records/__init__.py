"""What is remembered of games that are over: each game recorded once and the ratings it moved
(``records``), the rating model (``rating``), and what people read of it: ``/stats``, ``/top``,
``/history``, ``/forgetme``, ``/forgetgroup`` (``stats``).

It may use ``table`` and what lies below it.
"""
