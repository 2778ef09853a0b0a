"""One bot per database file: ``python -m bot`` holds an exclusive lock on ``<db>.lock``.

Why: two bots on one token fight over getUpdates (Telegram answers one of them with a conflict),
and two writers on one database would each cache games the other changes. The lock is
``flock`` on a file beside the database, held for the life of the process: the operating system
releases it when the process ends however it ends (kill -9 included), so no stale lock is ever
left to clean up. The file itself stays (it holds the pid of the last bot that ran, for the
error message); deleting it while a bot runs would let a second one lock a new file.

``status`` and ``backup`` do not take it: they only read, and must work while the bot runs.
"""
from __future__ import annotations

import os

try:
    import fcntl
except ImportError:  # not a POSIX system: no lock (the bot is deployed on Linux)
    fcntl = None


class AlreadyRunning(Exception):
    """Another process holds the lock: one line for the operator."""


_held: list[int] = []  # the open descriptors: closing one would release its lock


def lock_path(db_path: str) -> str | None:
    """The lock file of a ``TABLEBOT_DB`` value, or None when it is not a file on disk."""
    if db_path == ":memory:" or db_path.startswith("file:") or "://" in db_path:
        return None
    return os.path.abspath(db_path) + ".lock"


def hold(db_path: str) -> str | None:
    """Take the lock of this database for as long as this process lives; return the lock file
    (None when there is nothing to lock). Raise AlreadyRunning when another process has it,
    OSError when the lock file cannot be made."""
    path = lock_path(db_path)
    if path is None or fcntl is None:
        return None
    # os.open's descriptors are not inherited by child processes (the drawing workers), so the
    # lock goes with this process alone.
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        other = os.read(fd, 32).decode("ascii", "replace").strip()
        os.close(fd)
        pid = f", pid {other}" if other.isdigit() else ""
        raise AlreadyRunning(f"another tablebot is running on {db_path} (it holds {path}{pid}): stop it "
                             "first; one bot per database (and per token)") from None
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode("ascii"))
    _held.append(fd)
    return path
