"""A game being played: the open games in memory (``book``: each a ``Match`` with its scratch),
the milestones of a match (``stages``), the changes of a game and their bus (``changes``), keyed
background jobs (``background``), the game loop (``play``), the turn timer's policy (``turns``)
and its timers on python-telegram-bot's JobQueue (``timers``), computer seats (``players``) and
who is who (``people``).

It may use ``games``, ``storage``, ``outgoing``, ``workers``, ``words`` and ``logs``; it tells
whoever shows a game through the change bus and never imports them.
"""
