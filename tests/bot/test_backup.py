"""``python -m bot backup FILE``: a consistent copy of the live database, and the ways it refuses."""
from __future__ import annotations

import asyncio
import contextlib
import os
import pathlib
import random
import sqlite3
import subprocess
import sys

from tests.bot.harness import BotRunner, Player, button_data
from tests.bot.test_cli import run_bot
from tests.bot.test_lucky_e2e import GROUP, open_lobby, play_by_buttons
from tests.bot.test_startup import read_only

ROOT = pathlib.Path(__file__).resolve().parents[2]


def env_for(db) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "TABLEBOT_"))}
    return {**base, "TABLEBOT_DB": str(db)}


def run_backup(db, *args) -> subprocess.CompletedProcess:
    return run_bot(["backup", *map(str, args)], {"TABLEBOT_DB": str(db)})


def contents(path) -> dict:
    """What a database holds that a backup must keep: the games as stored, their moves, the schema."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return {
            "games": db.execute("SELECT id, kind, chat_id, status, version, state, table_msg FROM games "
                                "ORDER BY id").fetchall(),
            "seats": db.execute("SELECT * FROM seats ORDER BY game_id, seat").fetchall(),
            "actions": db.execute("SELECT game_id, n, seat, action FROM actions ORDER BY game_id, n").fetchall(),
            "schema": db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0],
        }


async def test_a_backup_taken_while_the_bot_runs_is_whole_and_a_bot_continues_the_game_from_it(fake, tmp_path):
    db, copy = tmp_path / "live.sqlite3", tmp_path / "backups" / "copy.sqlite3"
    copy.parent.mkdir()
    fake.add_group(GROUP, "G")
    runner = await BotRunner(fake, db).start()
    players = [Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")]
    try:
        lobby = await open_lobby(fake, runner, players)
        await players[0].press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
        await play_by_buttons(fake, runner, players, random.Random(3), stop_after=6)
        await runner.idle()
        # The newest commits are in the write-ahead log, not yet in the main file: what a plain
        # copy of the file would miss.
        assert os.path.getsize(f"{db}-wal") > 0
        # The bot keeps its connection open and serves while the backup runs (not blocking the loop).
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "backup", str(copy), cwd=ROOT,
                                                    env=env_for(db), stdout=asyncio.subprocess.PIPE,
                                                    stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(proc.communicate(), 30)
        live = contents(db)
    finally:
        await runner.stop()
    assert proc.returncode == 0, err.decode()
    line = out.decode().strip()
    assert "\n" not in line and str(copy) in line and f"{copy.stat().st_size} bytes" in line, line
    assert f"{len(live['games'])} games" in line, line

    with contextlib.closing(sqlite3.connect(copy)) as check:
        assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert check.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one self-contained file
    saved = contents(copy)
    assert saved == live and saved["actions"] and saved["games"][0][3] == "running"

    # Restore: a bot started on the copy continues the game where the backup left it.
    restored = await BotRunner(fake, copy).start()
    for p in players:
        p.runner = restored
    try:
        await restored.idle()
        await play_by_buttons(fake, restored, players, random.Random(4), stop_after=2)
        game = (await restored.games())[0]
        assert game.version > live["games"][0][4]
    finally:
        await restored.stop()
    assert len(contents(copy)["actions"]) == len(live["actions"]) + 2


def _one_line_refusal(result, *words) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    line = result.stderr.strip()
    assert "\n" not in line and "Traceback" not in line and line.startswith("tablebot: "), result.stderr
    assert all(w in line for w in words), line
    assert result.stdout == ""
    return line


def _tablebot_database(path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.executescript("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (4);"
                         "CREATE TABLE games (id INTEGER PRIMARY KEY); INSERT INTO games VALUES (1), (2);")


def test_backup_refuses_to_overwrite_without_force_and_overwrites_with_it(tmp_path):
    db, copy = tmp_path / "db.sqlite3", tmp_path / "copy.sqlite3"
    _tablebot_database(db)
    copy.write_bytes(b"last night's backup")
    _one_line_refusal(run_backup(db, copy), str(copy), "--force")
    assert copy.read_bytes() == b"last night's backup"
    result = run_backup(db, copy, "--force")
    assert result.returncode == 0 and "2 games, schema 4" in result.stdout, result.stderr
    with contextlib.closing(sqlite3.connect(copy)) as check:
        assert check.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.sqlite3", "db.sqlite3"]  # no leftovers
    _one_line_refusal(run_backup(db, db, "--force"), "the database itself")


def test_backup_of_a_missing_or_unusable_database_is_one_line(tmp_path):
    copy = tmp_path / "copy.sqlite3"
    missing = tmp_path / "missing.sqlite3"
    _one_line_refusal(run_backup(missing, copy), str(missing), "no database")
    assert not missing.exists()  # not created by looking at it
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(random.Random(1).randbytes(5000))
    _one_line_refusal(run_backup(junk, copy), str(junk), "not an SQLite database")
    other = tmp_path / "other.sqlite3"
    with contextlib.closing(sqlite3.connect(other)) as db:
        db.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY)")
    _one_line_refusal(run_backup(other, copy), str(other), "not a tablebot database")
    assert not copy.exists()


def test_backup_to_an_unwritable_place_is_one_line(tmp_path):
    db = tmp_path / "db.sqlite3"
    _tablebot_database(db)
    _one_line_refusal(run_backup(db, tmp_path / "nowhere" / "copy.sqlite3"), "nowhere", "does not exist")
    _one_line_refusal(run_backup(db, tmp_path), "is a directory")
    locked = tmp_path / "locked"
    locked.mkdir()
    with read_only(locked):
        _one_line_refusal(run_backup(db, locked / "copy.sqlite3"), str(locked / "copy.sqlite3"), "cannot write")
    assert list(locked.iterdir()) == []


def test_backup_of_a_postgresql_database_points_to_pg_dump_without_the_url():
    url = "postgresql://tablebot:s3cret-pw@db.example:5432/tablebot"
    line = _one_line_refusal(run_backup(url, "/tmp/never-written.sqlite3"), "pg_dump")
    assert "s3cret-pw" not in line and "db.example" not in line
