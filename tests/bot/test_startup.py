"""``python -m bot`` in a sick world: a bad database, Telegram down at start, SIGTERM during play.

Each case runs the real ``python -m bot`` in a child process against the fake Bot API and looks
at what an operator sees: one line on stderr and an exit code, a log line per attempt, a quick
and tidy exit.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pathlib
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from bot.storage.migrations import MIGRATIONS
from tests.bot.harness import BotRunner, Player, button_data, buttons
from tests.fakebotapi import FakeBotAPI

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOBODY_LISTENS = "http://127.0.0.1:9/bot"  # the discard port: connection refused


def clean_env(**env) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "TABLEBOT_", "LOG_"))}
    return {**base, **env}


def run_bot(args, env, timeout=20):
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, env=clean_env(**env),
                            capture_output=True, text=True, timeout=timeout)
    return result, time.monotonic() - started


def launch(env) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "bot"], cwd=ROOT, env=clean_env(**env),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())


def stop(proc: subprocess.Popen, timeout: float = 20) -> tuple[int, str, float]:
    """SIGTERM; the exit code, the output and the seconds from the signal to the exit."""
    signalled = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    output, _ = proc.communicate(timeout=timeout)
    return proc.returncode, output, time.monotonic() - signalled


# ---- a bad database ----------------------------------------------------------------------------

def _good_database(path: pathlib.Path) -> None:
    """A database of this version with a few games' worth of rows (bigger than one page)."""
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    for number, script in enumerate(MIGRATIONS, start=1):
        db.executescript(script)
        db.execute("INSERT INTO schema_version VALUES (?)", (number,))
    db.executemany("INSERT INTO users (user_id, name) VALUES (?, ?)", [(i, "x" * 300) for i in range(300)])
    db.commit()
    db.close()


@contextlib.contextmanager
def read_only(path: pathlib.Path):
    """Make a file or directory unwritable for this process: chmod for a user, the immutable
    attribute for root (who writes through any mode); skip when neither is possible."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    try:
        subprocess.run(["chattr", "+i", str(path)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("running as root and cannot make a file immutable here")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], capture_output=True)


def _directory(tmp):
    path = tmp / "games.sqlite3"
    path.mkdir()
    return path, "is a directory"


def _random_bytes(tmp):
    path = tmp / "games.sqlite3"
    path.write_bytes(random.Random(1).randbytes(40_000))
    return path, "not an SQLite database"


def _cut_in_half(tmp):
    path = tmp / "games.sqlite3"
    _good_database(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path, "damaged"


def _another_program(tmp):
    path = tmp / "games.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
    db.commit()
    db.close()
    return path, "another program"


def _newer_version(tmp):
    path = tmp / "games.sqlite3"
    _good_database(path)
    db = sqlite3.connect(path)
    db.execute("INSERT INTO schema_version VALUES (?)", (len(MIGRATIONS) + 1,))
    db.commit()
    db.close()
    return path, "newer version of tablebot"


def _unwritable_file(tmp):
    path = tmp / "games.sqlite3"
    _good_database(path)
    return path, "writable", path


def _unwritable_directory(tmp):
    folder = tmp / "data"
    folder.mkdir()
    return folder / "games.sqlite3", "not writable", folder


BAD_DATABASES = {
    "directory": _directory,
    "random-bytes": _random_bytes,
    "cut-in-half": _cut_in_half,
    "another-program": _another_program,
    "newer-version": _newer_version,
    "unwritable-file": _unwritable_file,
    "unwritable-directory": _unwritable_directory,
}


@pytest.mark.parametrize("case", list(BAD_DATABASES))
def test_a_bad_database_is_one_line_and_exit_code_2_for_run_and_status(tmp_path, case):
    made = BAD_DATABASES[case](tmp_path)
    path, words = made[0], made[1]
    lock = read_only(made[2]) if len(made) > 2 else contextlib.nullcontext()
    before = path.read_bytes() if path.is_file() else None
    with lock:
        # Telegram is not even reachable: the database is checked first and never waits for it.
        ran, ran_took = run_bot([], {"TELEGRAM_BOT_TOKEN": "123:abc", "TELEGRAM_API_URL": NOBODY_LISTENS,
                                     "TABLEBOT_DB": str(path)})
        status, status_took = run_bot(["status"], {"TABLEBOT_DB": str(path)})
    for result, took in ((ran, ran_took), (status, status_took)):
        assert result.returncode == 2, result.stderr
        # Telegram cannot be reached: a bot that waited for it would retry until killed, so an
        # exit at all shows the database was checked first (the bound only catches a wait).
        assert took < 20, f"{took:.1f} s"
        line = result.stderr.strip()
        assert "\n" not in line and "Traceback" not in line, result.stderr
        assert line.startswith("tablebot: ") and str(path) in line and words in line, line
        assert "TABLEBOT_DB" in line or "restore" in line or "permissions" in line, line
        assert result.stdout == ""
    assert status.stderr == ran.stderr  # the same line either way
    if before is not None:
        assert path.read_bytes() == before  # a database we refuse is left as it was


def test_status_creates_a_missing_directory_and_answers(tmp_path):
    path = tmp_path / "new" / "deeper" / "games.sqlite3"
    result, took = run_bot(["status"], {"TABLEBOT_DB": str(path)})
    assert result.returncode == 0 and result.stdout == "" and took < 5, result.stderr
    assert path.parent.is_dir()


def test_a_postgresql_server_out_of_reach_never_shows_the_password_status_fails_and_run_waits():
    """``status`` says it in one line (exit code 2); the bot waits for the server (a line per
    attempt, tests/bot/test_database_outage.py) and stops at once when told to."""
    url = "postgresql://tablebot:s3cret-pw@db.example:5432/tablebot"
    status, _ = run_bot(["status"], {"TABLEBOT_DB": url})
    assert status.returncode == 2, status.stderr
    line = status.stderr.strip()
    assert line.startswith("tablebot: cannot reach the PostgreSQL server at db.example:5432") and "\n" not in line
    proc = launch({"TELEGRAM_BOT_TOKEN": "123:abc", "TELEGRAM_API_URL": NOBODY_LISTENS, "TABLEBOT_DB": url})
    try:
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True)
        reader.start()
        assert wait_for(lambda: any("trying again in" in line for line in lines), 15), lines
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=10)
        reader.join(5)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert code == 0, (code, lines)
    assert "cannot reach the PostgreSQL server at db.example:5432 (database tablebot)" in "".join(lines)
    assert "s3cret-pw" not in line + "".join(lines) and "Traceback" not in "".join(lines)
    assert not (ROOT / "postgresql:").exists()  # not taken for a path (the bot runs in ROOT)


# ---- Telegram down at start --------------------------------------------------------------------

def test_telegram_down_at_start_is_one_line_per_attempt_then_the_bot_serves(tmp_path):
    """Refused for 5 s, then nginx's 502 until 11 s: the bot says so once per attempt (1, 2, 4 s
    apart), without a traceback, and serves as soon as Telegram is back (in a database directory
    that did not exist: it is created). (Telegram stays away long enough for three attempts even
    when the process takes seconds to start on a busy machine.)"""
    fake = FakeBotAPI()
    fake.start(down=True)
    switch = threading.Timer(5.0, fake.set_down, args=(True,), kwargs={"how": "502"})
    switch.start()
    fake.up_after(11.0)
    db = tmp_path / "missing" / "games.sqlite3"
    try:
        proc = launch({"TELEGRAM_BOT_TOKEN": fake.token, "TELEGRAM_API_URL": fake.base_url,
                       "TABLEBOT_DB": str(db)})
        # An attempt just before 11 s waits 8 s for the next: polling may begin ~19 s after the launch.
        assert wait_for(lambda: fake.calls("getUpdates"), 32), "the bot never started polling"
        fake.add_group(-5, "Back online")
        fake.add_user(1, "Anna")
        fake.user_sends(1, -5, "/new lucky")
        assert wait_for(lambda: fake.last_bot_message(-5) is not None, 10), "no lobby"
        lobby = fake.last_bot_message(-5)
        code, output, _ = stop(proc)
    finally:
        switch.cancel()
        fake.stop()
    assert "Join" in str(lobby.reply_markup)
    assert code == 0, output
    attempts = [line for line in output.splitlines() if "Telegram is not reachable" in line]
    assert len(attempts) >= 3, output
    assert all("WARNING" in line and fake.base_url in line for line in attempts), attempts
    assert re.search(r"\(ClientConnectorError\); trying again in 1 s", attempts[0]), attempts
    assert "trying again in 2 s" in attempts[1] and any("502" in line for line in attempts), attempts
    assert "Traceback" not in output, output
    assert fake.token not in output and fake.token.split(":")[1] not in output
    assert db.is_file()


def test_a_start_that_fails_half_way_is_retried_with_a_line_per_attempt(tmp_path):
    """Telegram answers who we are, then fails python-telegram-bot's next start-up call twice:
    its bootstrap retries take it (one WARNING line each, no traceback) and the bot serves."""
    fake = FakeBotAPI()
    fake.start()
    fake.fail_next("deleteWebhook", error_code=500, description="Internal Server Error", count=2)
    try:
        proc = launch({"TELEGRAM_BOT_TOKEN": fake.token, "TELEGRAM_API_URL": fake.base_url,
                       "TABLEBOT_DB": str(tmp_path / "x.sqlite3")})
        polling = wait_for(lambda: fake.calls("getUpdates"), 15)
        code, output, _ = stop(proc)
    finally:
        fake.stop()
    assert polling and code == 0, output
    retries = [line for line in output.splitlines() if "while starting" in line]
    assert len(retries) == 2 and all("WARNING" in line and fake.base_url in line for line in retries), output
    assert "Traceback" not in output, output


def test_a_rejected_token_while_telegram_is_up_stops_at_once(tmp_path):
    fake = FakeBotAPI()
    fake.start()
    try:
        result, took = run_bot([], {"TELEGRAM_BOT_TOKEN": "999:wrong-token", "TELEGRAM_API_URL": fake.base_url,
                                    "TABLEBOT_DB": str(tmp_path / "x.sqlite3")})
    finally:
        fake.stop()
    assert result.returncode == 2 and took < 5
    assert result.stderr.strip().count("\n") == 0 and "rejected" in result.stderr


def test_the_bot_stops_at_once_while_waiting_for_telegram(tmp_path):
    proc = launch({"TELEGRAM_BOT_TOKEN": "123:abc", "TELEGRAM_API_URL": NOBODY_LISTENS,
                   "TABLEBOT_DB": str(tmp_path / "x.sqlite3")})
    try:
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True)
        reader.start()
        assert wait_for(lambda: any("not reachable" in line for line in lines), 10)
        signalled = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        took = time.monotonic() - signalled
        reader.join(5)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and took < 2, (proc.returncode, took, lines)
    assert not any("Traceback" in line for line in lines)


async def test_a_failing_command_menu_does_not_stop_the_start_and_is_set_later(fake, tmp_path, monkeypatch):
    from bot import app

    monkeypatch.setattr(app, "MENU_RETRY_SECONDS", 0.2)
    fake.fail_next("setMyCommands", error_code=500, description="Internal Server Error", count=2)
    runner = await BotRunner(fake, tmp_path / "db.sqlite3").start()
    try:
        fake.add_group(-5, "G")
        anna = Player(fake, runner, 1, "Anna")
        await anna.say(-5, "/new lucky")
        assert "Join" in str(fake.last_bot_message(-5).reply_markup)
        await fake.wait_for(lambda: len(fake.commands({"type": "all_private_chats"}, "ru")) > 0, timeout=5)
        assert fake.commands({"type": "all_group_chats"})[0]["command"] == "new"
    finally:
        await runner.stop()


# ---- network failures in the log ---------------------------------------------------------------

def test_a_network_failure_is_one_warning_line_and_a_bug_keeps_its_traceback():
    from telegram.error import NetworkError

    from bot.logs import NetworkAsOneLine, RedactToken
    from bot.outgoing.http import AiohttpRequest

    async def refused() -> NetworkError:
        request = AiohttpRequest(1)
        await request.initialize()
        try:
            await request.do_request("http://127.0.0.1:1/bot123:secret/getUpdates", "POST")
        except NetworkError as exc:
            return exc
        finally:
            await request.shutdown()
        raise AssertionError("nothing listens on port 1, yet the request went through")

    def record(exc: BaseException, message: str) -> logging.LogRecord:
        try:
            raise exc
        except BaseException:
            return logging.LogRecord("telegram.ext.Updater", logging.ERROR, __file__, 1, message, (), sys.exc_info())

    url = "http://127.0.0.1:1/bot"
    one_line, redact = NetworkAsOneLine(url), RedactToken("123:secret")
    failure = record(asyncio.run(refused()), "Exception happened while polling for updates.")
    assert one_line.filter(failure) and redact.filter(failure)
    text = logging.Formatter("%(levelname)s %(message)s").format(failure)
    assert text == f"WARNING Telegram is not reachable at {url} (ClientConnectorError) while polling for updates; trying again"
    bug = record(ValueError("123:secret is not a number"), "error while handling an update")
    assert one_line.filter(bug) and redact.filter(bug)
    text = logging.Formatter("%(levelname)s %(message)s").format(bug)
    assert text.startswith("ERROR error while handling an update") and "Traceback" in text
    assert "123:secret" not in text and "<token>" in text


# ---- SIGTERM during play -----------------------------------------------------------------------

GROUPS = (-100201, -100202, -100203)


class Table:
    """Two people playing «Совершенно гениально» in a group through the fake, as fast as the
    table lets them: a press on the newest table once it shows a new turn, by whoever it names."""

    def __init__(self, fake, chat_id: int, first_user: int):
        self.fake, self.chat = fake, chat_id
        self.people = {first_user: f"Anna{first_user}", first_user + 1: f"Boris{first_user}"}
        fake.add_group(chat_id, f"Table {chat_id}")
        for user_id, name in self.people.items():
            fake.add_user(user_id, name)
        self.pending: str | None = None
        self.pressed_on: tuple[str, ...] | None = None  # the buttons last pressed on
        self.accepted = 0

    def open(self) -> None:
        """/new, Join, Start in every group (at the groups' pace, all at once)."""
        host, guest = self.people
        self.fake.user_sends(host, self.chat, "/new lucky")

    def join(self) -> None:
        host, guest = self.people
        assert wait_for(lambda: self._button("Join"), 15), "no lobby"
        lobby, data = self._button("Join")
        self.fake.user_presses(guest, self.chat, lobby.message_id, data)
        self.lobby = lobby

    def start(self) -> None:
        host, guest = self.people
        assert wait_for(lambda: "Boris" in (self.fake.message(self.chat, self.lobby.message_id).text or ""), 15)
        lobby, data = self._button("Start")
        self.fake.user_presses(host, self.chat, lobby.message_id, data)

    def _button(self, text: str):
        message = self.fake.last_bot_message(self.chat)
        try:
            return message, button_data(message, text=text)
        except (AssertionError, AttributeError):
            return None

    def table(self):
        for message in reversed(self.fake.messages(self.chat)):
            if message.from_bot and any(b.get("callback_data", "").endswith((":draw", ":bank"))
                                        for b in buttons(message)):
                return message
        return None

    def step(self, rng: random.Random) -> None:
        """One step of play that never blocks: look at the answer to the last press, or press
        once on each turn the table shows (a table may be edited twice showing the same turn: a
        second press on it would be a repeat, answered "✓ Done", not a move)."""
        if self.pending is not None:
            answer = self.fake.callback_answer(self.pending)
            if answer is None:
                return
            self.pending = None
            text = answer.get("text") or ""
            self.accepted += text.startswith("✓") and not text.startswith("✓ Done:")
            return
        table = self.table()
        if table is None:
            return
        datas = [b["callback_data"] for b in buttons(table) if b.get("callback_data", "").endswith((":draw", ":bank"))]
        if tuple(datas) == self.pressed_on:
            return
        match = re.search(r"Now: \u2068?([^\u2069\s]+)", table.caption or "")
        actor = next((u for u, name in self.people.items() if match and name == match.group(1)), None)
        if actor is None:
            return
        self.pending = self.fake.user_presses(actor, self.chat, table.message_id, rng.choice(datas))
        self.pressed_on = tuple(datas)
        if rng.random() < 0.3:  # and some chatter: command replies queue up behind the table
            self.fake.user_sends(actor, self.chat, "/rules lucky")


def _moves_in(db: pathlib.Path) -> int:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]


def test_sigterm_during_play_exits_within_5_seconds_tidily_and_a_restart_continues(tmp_path):
    """Three groups play as fast as the bot lets them (40 writes a minute per group: edits and
    command replies queue up); SIGTERM: exit code 0 within 5 s, no task left pending, no traceback; every move
    that was answered as made is in the database; a restarted bot takes the next move."""
    fake = FakeBotAPI()
    fake.start()
    db = tmp_path / "games.sqlite3"
    env = {"TELEGRAM_BOT_TOKEN": fake.token, "TELEGRAM_API_URL": fake.base_url, "TABLEBOT_DB": str(db),
           "TABLEBOT_GROUP_FAST_SPACING": "0.3", "TABLEBOT_GROUP_WRITES_PER_MINUTE": "40"}
    try:
        proc = launch(env)
        tables = [Table(fake, chat, 10 * (i + 1)) for i, chat in enumerate(GROUPS)]
        for phase in (Table.open, Table.join, Table.start):
            for table in tables:
                phase(table)
        assert wait_for(lambda: all(t.table() is not None for t in tables), 15), "no table"
        rng = random.Random(7)
        playing_until = time.monotonic() + 2.5
        while time.monotonic() < playing_until:
            for table in tables:
                table.step(rng)
            time.sleep(0.02)
        code, output, took = stop(proc)
        for table in tables:  # answers that arrived before the exit
            table.step(rng)
        accepted = sum(t.accepted for t in tables)

        assert code == 0, output
        assert took < 5.0, f"SIGTERM to exit took {took:.1f} s\n{output}"
        assert "Task was destroyed" not in output and "Traceback" not in output, output
        assert accepted >= 3, output
        assert _moves_in(db) >= accepted  # every move answered as made was committed

        # A restarted bot continues every game: the next move is taken.
        proc = launch(env)
        table = tables[0]
        table.pending, table.pressed_on, before = None, None, table.accepted
        moved = wait_for(lambda: table.step(rng) or table.accepted > before, 20)
        code, output, took = stop(proc)
        assert moved, output
        assert code == 0 and took < 5.0 and "Traceback" not in output, output
    finally:
        fake.stop()
    assert not fake.violations, fake.violations
