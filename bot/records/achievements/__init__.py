"""Achievements decided from the records: the catalogue (``catalogue``: about thirty, each with a
name, a one-line rule and an icon, some for every game, some for one game), what one game's
events earned its seats (``plays``, pure: it also runs in a worker process on a replay), what a
person's games in order and one game's record earned them (``ledger``, pure), and the keeper
that grants them at each game's end, reads the records again when the catalogue changes, and
says what a person has (``keeper``).

Part of ``records``: it may use ``table`` and what lies below it.
"""
