"""The end of a game: the series (``series``) and the replay (``replays``).

It may use ``showing``, ``records``, ``lobby``, ``table`` and what lies below them.
"""
