"""Gathering a table, and a chat's settings: ``/new``, Join / Leave / Start / Cancel, the lobby's
options and computers, the deep-link join (``lobby``), ``/nextgame`` (``nextgame``), and ``/lang``,
``/notify``, ``/lobbytimeout``, ``/turntimer`` (``settings``).

It may use ``table`` and what lies below it; it never imports the display (``showing``): what it
changes is published on the change bus, as the game loop does.
"""
