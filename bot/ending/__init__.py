"""The end of a game, in one place: the Finisher (``finisher``: the group's results and their
exactly-once rule, then the next game of a series), the results' words and buttons
(``results``: the game's own, each person's rating change, the series' standings), each
person's own result in private (``private``), the series' standings and the next seating
(``series``), and the results' buttons: 🎞 the replay (``replays``) and 🔁 a rematch
(``rematch``).

It may use ``showing``, ``records``, ``lobby``, ``table`` and what lies below them.
"""
