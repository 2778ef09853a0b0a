"""Keeping every message of a game shown: the lobby message, the table and the private messages
(``tables``), what each message shows now (``messages``: no edit that changes nothing), the
lobby's text (``lobby_view``) and the turn pings (``pings``), all from the changes they hear.

It may use ``lobby`` (what a lobby note says), ``table`` and what lies below them.
"""
