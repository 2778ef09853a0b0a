"""The worker processes: pictures are drawn and computer players think there, off the event loop
(``pool``: the jobs; ``worker``: the child process; ``memory``: freed memory handed back).

It uses no other package of ``bot``.
"""
