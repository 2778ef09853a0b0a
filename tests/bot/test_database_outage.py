"""A database that goes away, and comes back: the tests' real PostgreSQL, stopped and started
under the bot (``tests/pg.py`` ``shut_down``, ``start_again``: ``pg_ctl stop -m fast``
ends every session at once, as a restart or a failover does).

- In the bot's process: a press while the database is away is answered "try again" in the
  presser's language and changes nothing; a command is replied to the same way, the Mini App's
  API with 503; no traceback; ``/healthz`` says so; once it is back the same press is a move. SQLite too, with its file
  locked by another program for longer than the busy timeout.
- Real ``python -m bot`` processes: the database down at start is waited for (one log line per
  attempt, no exit) and the bot serves once it is up; a refused login is one line and exit code 2;
  two supervised processes ride out two outages during a game, with one exit per outage.
"""
from __future__ import annotations

import asyncio
import logging
import signal
import sqlite3
import threading
import time

import aiohttp
import pytest

from bot.ops.standby import LOST_EXIT_CODE
from bot.storage import sqlite as sqlite_store
from bot.table import background
from bot.words.i18n import t
from tests.bot.harness import BotRunner, Player, button_data, buttons, start_game
from tests.bot.test_every_end_seen import GROUP, group_game_one_move_left, private_results, results
from tests.bot.test_standby_takeover import (ANNA, CHAT, Supervisor, Table, _bot_env, _first_answer, _game_status,
                                             _health, _late, _log, _until)
from tests.bot.test_startup import launch, run_bot, wait_for
from tests.bot.webapp_client import free_port, init_data
from tests.fakebotapi import FakeBotAPI
from tests.pg import new_database, shut_down, start_again

TRY_AGAIN = "⏳ I cannot reach my database for a moment. Please try again in a few seconds."
# How long each outage of the two-process test lasts: long enough for three attempts with
# growing pauses (1, 2, 4 s) in each waiting process, which is all a 10 s outage shows more of.
OUTAGE_SECONDS = 5.0
MOVES_BETWEEN_OUTAGES = 4


@pytest.fixture
def own_server(postgres_server):
    """The session's PostgreSQL server (tests/bot/conftest.py), for a test that stops it: the
    tests of a worker run one at a time, and the server runs again after the test, whatever
    happened in it."""
    start_again(postgres_server)
    yield postgres_server
    start_again(postgres_server)


@pytest.fixture
async def own_url(own_server):
    return await new_database(own_server)


async def _get(port: int, path: str, headers: dict | None = None) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{port}{path}", headers=headers) as response:
            return response.status, await response.text()


# ---- in the bot's process -----------------------------------------------------------------------

async def _moves(runner, game_id: int) -> int:
    return len(await runner.store.actions(game_id))


@pytest.mark.parametrize("database", ["postgresql", "sqlite"])
async def test_a_press_while_the_database_is_away_is_answered_try_again_and_changes_nothing(
        fake, request, tmp_path, caplog, monkeypatch, database):
    caplog.set_level(logging.INFO)
    locker = None
    if database == "postgresql":
        own_server = request.getfixturevalue("own_server")
        db = await new_database(own_server)
        take_away, bring_back = (lambda: shut_down(own_server)), (lambda: start_again(own_server))
    else:
        db = tmp_path / "tablebot.sqlite3"
        monkeypatch.setattr(sqlite_store, "BUSY_SECONDS", 0.3)  # a write waits this long for a lock

        def take_away():  # another program holds the write lock
            nonlocal locker
            locker = sqlite3.connect(db, isolation_level=None)
            locker.execute("BEGIN EXCLUSIVE")

        def bring_back():
            locker.execute("ROLLBACK")
            locker.close()
    page_port = free_port()
    runner = await BotRunner(fake, db, metrics_port=0, port=page_port, webapp_url=f"http://127.0.0.1:{page_port}").start()
    try:
        fake.add_group(-10, "Outage")
        anna, boris = Player(fake, runner, 1, "Anna", lang="ru"), Player(fake, runner, 2, "Boris")
        game = await start_game(fake, runner, -10, "lucky", [boris, anna])  # a group in English
        mover = anna  # who reads Russian: the answer comes in the presser's language, not the group's
        while (match := await runner.bot.book.load(game.id)).game.seats[match.current].user_id != anna.id:
            table = fake.message(-10, game.table_msg)
            ends = [b for b in buttons(table) if b.get("callback_data", "").endswith(":bank")]
            await boris.press(-10, table.message_id, ends[0]["callback_data"] if ends
                              else button_data(table, endswith=":draw"))
        table = fake.message(-10, game.table_msg)
        draw = button_data(table, endswith=":draw")
        moves, edits = await _moves(runner, game.id), table.edits
        take_away()
        try:
            away = await mover.press(-10, table.message_id, draw)
            fake.add_user(5, "Eve")  # someone the bot has never seen: who she is needs the database
            stranger = fake.user_presses(5, -10, table.message_id, draw)
            await runner.idle()
            fake.add_group(-11, "Elsewhere")
            await boris.say(-11, "/new lucky")
            healthz = await _get(runner.bot.web.private_port, "/healthz")
            page = await _get(page_port, "/app/api/me", {"Authorization": "tma " + init_data(fake.token, 1, "Anna")})
        finally:
            bring_back()
        assert away["text"] == t(mover.lang, TRY_AGAIN) and away.get("show_alert"), away
        if database == "postgresql":  # (SQLite's file still answers reads: she is told she does not play)
            assert fake.callback_answer(stranger)["text"] == TRY_AGAIN
        assert {s.id: s.times_answered for s in fake.callback_stats()}[stranger] == 1
        assert [m.text for m in fake.messages(-11) if m.from_bot] == [TRY_AGAIN]
        assert await _moves(runner, game.id) == moves  # nothing half-way
        assert fake.message(-10, table.message_id).edits == edits
        if database == "postgresql":  # SQLite's file still answers reads: only writes wait
            assert healthz[0] == 503 and "the database does not answer: cannot reach the PostgreSQL server" \
                in healthz[1], healthz
            assert page[0] == 503 and "try again" in page[1], page  # the Mini App's API
        back = await mover.press(-10, table.message_id, draw)
        assert back["text"].startswith("✓"), back
        assert await _moves(runner, game.id) == moves + 1
    finally:
        await runner.stop()
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR], \
        [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert any("try again" in r.getMessage() and r.levelname == "WARNING" for r in caplog.records)


async def test_a_game_that_ends_while_the_database_is_away_shows_its_results_once_it_is_back(
        fake, tmp_path, caplog, monkeypatch):
    """The last move is made; before its results are recorded another program holds SQLite's
    write lock for 2 s. The results (and each person's own result in private) go out once the
    database is back, once, without a restart: the end waits for the database, not for a start."""
    caplog.set_level(logging.INFO)
    db = tmp_path / "tablebot.sqlite3"
    monkeypatch.setattr(sqlite_store, "BUSY_SECONDS", 0.3)
    monkeypatch.setattr(background, "RETRY_SECONDS", 0.5)
    runner = await BotRunner(fake, db).start()
    try:
        game, people, seat, code = await group_game_one_move_left(fake, runner, "lucky")
        await runner.idle(timeout=60)
        match = await runner.bot.book.load(game.id)
        await runner.bot.play.act(game.id, seat, match.turn, match.eng.decode_action(code))
        # Nothing of the end has run yet (no await since the move was committed): the lock now.
        locker = sqlite3.connect(db, isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")
        try:
            await asyncio.sleep(2.0)
            assert results(fake) == [], "results posted while the database was away"
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        for _ in range(100):
            if results(fake) and all(private_results(fake, p.id) for p in people):
                break
            await asyncio.sleep(0.1)
        await runner.idle()
        assert len(results(fake)) == 1, [m.text for m in fake.messages(GROUP) if m.from_bot]
        assert [len(private_results(fake, p.id)) for p in people] == [1, 1]
        assert (await runner.game(game.id)).end_shown
    finally:
        await runner.stop()
    waited = [r.getMessage() for r in caplog.records if "tries again" in r.getMessage()]
    assert waited and all("the database cannot be reached" in line for line in waited), waited
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR], \
        [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


# ---- real processes -------------------------------------------------------------------------------

def _story(supervisor: Supervisor, fake: FakeBotAPI, qid: str) -> str:
    """What the processes logged and what became of a press, for a failure's message."""
    logs = "\n=====\n".join(supervisor.output(p) for p in supervisor.procs)
    press = next((s for s in fake.callback_stats() if s.id == qid), None)
    return f"{logs}\n{press}\npolls: {[round(r.time, 1) for r in fake.calls('getUpdates')][-5:]}"


async def _said_away(port: int):
    """/healthz's answer once the process listens and says the database is away (503)."""
    found = await _health(port)
    return found if found is not None and found[0] == 503 and "the database" in found[1] else None


def _lines(proc) -> list[str]:
    """The process's output, read as it comes, line by line, into a list."""
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True).start()
    return lines


def test_a_database_down_at_start_is_waited_for_then_the_bot_serves(own_server, own_url):
    """One WARNING line per attempt (1, 2 … s apart), no exit, /healthz 503 saying why; once the
    server is up the bot serves (a lobby is opened) and /healthz is 200."""
    fake = FakeBotAPI()
    fake.start()
    port = free_port()
    shut_down(own_server)
    proc = launch({"TELEGRAM_BOT_TOKEN": fake.token, "TELEGRAM_API_URL": fake.base_url, "TABLEBOT_DB": own_url,
                   "METRICS_PORT": str(port)})
    try:
        lines = _lines(proc)
        waits = lambda: [line for line in lines if "trying again in" in line]  # noqa: E731
        assert wait_for(lambda: len(waits()) >= 2, 15), lines
        healthz = asyncio.run(_get(port, "/healthz"))
        assert proc.poll() is None, lines
        start_again(own_server)
        assert wait_for(lambda: fake.calls("getUpdates"), 20), lines
        fake.add_group(-5, "Back")
        fake.add_user(1, "Anna")
        fake.user_sends(1, -5, "/new lucky")
        assert wait_for(lambda: fake.last_bot_message(-5) is not None, 10), lines
        assert asyncio.run(_get(port, "/healthz")) == (200, "ok\n")
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
        fake.stop()
    output = "".join(lines)
    assert code == 0, output
    assert healthz[0] == 503 and healthz[1].startswith("waiting for the database: cannot reach the PostgreSQL"), \
        healthz
    first, second = waits()[:2]
    assert all("WARNING" in line and "cannot reach the PostgreSQL server at" in line for line in waits()), output
    assert "trying again in 1 s" in first and "trying again in 2 s" in second
    assert "the database answers; starting" in output
    assert "Traceback" not in output, output
    assert "Join" in str(fake.last_bot_message(-5).reply_markup)


async def test_a_refused_login_is_one_line_and_exit_code_2(postgres_url):
    """A person must fix it: no waiting, one line on stderr, exit code 2."""
    unknown = postgres_url.replace("postgres:@", "nobody_here:pw@")
    assert unknown != postgres_url
    result, took = await asyncio.to_thread(run_bot, [], {"TELEGRAM_BOT_TOKEN": "123:abc",
                                                         "TELEGRAM_API_URL": "http://127.0.0.1:9/bot",
                                                         "TABLEBOT_DB": unknown})
    assert result.returncode == 2, (result.returncode, took, result.stderr)  # not waited for (run_bot's timeout)
    line = result.stderr.strip()
    assert "\n" not in line and line.startswith("tablebot: ") and "refused the login" in line, result.stderr
    assert ":pw@" not in line and "trying again" not in result.stderr


async def test_two_supervised_processes_ride_out_two_outages_of_postgresql_during_a_game(own_server, own_url,
                                                                                        tmp_path):
    """Two processes, each restarted when it exits (the test is the supervisor); PostgreSQL stopped
    twice for OUTAGE_SECONDS during a game of lucky: the active process exits (75) once per outage,
    nothing else exits; meanwhile the standby's /healthz says the database is away (the restarted
    process's says so too: test_a_database_down_at_start_…); the game goes on within 30 s
    of the database's return (a press made during the outage is handled: its move made, and
    answered unless that comes later than Telegram takes answers) and is played on; every move
    made is in the action log exactly once, in order."""
    fake = FakeBotAPI()
    fake.start()
    supervisor = Supervisor(_bot_env(fake, own_url), own_url, tmp_path)
    ports: dict[int, int] = {}  # pid -> its METRICS_PORT

    def start(port: int | None = None):
        port = port or free_port()
        proc = supervisor.start(METRICS_PORT=str(port))
        ports[proc.pid] = port
        return proc

    exits, resumed_after, health_seen = [], [], []
    made_late = []  # moves of presses made during an outage and answered too late: (log length before, data)
    try:
        start(), start()
        table = Table(fake)
        fake.user_sends(ANNA, CHAT, "/new lucky")
        lobby, join = await _until(lambda: table.last_button("Join"), 30, "the lobby")
        fake.user_presses(12, CHAT, lobby.message_id, join)
        await _until(lambda: "Boris" in (fake.message(CHAT, lobby.message_id).text or ""), 15, "Boris joined")
        fake.user_presses(ANNA, CHAT, lobby.message_id, table.last_button("Start")[1])
        await _until(table.table, 15, "the table")

        for outage in range(2):
            while len(table.accepted) < (outage + 1) * MOVES_BETWEEN_OUTAGES:
                qid = table.press()
                if qid is None:
                    await asyncio.sleep(0.02)
                    continue
                await table.answered(qid)
            await _until(table.changed, 15, "the table after the last move")
            active, _ = await _until(supervisor.lock_holder, 15, "an active process")
            [standby] = [p.pid for p in supervisor.running() if p.pid != active]
            before = set(supervisor.exited_at)
            moves_before = len(await _log(own_url))
            shut_down(own_server)
            down_at = time.monotonic()
            # The active process lost its lock: it exits; the supervisor starts it again.
            await _until(lambda: active in supervisor.exited_at, 10, "the active process to exit")
            start(ports[active])
            qid = table.press(even_if_unchanged=True)  # a player presses meanwhile: Telegram keeps it
            health_seen.append(await _until(lambda: _said_away(ports[standby]), OUTAGE_SECONDS,
                                            "the standby's /healthz saying so"))
            await asyncio.sleep(max(0.0, down_at + OUTAGE_SECONDS - time.monotonic()))
            assert [p for p in supervisor.exited_at if p not in before] == [active]  # nobody else exited
            start_again(own_server)
            back_at = time.monotonic()
            handled = await _until(lambda: _first_answer(fake, qid), 30, "the press made meanwhile handled",
                                   explain=lambda: _story(supervisor, fake, qid))
            resumed_after.append(handled - back_at)
            # Its move is made; its pop-up too, unless Telegram no longer takes it (15 s after the press).
            if not table.note(qid, fake.callback_answer(qid)):
                assert _late(fake, qid), table.answers[-1]
                assert len(await _log(own_url)) == moves_before + 1
                made_late.append((moves_before, table.pressed[qid][0]))
            exits.append(sorted(p.returncode for p in supervisor.procs if p.pid in supervisor.exited_at
                                and p.pid not in before))

        while len(table.accepted) < 3 * MOVES_BETWEEN_OUTAGES and await _game_status(own_url) == "running":
            qid = table.press()
            if qid is None:
                await asyncio.sleep(0.02)
                continue
            await table.answered(qid)
        outputs = [supervisor.output(p) for p in supervisor.procs]
        log = await _log(own_url)
    finally:
        supervisor.stop_all()
        fake.stop()
    everything = "\n".join(outputs)
    assert exits == [[LOST_EXIT_CODE], [LOST_EXIT_CODE]], exits  # one exit per outage
    assert len(supervisor.procs) == 4  # the two first, and one restart per outage
    assert max(resumed_after) < 30, resumed_after
    expected = [data.rsplit(":", 1)[1] for data in table.accepted]
    for position, data in made_late:
        expected.insert(position, data.rsplit(":", 1)[1])
    assert [row["action"] for row in log] == expected, table.answers  # every move made once, in order
    assert "Traceback" not in everything, everything
    assert everything.count("lost the lock connection") == 2, everything
    waited = [line for line in everything.splitlines() if "cannot reach the PostgreSQL server" in line]
    assert waited and all("WARNING" in line and "trying again in" in line for line in waited), waited
    # While the database was away, every process still running said so on /healthz.
    assert [seen[1].startswith("standby: the database does not answer") for seen in health_seen] == [True, True], \
        health_seen
    assert fake.poll_overlaps == []
    assert not fake.violations, fake.violations
    print(f"\nPostgreSQL away twice for {OUTAGE_SECONDS:.0f} s: the press made meanwhile handled "
          f"{', '.join(f'{s:.1f}' for s in resumed_after)} s after its return ({len(made_late)} of 2 too late "
          f"for its pop-up); {len(log)} moves, each once")
