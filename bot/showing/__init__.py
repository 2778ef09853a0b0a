"""Keeping every message of a game shown: the lobby message, the table and the private messages
(``tables``), the lobby's text (``lobby_view``) and the turn pings (``pings``), all from the
changes they hear.

It may use ``lobby``, ``table`` and what lies below them.
"""
