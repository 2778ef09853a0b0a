"""What is remembered of games that are over: each game recorded once and the ratings it moved
(``records``), the rating model (``rating``), seasons in time (``calendar``), the ratings of each
season and the leaderboards (``seasons``), a season's end and its message to each group that
played (``season_end``), achievements decided from the records (``achievements``), and what
people read of it: ``/stats``, ``/top``, ``/history``, ``/forgetme``, ``/forgetgroup`` (``stats``).

It may use ``table`` and what lies below it.
"""
