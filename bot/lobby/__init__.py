"""Gathering a table, and a chat's settings: a lobby opened, Join / Leave / Start / Cancel, its
options and computer players, idle lobbies (``lobby``), ``/new``'s words (``new``, ``options``),
the game menu, deep links and a lobby's notes (``menu``, ``links``), ``/nextgame``
(``nextgame``), and ``/lang``, ``/notify``, ``/lobbytimeout``, ``/turntimer`` (``settings``).

It may use ``table`` and what lies below it; it never imports the display (``showing``): what it
changes is published on the change bus, as the game loop does.
"""
