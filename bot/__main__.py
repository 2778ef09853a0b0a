"""``python -m bot`` runs the bot; ``python -m bot status`` prints the games as JSON lines;
``python -m bot backup FILE`` copies the database; ``python -m bot migrate --from FILE --to URL``
copies an SQLite database into PostgreSQL."""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import gc
import json
import logging
import signal
import sys

from bot.ops.config import ConfigError, from_env
from bot.logs import one_line, retry_pause, setup_logging

log = logging.getLogger("tablebot")

# Waiting for Telegram at start: 1, 2, 4 … seconds between attempts, never more than this.
WAIT_MAX_SECONDS = 30.0
# Young objects are collected after 20 000 allocations rather than 700: a busy bot allocates
# thousands per update, and each pass over the older ones stalled every chat for milliseconds.
GC_THRESHOLDS = (20_000, 20, 20)


def run(argv: list[str] | None = None) -> int:
    """Check the database (waiting while it cannot be reached), wait for Telegram, wait as a
    standby while another process serves this bot (PostgreSQL only, ``bot/ops/standby.py``),
    then serve until SIGTERM or SIGINT. Exit codes: 0 stopped, 2 a problem the operator must fix
    (told in one line on stderr), 75 the standby lock or the database was lost while serving
    (restart it: it waits for the database, then as a standby)."""
    from bot.updates import router
    from telegram.error import InvalidToken

    from bot.storage import instance
    from bot.workers import memory
    from bot.workers import pool as rendering
    from bot.ops import standby as standby_lock
    from bot.storage.choose import is_postgres
    from bot.storage.store import StoreError, StoreUnavailable
    from bot.ops.web import PortUnavailable

    try:
        config = from_env()
    except ConfigError as exc:
        return _fail(str(exc))
    setup_logging(config.log_level, config.token, config.api_url, config.log_format)
    loop = asyncio.new_event_loop()  # python-telegram-bot runs on it; our signal handlers are on it
    asyncio.set_event_loop(loop)
    standby = None
    if is_postgres(config.db_path):  # PostgreSQL: wait until this process is the active one
        standby = standby_lock.Standby(config.db_path, standby_lock.lock_key(config.token))
    try:
        ready = loop.run_until_complete(_until_ready(config, standby))
    except (StoreError, PortUnavailable, instance.AlreadyRunning) as exc:
        return _fail(str(exc))
    except OSError as exc:  # from instance.hold
        return _fail(f"cannot make the lock file {instance.lock_path(config.db_path)} ({exc.strerror}): "
                     "fix the permissions of the database's directory, or point TABLEBOT_DB elsewhere")
    except InvalidToken:
        return _fail(REJECTED)
    if not ready:
        loop.close()
        return 0  # stopped while waiting

    from bot.app import Tablebot
    from bot.updates.webhook import WebhookRefused

    tablebot = Tablebot(config, standby)
    application = tablebot.application
    updates = router.UPDATES
    # What the start built (libraries, the application) stays for the life of the process: out of
    # the collector's sight, and the collector runs less often, its full passes shorter.
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    memory.trim_in_background()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, _on_stop_signal, loop)
    try:
        # bootstrap_retries=-1: a start that fails half-way (Telegram flaky) is tried again.
        if config.webhook:
            _serve_webhook(tablebot, loop, updates)
        else:
            application.run_polling(allowed_updates=updates, timeout=config.poll_timeout, bootstrap_retries=-1,
                                    stop_signals=None)
    except InvalidToken:
        return _fail(REJECTED)
    except StoreUnavailable as exc:  # the database went away as this process became the active one
        log.critical("the database went away while starting (%s): stopping (exit code %d); restarted, this "
                     "process waits for it", exc, standby_lock.LOST_EXIT_CODE)
        return standby_lock.LOST_EXIT_CODE
    except (StoreError, PortUnavailable, WebhookRefused) as exc:
        return _fail(str(exc))
    finally:
        rendering.shutdown()
    return 0


def _serve_webhook(tablebot, loop: asyncio.AbstractEventLoop, updates: list[str]) -> None:
    """Serve the webhook on our web server (bot/updates/webhook.py) with the lifecycle python-telegram-bot's
    run_polling has: start (tried again while Telegram fails), serve until a stop signal's
    SystemExit, then stop in order (stop, post_stop, shutdown, post_shutdown)."""
    from telegram.error import InvalidToken, TelegramError

    application = tablebot.application
    try:
        delay = 1.0
        while True:  # what bootstrap_retries=-1 did: a start that fails half-way is tried again
            try:
                loop.run_until_complete(application.initialize())
                break
            except InvalidToken:
                raise
            except TelegramError as exc:
                pause, reason = retry_pause(exc, delay)
                log.warning("could not start (%s); trying again in %.0f s", reason, pause)
                loop.run_until_complete(asyncio.sleep(pause))
                delay = min(WAIT_MAX_SECONDS, delay * 2)
        loop.run_until_complete(application.post_init(application))  # our web server starts here
        loop.run_until_complete(application.start())
        loop.run_until_complete(tablebot.set_webhook(updates))
        log.info("serving the webhook")
        loop.run_forever()
    except (KeyboardInterrupt, SystemExit):
        log.debug("stop signal: stopping")
    finally:
        try:
            if application.running:
                loop.run_until_complete(application.stop())
                loop.run_until_complete(application.post_stop(application))
            loop.run_until_complete(application.shutdown())
            loop.run_until_complete(application.post_shutdown(application))
        finally:
            loop.close()


_stopping = False


def _on_stop_signal(loop: asyncio.AbstractEventLoop) -> None:
    """SIGTERM or SIGINT while serving: stop in order (python-telegram-bot's own handler does the
    same: SystemExit out of the loop, then its orderly stop, post_stop and post_shutdown). A
    poller waiting out a pause between attempts (up to 30 s during an outage) is cancelled first,
    or the stop would wait as long. A second signal changes nothing (the stop is bounded)."""
    global _stopping
    if _stopping:
        log.info("stopping already")
        return
    _stopping = True
    for task in asyncio.all_tasks(loop):
        if task.get_name() == "Updater:start_polling:polling_task" and _pausing(task):  # PTB's name
            task.cancel()
    raise SystemExit(0)


def _pausing(task: asyncio.Task) -> bool:
    """Whether python-telegram-bot's retry loop is sleeping between attempts (not polling: a poll
    in progress is ended by the Updater itself, and cancelling it would orphan the request)."""
    awaiting = getattr(task.get_coro(), "cr_await", None)
    return getattr(getattr(awaiting, "cr_code", None), "co_name", "") == "sleep"


REJECTED = "Telegram rejected TELEGRAM_BOT_TOKEN: check it with @BotFather"


def _fail(message: str) -> int:
    print("tablebot: " + " ".join(message.split()), file=sys.stderr)
    return 2


async def _until_ready(config, standby) -> bool:
    """Everything a process waits for before it serves, in order: the database (checked, and
    waited for while it cannot be reached), this process's claim on an SQLite file, Telegram,
    and (PostgreSQL) the standby lock. True once they are there; False when SIGTERM or SIGINT
    came first. A problem for a person raises (one line, exit code 2). Meanwhile
    ``METRICS_PORT`` says what the process waits for (``bot/ops/health.py`` ``Waiting``); the
    bot's own server takes the port over once this one has stopped."""
    from bot.storage import instance

    stop = asyncio.Event()
    waiting = server = None
    if config.metrics_port is not None:  # (the web server's modules take a second to load: only if needed)
        from bot.ops import health
        from bot.ops.web import WebServer

        waiting = health.Waiting()
        server = WebServer(port=None, metrics_port=config.metrics_port)
        server.add_routes(health.waiting_routes(waiting), private=True)
        await server.start()
    try:
        with _stop_on_signals(stop):
            if not await _until_store_opens(config, stop, waiting):  # before Telegram: a bad database never waits for it
                return False
            instance.hold(config.db_path)  # SQLite: for the life of the process, one bot per database
            if waiting is not None:
                waiting.why = "waiting for Telegram"
            if not await _wait_for_telegram(config, stop):
                return False
            if standby is None:
                return True
            if waiting is not None:
                waiting.standby = standby
            return await standby.acquire(stop)
    finally:
        if server is not None:
            await server.stop()


async def _until_store_opens(config, stop: asyncio.Event, waiting=None) -> bool:
    """Open the database once, which checks it (the store's open()), and close it. While it
    cannot be reached (``StoreUnavailable``: a server down, starting up or shutting down, a
    timeout) try again, one log line per attempt, the pauses growing 1, 2, 4 … up to
    WAIT_MAX_SECONDS; True once it opens, False when stopped meanwhile. What a person must fix
    (a refused login, a missing database, no rights, a newer schema) raises StoreError."""
    from bot.ops.standby import stopped_within
    from bot.storage.choose import make_store
    from bot.storage.store import StoreUnavailable

    delay, failures = 1.0, 0
    while not stop.is_set():
        try:
            storage = await make_store(config.db_path).open()
        except StoreUnavailable as exc:
            failures += 1
            if waiting is not None:
                waiting.why = f"waiting for the database: {exc}"
            log.warning("%s; trying again in %.0f s", exc, delay)
            if await stopped_within(stop, delay):
                break
            delay = min(WAIT_MAX_SECONDS, delay * 2)
            continue
        await storage.close()
        if failures:
            log.info("the database answers; starting")
        return True
    log.info("stopped while waiting for the database")
    return False


@contextlib.contextmanager
def _stop_on_signals(stop: asyncio.Event):
    """While inside, SIGINT and SIGTERM set ``stop`` (where the platform lets the running loop
    take signals): waiting for Telegram, and waiting as a standby."""
    loop = asyncio.get_running_loop()
    signals = [signal.SIGINT, signal.SIGTERM]
    for sig in signals:
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # not on this platform
            pass
    try:
        yield
    finally:
        for sig in signals:
            try:
                loop.remove_signal_handler(sig)
            except (NotImplementedError, RuntimeError):
                pass


async def _wait_for_telegram(config, stop: asyncio.Event) -> bool:
    """Ask Telegram who we are until it answers: True once it does, False when ``stop`` is set
    (a signal) meanwhile. A rejected token raises InvalidToken (one line, exit code 2, at once).
    Each failed attempt is one log line; the pauses grow 1, 2, 4 … up to WAIT_MAX_SECONDS."""
    from telegram import Bot
    from telegram.error import InvalidToken, TelegramError

    from bot.ops.standby import stopped_within
    from bot.outgoing.http import AiohttpRequest

    request = AiohttpRequest(1)  # getMe only: polling's own request would never be used here
    bot = Bot(config.token, base_url=config.api_url, base_file_url=config.file_url, request=request,
              get_updates_request=request)
    delay, failures = 1.0, 0
    try:
        while not stop.is_set():
            attempt = asyncio.ensure_future(bot.get_me())
            stopped = asyncio.ensure_future(stop.wait())
            await asyncio.wait([attempt, stopped], return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if not attempt.done():
                attempt.cancel()
                await asyncio.gather(attempt, return_exceptions=True)
                break
            try:
                attempt.result()
            except InvalidToken:
                raise
            except TelegramError as exc:
                pause, reason = retry_pause(exc, delay)
            else:
                if failures:
                    log.info("Telegram is reachable at %s again; starting", config.api_url)
                return True
            failures += 1
            log.warning("Telegram is not reachable at %s (%s); trying again in %.0f s",
                        config.api_url, reason, pause)
            await stopped_within(stop, pause)
            delay = min(WAIT_MAX_SECONDS, delay * 2)
        log.info("stopped while waiting for Telegram")
        return False
    finally:
        await request.shutdown()  # the bot was never initialized: its shutdown would leave it open


async def _status() -> list[dict]:
    from engines import registry
    from bot.storage.choose import make_store

    config = from_env(need_token=False)
    storage = await make_store(config.db_path).open()
    try:
        out = []
        for game in await storage.all_games():
            names = [s.name for s in game.seats]
            turn = None
            if game.status == "running" and game.state is not None:
                eng = registry.engine(game.kind)
                seat = eng.current_player(eng.from_json(game.state))
                turn = names[seat] if seat is not None and seat < len(names) else None
            winners = []
            if game.outcome and "places" in game.outcome:  # (a cancelled game's says why it closed)
                winners = [names[i] for i, p in enumerate(game.outcome["places"]) if p == 1 and i < len(names)]
            out.append({
                "id": game.id, "chat": game.chat_id, "thread": game.thread_id, "game": game.kind,
                "status": game.status, "players": names, "turn": turn, "winners": winners,
                "updated": dt.datetime.fromtimestamp(game.updated, dt.timezone.utc).isoformat(timespec="seconds"),
            })
        return out
    finally:
        await storage.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="tablebot: board games in Telegram groups")
    sub = parser.add_subparsers(dest="command", metavar="command")
    sub.add_parser("run", help="run the bot (the default): polling, or a webhook when WEBHOOK_URL is set")
    sub.add_parser("status", help="print one JSON line per game from the database (TABLEBOT_DB)")
    backup = sub.add_parser("backup", help="copy the SQLite database (TABLEBOT_DB) to FILE, safely while the bot runs")
    backup.add_argument("file", metavar="FILE", help="the copy to write")
    backup.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    migrate = sub.add_parser("migrate", help="copy an SQLite database into an empty PostgreSQL database")
    migrate.add_argument("--from", dest="source", metavar="FILE", required=True, help="the SQLite file (the bot stopped)")
    migrate.add_argument("--to", dest="target", metavar="URL", required=True,
                         help="the PostgreSQL database, postgresql://user:password@host/database")
    migrate.add_argument("--force", action="store_true", help="replace what the PostgreSQL database holds")
    args = parser.parse_args(argv)
    if args.command == "migrate":
        from bot.storage.migrate import MigrateError, run as run_migration

        try:
            lines = run_migration(args.source, args.target, force=args.force)
        except MigrateError as exc:
            return _fail(str(exc))
        print("\n".join(lines))
        return 0
    if args.command == "backup":
        from bot.storage.backup import BackupError, backup as make_backup

        try:
            print(make_backup(from_env(need_token=False).db_path, args.file, force=args.force))
        except (ConfigError, BackupError) as exc:
            return _fail(str(exc))
        return 0
    if args.command == "status":
        from bot.storage.store import StoreError

        try:
            rows = asyncio.run(_status())
        except (ConfigError, StoreError) as exc:
            return _fail(str(exc))
        for row in rows:
            print(one_line(json.dumps(row, ensure_ascii=False)))
        return 0
    return run()


if __name__ == "__main__":
    sys.exit(main())
