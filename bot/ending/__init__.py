"""The end of a game, in one place: the Finisher (``finisher``: the group's results and their
exactly-once rule, then what follows the game), the open door after a game (``after``: the
successors that hear every finished game, and what each adds), the results' words and buttons
(``results``: the game's own, each person's rating change, what follows), each person's own
result in private (``private``), the series (``series``: its standings and the next game, a
successor), each game counted in its season (``seasons``, a successor), the achievements it
earned (``achievements``, a successor), 🎞 the replay (``replays``) and 🔁 a rematch
(``rematch``, a successor).

It may use ``showing``, ``records``, ``lobby``, ``table`` and what lies below them.
"""
