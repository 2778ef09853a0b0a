"""Hot standby end to end: real ``python -m bot`` processes on one real PostgreSQL and the fake Bot
API. The test is the supervisor: it keeps two processes running, kills the active one with
SIGKILL during a game, and starts another standby each time, as systemd or a container's restart
policy would.

Which process is active is read from the database: the session that holds the bot's advisory
lock names its process (``application_name`` "tablebot-lock <pid>").
"""
from __future__ import annotations

import asyncio
import os
import pathlib
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time

import aiohttp
import asyncpg
from prometheus_client.parser import text_string_to_metric_families

from bot.ops.standby import APPLICATION_NAME, LOST_EXIT_CODE
from tests.bot.harness import buttons
from tests.bot.test_startup import clean_env
from tests.bot.webapp_client import free_port
from tests.fakebotapi import FakeBotAPI

ROOT = pathlib.Path(__file__).resolve().parents[2]
KILLS = 6
PRESSES_BETWEEN_KILLS = 6
CHAT = -100501
ANNA, BORIS = 11, 12


class Supervisor:
    """Bot processes on one database, their output in files (a pipe nobody reads would fill up
    and stop a process that logs)."""

    def __init__(self, env: dict[str, str], url: str, logs: pathlib.Path):
        self.env, self.url, self.logs = env, url, logs
        self.procs: list[subprocess.Popen] = []
        self.exited_at: dict[int, float] = {}  # pid -> when the test saw it end

    def start(self, **env: str) -> subprocess.Popen:
        out = open(self.logs / f"bot{len(self.procs)}.log", "w")
        proc = subprocess.Popen([sys.executable, "-m", "bot"], cwd=ROOT, env=clean_env(**{**self.env, **env}),
                                stdout=out, stderr=subprocess.STDOUT, text=True)
        out.close()
        self.procs.append(proc)
        threading.Thread(target=self._note_exit, args=(proc,), daemon=True).start()
        return proc

    def _note_exit(self, proc: subprocess.Popen) -> None:
        proc.wait()
        self.exited_at[proc.pid] = time.monotonic()

    def output(self, proc: subprocess.Popen) -> str:
        return (self.logs / f"bot{self.procs.index(proc)}.log").read_text()

    def running(self) -> list[subprocess.Popen]:
        # not poll(): while the thread above waits for a process, poll() cannot tell it ended
        return [p for p in self.procs if p.pid not in self.exited_at]

    async def lock_holder(self) -> tuple[int, int] | None:
        """(the process's pid, its lock session's server pid) of the active process, if any."""
        rows = await _query(self.url, "SELECT a.pid, a.application_name FROM pg_locks l JOIN pg_stat_activity a "
                                      "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted")
        for row in rows:
            if row["application_name"].startswith(APPLICATION_NAME + " "):
                return int(row["application_name"].split()[-1]), row["pid"]
        return None

    def stop_all(self) -> None:
        for proc in self.running():
            proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


async def _query(url: str, sql: str, *args) -> list:
    connection = await asyncpg.connect(url)
    try:
        return await connection.fetch(sql, *args)
    finally:
        await connection.close()


async def _until(condition, seconds: float, what: str, interval: float = 0.02, explain=lambda: ""):
    """``condition()``'s value once true; ``explain()`` adds to the message of a timeout."""
    deadline = time.monotonic() + seconds
    while not (value := await _maybe_await(condition())):
        assert time.monotonic() < deadline, f"timed out after {seconds} s waiting for {what}\n{explain()}"
        await asyncio.sleep(interval)
    return value


async def _health(port: int) -> tuple[int, str, float] | None:
    """(/healthz's status, its text, tablebot_active from /metrics), or None while nothing listens."""
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as session:
            async with session.get(f"http://127.0.0.1:{port}/healthz") as response:
                status, text = response.status, (await response.text()).strip()
            async with session.get(f"http://127.0.0.1:{port}/metrics") as response:
                families = text_string_to_metric_families(await response.text())
    except aiohttp.ClientError:
        return None
    active = next(s.value for f in families if f.name == "tablebot_active" for s in f.samples)
    return status, text, active


async def _health_is(port: int, text: str):
    found = await _health(port)
    return found if found is not None and found[1] == text else None


async def _maybe_await(value):
    return await value if asyncio.iscoroutine(value) else value


def _bot_env(fake: FakeBotAPI, url: str) -> dict[str, str]:
    return {"TELEGRAM_BOT_TOKEN": fake.token, "TELEGRAM_API_URL": fake.base_url, "TABLEBOT_DB": url,
            "TABLEBOT_GROUP_WRITES_PER_MINUTE": "10000", "TABLEBOT_GROUP_FAST_SPACING": "0"}


class Table:
    """Anna and Boris playing «Совершенно гениально» in a group, one press at a time, by whoever
    the table names; what each press got is kept."""

    def __init__(self, fake: FakeBotAPI):
        self.fake = fake
        fake.add_group(CHAT, "Standby night")
        self.people = {ANNA: "Anna", BORIS: "Boris"}
        for user_id, name in self.people.items():
            fake.add_user(user_id, name)
        self.rng = random.Random(25)
        self.accepted: list[str] = []  # the callback data of every press answered as a move made
        self.seen: tuple[int, int] | None = None  # the table as it was at the last accepted press
        self.pressed: dict[str, tuple[str, tuple[int, int]]] = {}  # query id -> (data, the table then)
        self.answers: list[tuple[str, str, str | None]] = []  # (query id, data, answer text), for failures

    def last_button(self, text: str):
        message = self.fake.last_bot_message(CHAT)
        for b in buttons(message) if message is not None else []:
            if text in b["text"] and "callback_data" in b:
                return message, b["callback_data"]
        return None

    def table(self):
        for message in reversed(self.fake.messages(CHAT)):
            if message.from_bot and any(b.get("callback_data", "").endswith((":draw", ":bank"))
                                        for b in buttons(message)):
                return message
        return None

    def changed(self) -> bool:
        """Whether the table shows something new since the last move made (its edit came)."""
        table = self.table()
        return table is not None and (table.message_id, table.edits) != self.seen

    def press(self, *, even_if_unchanged: bool = False) -> str | None:
        """Press draw or bank on the table as whoever it names; None when the table has not
        changed since the last move made (its edit is on its way)."""
        table = self.table()
        if table is None or not (even_if_unchanged or self.changed()):
            return None
        named = re.search(r"Now: \u2068?([^\u2069\s]+)", table.caption or "")
        actor = next((u for u, name in self.people.items() if named and name == named.group(1)), ANNA)
        datas = [b["callback_data"] for b in buttons(table) if b.get("callback_data", "").endswith((":draw", ":bank"))]
        data = self.rng.choice(datas)
        qid = self.fake.user_presses(actor, CHAT, table.message_id, data)
        self.pressed[qid] = (data, (table.message_id, table.edits))
        return qid

    async def answered(self, qid: str, seconds: float = 30.0) -> bool:
        """Wait for the press's answer: whether it was a move made."""
        answer = await _until(lambda: self.fake.callback_answer(qid), seconds, "an answer to a press")
        return self.note(qid, answer)

    def note(self, qid: str, answer: dict | None) -> bool:
        self.answers.append((qid, self.pressed[qid][0], None if answer is None else answer.get("text")))
        text = (answer or {}).get("text") or ""
        # "✓ Done: now … moves." answers a press of a table that has moved on since: no move.
        if not text.startswith("✓") or text.startswith("✓ Done:"):
            return False
        data, self.seen = self.pressed[qid]
        self.accepted.append(data)
        return True

    def delivered(self, qid: str) -> bool:
        return any(s.id == qid and s.delivered_at is not None for s in self.fake.callback_stats())


def _first_answer(fake: FakeBotAPI, qid: str) -> float | None:
    """When the bot first answered a press (whether Telegram still took it), or None."""
    press = next((s for s in fake.callback_stats() if s.id == qid), None)
    return press.answer_times[0] if press is not None and press.answer_times else None


def _late(fake: FakeBotAPI, qid: str) -> bool:
    """Whether Telegram refused a press's answer as too old (15 s after the press)."""
    return next(s for s in fake.callback_stats() if s.id == qid).late


async def _log(url: str) -> list:
    """The game's action log, oldest first."""
    return await _query(url, "SELECT n, action FROM actions a JOIN games g ON g.id = a.game_id "
                             "WHERE g.chat_id = $1 ORDER BY n", CHAT)


async def _game_status(url: str) -> str | None:
    rows = await _query(url, "SELECT status FROM games WHERE chat_id = $1", CHAT)
    return rows[0]["status"] if rows else None


async def test_six_kill_9s_of_the_active_process_during_a_game_lose_nothing(postgres_url, tmp_path):
    """Two processes, always; the active one killed with SIGKILL six times during a game: never two
    pollers at once, the next press answered within 15 s of each kill, every move answered as made
    in the action log exactly once (in order), and the game finishes."""
    fake = FakeBotAPI()
    fake.start()
    supervisor = Supervisor(_bot_env(fake, postgres_url), postgres_url, tmp_path)
    to_first_poll, to_answer, fates = [], [], []
    try:
        supervisor.start()
        supervisor.start()
        table = Table(fake)
        fake.user_sends(ANNA, CHAT, "/new lucky")
        lobby, join = await _until(lambda: table.last_button("Join"), 30, "the lobby")
        fake.user_presses(BORIS, CHAT, lobby.message_id, join)
        await _until(lambda: "Boris" in (fake.message(CHAT, lobby.message_id).text or ""), 15, "Boris joined")
        fake.user_presses(ANNA, CHAT, lobby.message_id, table.last_button("Start")[1])
        await _until(table.table, 15, "the table")

        kills = 0
        unanswered_moves = []  # presses in flight at a kill, made but never answered: (log length, data)
        while await _game_status(postgres_url) == "running":
            if kills < KILLS and len(table.accepted) >= (kills + 1) * PRESSES_BETWEEN_KILLS:
                pid, _ = await _until(supervisor.lock_holder, 15, "an active process")
                in_flight = None
                if kills % 2:  # a press handed to the process, which may be committing it
                    await _until(table.changed, 15, "the table after the last move")
                    moves_before = len(await _log(postgres_url))  # before the press, which may be made at once
                    in_flight = table.press()
                    await _until(lambda: table.delivered(in_flight), 15, "the press handed over",
                                 interval=0.001)  # and kill at once: the process may be committing it
                # else: right after a move was answered, while the process draws and sends the table
                killed_at = time.monotonic()
                os.kill(pid, signal.SIGKILL)
                kills += 1
                supervisor.start()  # the supervisor restarts it: a standby again
                qid = table.press(even_if_unchanged=True)  # the next press, at once
                await _until(lambda: fake.callback_answer(qid), 30, "the next press answered")
                if in_flight is not None:  # its fate is sealed now: updates of a chat are handled in order
                    made = table.note(in_flight, fake.callback_answer(in_flight))
                    moves_after = len(await _log(postgres_url))
                    next_made = table.note(qid, fake.callback_answer(qid))
                    committed = made or moves_after - moves_before - next_made == 1
                    if committed and not made:
                        unanswered_moves.append((moves_before, table.pressed[in_flight][0]))
                    fates.append("answered" if made else "made, not answered" if committed else "lost")
                else:
                    table.note(qid, fake.callback_answer(qid))
                first_poll = min(r.time for r in fake.calls("getUpdates") if r.time > killed_at)
                to_first_poll.append(first_poll - killed_at)
                to_answer.append(next(s for s in fake.callback_stats() if s.id == qid).answer_times[0] - killed_at)
                assert len(supervisor.running()) == 2
                continue
            qid = table.press()
            if qid is None:
                await asyncio.sleep(0.02)
                continue
            await table.answered(qid)

        assert kills == KILLS, f"the game ended after {kills} kills"
        assert await _game_status(postgres_url) == "finished"
        assert fake.poll_overlaps == [], fake.poll_overlaps
        assert max(to_answer) < 15.0, to_answer
        log = await _log(postgres_url)
        numbers = [row["n"] for row in log]
        assert numbers == list(range(numbers[0], numbers[0] + len(log))), numbers  # the game's versions
        expected = [data.rsplit(":", 1)[1] for data in table.accepted]
        for position, data in unanswered_moves:  # a move committed by a process killed before it answered
            expected.insert(position, data.rsplit(":", 1)[1])
        assert [row["action"] for row in log] == expected, (  # every move made once, in order
            [a for a in table.answers if not (a[2] or "").startswith("✓")], fates,
            [line for proc in supervisor.procs for line in supervisor.output(proc).splitlines()
             if "ERROR" in line or "WARNING" in line or "CRITICAL" in line])
    finally:
        supervisor.stop_all()
        fake.stop()
    print(f"\ntake-over over {len(to_first_poll)} kills: kill -> first getUpdates median "
          f"{statistics.median(to_first_poll):.2f} s, max {max(to_first_poll):.2f} s; kill -> next press "
          f"answered median {statistics.median(to_answer):.2f} s, max {max(to_answer):.2f} s; "
          f"presses in flight at a kill: {', '.join(fates)}")
    assert not fake.violations, fake.violations


async def test_the_active_process_whose_lock_connection_is_cut_stops_before_the_standby_polls(
        postgres_url, tmp_path):
    """pg_terminate_backend on the active process's lock session: it exits at once (code 75, one
    log line), before the standby takes over and polls; a standby told to stop exits with 0."""
    fake = FakeBotAPI()
    fake.start()
    supervisor = Supervisor(_bot_env(fake, postgres_url), postgres_url, tmp_path)
    try:
        ports = {}
        for _ in range(2):
            port = free_port()
            proc = supervisor.start(METRICS_PORT=str(port))
            ports[proc.pid] = port
        first, second = supervisor.procs
        pid, session = await _until(supervisor.lock_holder, 30, "an active process")
        await _until(lambda: fake.calls("getUpdates"), 30, "the active process polling")
        active = first if first.pid == pid else second
        standby = second if active is first else first
        # Each says what it is: the active one serves, a ready standby is healthy too.
        assert await _until(lambda: _health(ports[active.pid]), 15, "the active one's /healthz") == (200, "ok", 1)
        assert await _until(lambda: _health(ports[standby.pid]), 15, "the standby's /healthz") == (200, "standby", 0)

        cut_at = time.monotonic()
        await _query(postgres_url, "SELECT pg_terminate_backend($1)", session)
        await _until(lambda: active.pid in supervisor.exited_at, 10, "the active process to stop")
        assert active.returncode == LOST_EXIT_CODE
        lines = [line for line in supervisor.output(active).splitlines() if "lost the lock connection" in line]
        assert len(lines) == 1, supervisor.output(active)
        assert "Traceback" not in supervisor.output(active)

        new_pid, _ = await _until(supervisor.lock_holder, 15, "the standby taking over")
        assert new_pid == standby.pid
        # The bot's own server took the standby's port over.
        assert await _until(lambda: _health_is(ports[standby.pid], "ok"), 15, "the new active one's /healthz") \
            == (200, "ok", 1)
        first_poll = await _until(lambda: min((r.time for r in fake.calls("getUpdates") if r.time > cut_at),
                                              default=None), 15, "the new active process polling")
        assert supervisor.exited_at[active.pid] < first_poll  # stopped before the other one polled
        fake.add_user(5, "Eve")
        fake.user_starts_private(5)
        await _until(lambda: fake.calls("sendMessage", chat_id=5), 15, "an answer from the new active process")
        assert fake.poll_overlaps == []

        # A standby stops at once when told to, holding nothing.
        another = supervisor.start()
        await _until(lambda: "standby: another process serves this bot" in supervisor.output(another), 30,
                     "the new process waiting as a standby")
        another.send_signal(signal.SIGTERM)
        assert another.wait(timeout=10) == 0
        assert (await supervisor.lock_holder())[0] == standby.pid
    finally:
        supervisor.stop_all()
        fake.stop()
    assert not fake.violations, fake.violations
