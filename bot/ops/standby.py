"""Hot standby on PostgreSQL: several ``python -m bot`` processes of one bot on one database, one
of them active.

Telegram gives one bot one update stream, so exactly one process may poll (or own the webhook)
and send. The active process is the one holding a PostgreSQL *session* advisory lock, keyed on
the bot's id (``lock_key``: the same for every process of one bot, different for two bots on one
server). The lock is taken on one dedicated connection outside the store's pool, because a
session lock lives exactly as long as its connection: when the active process dies (kill -9, a
lost machine) the server ends that session and the lock is free for the next process.

The life of a process, in ``python -m bot``:

1. ``acquire``: try the lock every ``RETRY_SECONDS``; a process that does not get it says once
   that it is a standby and waits. Nothing else runs yet: no store is open, no game is cached.
   While the database cannot be reached (down, starting up, a timeout) the attempts go on, one
   log line each, the pauses growing 1, 2, 4 … up to ``RETRY_MAX_SECONDS``; what a person must
   fix (a refused login, a missing database) is a ``StoreError`` (one line, exit code 2).
2. On getting it, wait ``GRACE_SECONDS`` more before doing anything (see below), then become
   active: the store is opened and every game continues from the database (``Tablebot.restore``),
   exactly as at any start. A process becomes active once in its life, so there is no cache to
   forget and no half-stopped state to reopen.
3. ``watch``: while active, the lock connection is checked every ``CHECK_SECONDS`` (``SELECT 1``
   within ``CHECK_TIMEOUT``) and asyncpg's termination listener reports its loss at once.

Losing the lock connection means another process may become active soon, so the process stops
polling and sending *at once*: one log line, then ``os._exit(LOST_EXIT_CODE)``. Not an orderly
stop, because an orderly stop drains pending edits for seconds (sending, maybe after the other
process took over) and waits for the long poll; exiting closes every socket now, the long poll
included. Nothing is lost by it: every accepted move was committed before any message about it
went out, and the next active process redraws from the database, as after a kill -9. The
supervisor (systemd ``Restart=always``, a container's restart policy) starts the process again
and it comes back as a standby. The exit code is EX_TEMPFAIL: try again, nothing to fix.

Why the grace: the lock is freed when the server ends the old session, and the old process learns
of it at once in the usual cases (the connection closes) but in the worst case only at its next
check, up to CHECK_SECONDS + CHECK_TIMEOUT later. The new process waits longer than that before it
reads the database or polls, so the two are never active together, as long as the old one's event
loop is not blocked for seconds (nothing in the bot blocks it: drawing runs in worker processes).

When the old machine vanishes without closing its sockets, the server notices through TCP
keepalives, which the lock connection asks for (``KEEPALIVE``): the lock is freed about 8 s later
instead of after the system default of two hours. The old process, if it lives on cut off from the
database, stops at its next check, long before that.

A transaction-pooling proxy (pgbouncer ``pool_mode = transaction``) hands one client's queries to
different server sessions, which breaks session locks: connect to PostgreSQL directly, or through
session pooling.

With SQLite none of this runs: one process per database file (``bot/storage/instance.py``).
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import sys
from typing import Callable

import asyncpg

from bot.storage.postgres import UNREACHABLE, explain, unreachable
from bot.storage.store import StoreError

log = logging.getLogger("tablebot.standby")

RETRY_SECONDS = 1.0  # a standby tries the lock this often
RETRY_MAX_SECONDS = 30.0  # … and, while the database cannot be reached, at most this far apart
CHECK_SECONDS = 1.0  # the active process checks its lock connection this often …
CHECK_TIMEOUT = 1.0  # … and gives the check this long to answer
GRACE_SECONDS = CHECK_SECONDS + CHECK_TIMEOUT + 0.5  # see the module docstring
CONNECT_TIMEOUT = 5.0
LOST_EXIT_CODE = 75  # EX_TEMPFAIL (sysexits.h): a supervisor restarts the process, which waits as a standby
# The server ends the lock's session (and frees the lock) when the client's machine stops
# answering: probes after 5 s idle, every 1 s, 3 unanswered. Only for TCP (not a Unix socket).
KEEPALIVE = {"tcp_keepalives_idle": "5", "tcp_keepalives_interval": "1", "tcp_keepalives_count": "3"}
APPLICATION_NAME = "tablebot-lock"  # the lock connection's, with the pid: "tablebot-lock 1234"


def lock_key(token: str) -> int:
    """The advisory lock's key for a bot: a signed 64-bit number from the bot's id (the token's
    part before the colon), so that a new token of the same bot keeps the same key."""
    bot_id = token.partition(":")[0]
    digest = hashlib.sha256(f"tablebot standby {bot_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def exit_now() -> None:
    """Leave the process at once (see the module docstring), the log written out first."""
    for handler in logging.getLogger().handlers:
        try:
            handler.flush()
        except Exception:
            pass
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(LOST_EXIT_CODE)


class Standby:
    """The lock of one bot on one database: ``acquire`` waits for it, ``watch`` guards it,
    ``active`` tells whether this process holds it (``on_change`` hears every change: a metric)."""

    def __init__(self, dsn: str, key: int, *, on_change: Callable[[bool], None] | None = None,
                 on_lost: Callable[[], None] = exit_now, retry_seconds: float = RETRY_SECONDS,
                 grace_seconds: float = GRACE_SECONDS):
        self.dsn = dsn
        self.key = key
        self.on_change = on_change
        self.on_lost = on_lost
        self.retry_seconds = retry_seconds
        self.grace_seconds = grace_seconds
        self._connection = None
        self._active = False
        self._watching: asyncio.Task | None = None
        # Why the last attempt at the lock did not reach the database, None when it did (a
        # standby's /healthz).
        self.trouble: str | None = None

    @property
    def active(self) -> bool:
        return self._active

    @property
    def application_name(self) -> str:
        return f"{APPLICATION_NAME} {os.getpid()}"

    async def acquire(self, stop: asyncio.Event) -> bool:
        """Wait until this process holds the lock and the grace has passed (True), or until
        ``stop`` is set (False, the lock not held). Raise StoreError when the database refuses
        this process for good (a person must fix it)."""
        told_standby = False
        pause = self.retry_seconds
        while not stop.is_set():
            try:
                locked = await self._try_lock()
                self.trouble = None
                pause = self.retry_seconds  # it answers: a later outage starts again from the shortest pause
                if locked:
                    log.info("took the lock of this bot on the database; active in %.1f s", self.grace_seconds)
                    if await stopped_within(stop, self.grace_seconds):
                        break
                    await self._connection.fetchval("SELECT 1", timeout=CHECK_TIMEOUT)  # still ours
                    self._set_active(True)
                    log.info("active: serving this bot")
                    return True
                if not told_standby:
                    log.info("standby: another process serves this bot; taking over when it stops")
                    told_standby = True
            except UNREACHABLE + (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                if not unreachable(exc):  # a refused login, a missing database: for a person
                    await self.close()
                    raise StoreError(explain(self.dsn, exc)) from None
                self.trouble = _reason(exc)
                log.warning("standby: %s; trying again in %.0f s", explain(self.dsn, exc), pause)
                await self._drop()
                await stopped_within(stop, pause)
                pause = min(RETRY_MAX_SECONDS, pause * 2)
                continue
            await stopped_within(stop, self.retry_seconds)
        await self.close()
        return False

    async def _try_lock(self) -> bool:
        if self._connection is None or self._connection.is_closed():
            self._connection = await asyncpg.connect(
                self.dsn, timeout=CONNECT_TIMEOUT,
                server_settings={"application_name": self.application_name, **KEEPALIVE})
        return await self._connection.fetchval("SELECT pg_try_advisory_lock($1)", self.key,
                                               timeout=CHECK_TIMEOUT)

    def watch(self) -> None:
        """While active, report the loss of the lock connection (``on_lost``) as soon as it is
        known: closed (the termination listener) or not answering a check in time."""
        self._connection.add_termination_listener(lambda _connection: self._lost("the connection closed"))
        self._watching = asyncio.get_running_loop().create_task(self._check(), name="standby-check")

    async def _check(self) -> None:
        while self._active:
            await asyncio.sleep(CHECK_SECONDS)
            try:
                await self._connection.fetchval("SELECT 1", timeout=CHECK_TIMEOUT)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # whatever it is, the lock can no longer be vouched for
                self._lost(_reason(exc))
                return

    def _lost(self, reason: str) -> None:
        if not self._active:
            return  # closed by us, or reported already
        self._set_active(False)
        log.critical("lost the lock connection to the database (%s): stopping at once (exit code %d); "
                     "restarted, this process waits for the database, then as a standby", reason, LOST_EXIT_CODE)
        self.on_lost()

    async def close(self) -> None:
        """Release the lock (by closing its connection) at the end of an orderly stop."""
        self._set_active(False)
        if self._watching is not None:
            self._watching.cancel()
            await asyncio.gather(self._watching, return_exceptions=True)
            self._watching = None
        await self._drop()

    async def _drop(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None and not connection.is_closed():
            try:
                await asyncio.wait_for(connection.close(), CHECK_TIMEOUT)
            except Exception:
                connection.terminate()

    def _set_active(self, active: bool) -> None:
        if active != self._active:
            self._active = active
            if self.on_change is not None:
                self.on_change(active)


def _reason(exc: BaseException) -> str:
    """Why a query on the lock connection failed, on one short line."""
    return " ".join(str(exc).split())[:120] or type(exc).__name__


async def stopped_within(stop: asyncio.Event, seconds: float) -> bool:
    """Sleep ``seconds`` unless ``stop`` is set first: whether it was (every wait before serving,
    ``bot/__main__.py``)."""
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except asyncio.TimeoutError:
        return False
    return True
