"""What is kept: the records (``store``: ``Game``, ``Seat``, ``Series``… and the ``GameStore``
protocol), the schema's numbered migrations (``migrations``), the SQL both stores share
(``sql``; what it keeps of seasons and achievements: ``honours``), SQLite (``sqlite``) and PostgreSQL (``postgres``), which one a ``TABLEBOT_DB`` names
(``choose``), and the commands around them (``backup``, ``migrate``, ``instance``: one bot per
SQLite file).

The ground floor: it uses no other package of ``bot`` but ``logs``. The protocol module names no
implementation; which store a process uses is chosen where the process is wired.
"""
