"""``LOG_FORMAT=json``: one JSON object per line, game records with their ids, the token redacted."""
from __future__ import annotations

import contextlib
import json
import os
import pathlib
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap

from tests.bot.test_startup import Table, clean_env, wait_for
from tests.fakebotapi import FakeBotAPI

ROOT = pathlib.Path(__file__).resolve().parents[2]
GROUP = -100301


def _status(db) -> str | None:
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        row = conn.execute("SELECT status FROM games ORDER BY id DESC LIMIT 1").fetchone()
    return row[0] if row else None


def _records(output: str) -> list[dict]:
    """Every line of the output as a JSON object with the four keys every record has."""
    records = []
    for line in output.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            raise AssertionError(f"not a JSON line: {line!r}\n{output}") from None
        assert isinstance(record, dict) and {"time", "level", "logger", "message"} <= record.keys(), line
        records.append(record)
    return records


def test_the_bot_logs_json_lines_and_a_games_records_carry_its_ids(tmp_path):
    fake = FakeBotAPI()
    fake.start()
    db, log = tmp_path / "games.sqlite3", tmp_path / "bot.log"
    env = clean_env(TELEGRAM_BOT_TOKEN=fake.token, TELEGRAM_API_URL=fake.base_url, TABLEBOT_DB=str(db),
                    LOG_FORMAT="json", LOG_LEVEL="DEBUG", TABLEBOT_GROUP_FAST_SPACING="0.3")
    try:
        # Into a file: at DEBUG the bot writes more than a pipe holds before anyone reads it.
        with open(log, "w") as out:
            proc = subprocess.Popen([sys.executable, "-m", "bot"], cwd=ROOT, env=env, stdout=out,
                                    stderr=subprocess.STDOUT, text=True)
        table = Table(fake, GROUP, 40)
        table.open()
        table.join()
        table.start()
        assert wait_for(lambda: table.table() is not None, 20), "no table"
        rng = random.Random(2)
        assert wait_for(lambda: table.step(rng) or table.accepted >= 2, 20), "no moves"
        host = next(iter(table.people))
        fake.user_sends(host, GROUP, "/cancel")
        assert wait_for(lambda: _status(db) == "cancelled", 20), "not cancelled"
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
        fake.stop()
    output = log.read_text()
    assert code == 0, output
    records = _records(output)
    assert fake.token not in output and fake.token.split(":")[1] not in output
    game_id = 1
    life = [r for r in records if r["message"].startswith((f"lobby of lucky opened: game {game_id}",
                                                             f"game {game_id} ", f"game {game_id}:"))]
    said = [r["message"] for r in life]
    assert any("opened" in m for m in said) and any("started" in m for m in said), said
    assert any("moved" in m for m in said) and any("closed: cancelled" in m for m in said), said
    assert all(r["chat_id"] == GROUP and r["game_id"] == game_id for r in life), life
    assert any(r["logger"].startswith("telegram") for r in records)  # the libraries' records too
    assert all(r["level"] in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL") for r in records)


SCRIPT = textwrap.dedent("""
    import logging, warnings
    from bot.logs import about, setup_logging
    token = "123456:very-secret-token"
    setup_logging("INFO", token, "http://127.0.0.1:1/bot", "json")
    log = logging.getLogger("tablebot.test")
    log.info("plain\\nwith a newline \\u2028 and a separator")
    log.warning("calling https://api.telegram.org/bot%s/getMe", token, extra={"chat_id": -7, "game_id": 3})
    about(-8, 4)
    try:
        raise RuntimeError("the URL was https://api.telegram.org/bot" + token + "/sendMessage")
    except RuntimeError:
        log.exception("a bug while sending")
    about(-9)
    warnings.warn("a library warns")
""")


def test_json_records_keep_the_token_out_and_carry_exceptions_and_ids(tmp_path):
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "TABLEBOT_", "LOG_"))}
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=clean, capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 0, result.stderr
    assert "very-secret-token" not in result.stderr
    plain, with_token, bug, warned = _records(result.stderr)
    assert plain["message"] == "plain\nwith a newline \u2028 and a separator" and "chat_id" not in plain
    assert with_token["message"] == "calling https://api.telegram.org/bot<token>/getMe"
    assert (with_token["chat_id"], with_token["game_id"], with_token["level"]) == (-7, 3, "WARNING")
    assert bug["message"] == "a bug while sending" and (bug["chat_id"], bug["game_id"]) == (-8, 4)
    assert "Traceback" in bug["exception"] and "bot<token>/sendMessage" in bug["exception"]
    assert "a library warns" in warned["message"] and warned["chat_id"] == -9 and "game_id" not in warned
    assert len(result.stderr.splitlines()) == 4  # the newline and U+2028 stay inside their line


def test_an_unknown_log_format_is_one_line_and_exit_code_2(tmp_path):
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "TABLEBOT_", "LOG_"))}
    result = subprocess.run([sys.executable, "-m", "bot"], cwd=ROOT, capture_output=True, text=True, timeout=30,
                            env={**clean, "TELEGRAM_BOT_TOKEN": "123:abc", "LOG_FORMAT": "xml",
                                 "TABLEBOT_DB": str(tmp_path / "x.sqlite3")})
    assert result.returncode == 2 and result.stderr.startswith("tablebot: LOG_FORMAT"), result.stderr
    assert result.stderr.strip().count("\n") == 0
