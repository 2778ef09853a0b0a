"""What is kept: the records (``store``: ``Game``, ``Seat``, ``Series``… and the ``GameStore``
protocol), the SQL both stores share (``sql``), SQLite (``sqlite``) and PostgreSQL (``postgres``),
and the commands around them (``backup``, ``migrate``, ``instance``: one bot per SQLite file).

The ground floor: it uses no other package of ``bot`` but ``logs``. The protocol module names no
implementation; which store a process uses is chosen where the process is wired.
"""
