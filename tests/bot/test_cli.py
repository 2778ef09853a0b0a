"""``python -m bot`` as the operator meets it: clear exits, ``status``, no token in the logs."""
from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from tests.bot.harness import BotRunner, Player, button_data
from tests.bot.webapp_client import free_port
from tests.fakebotapi import FakeBotAPI

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run_bot(args, env, timeout=30):
    base = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "TABLEBOT_"))}
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, env={**base, **env},
                          capture_output=True, text=True, timeout=timeout)


def test_a_missing_token_is_one_clear_line_and_exit_code_2(tmp_path):
    result = run_bot([], {"TABLEBOT_DB": str(tmp_path / "x.sqlite3")})
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "TELEGRAM_BOT_TOKEN" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_rejected_token_is_one_clear_line_and_exit_code_2(tmp_path):
    fake = FakeBotAPI()
    fake.start()
    try:
        result = run_bot([], {"TELEGRAM_BOT_TOKEN": "999:wrong-token", "TELEGRAM_API_URL": fake.base_url,
                              "TABLEBOT_DB": str(tmp_path / "x.sqlite3")})
    finally:
        fake.stop()
    assert result.returncode == 2
    assert "rejected" in result.stderr and "Traceback" not in result.stderr
    assert "wrong-token" not in result.stderr + result.stdout


def test_help_lists_the_subcommands():
    result = run_bot(["--help"], {})
    assert result.returncode == 0 and "status" in result.stdout and "run" in result.stdout


def launch_bot(fake, tmp_path, **env):
    """``python -m bot`` against the fake, in a child process (stdout and stderr together)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "TABLEBOT_"))}
    clean.update({"TELEGRAM_BOT_TOKEN": fake.token, "TELEGRAM_API_URL": fake.base_url,
                  "TABLEBOT_DB": str(tmp_path / "x.sqlite3"), **env})
    return subprocess.Popen([sys.executable, "-m", "bot"], cwd=ROOT, env=clean, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def wait_for(condition, deadline: float) -> None:
    while time.monotonic() < deadline and not condition():
        time.sleep(0.1)


def test_the_running_bot_never_logs_its_token(tmp_path):
    fake = FakeBotAPI()
    fake.start()
    try:
        proc = launch_bot(fake, tmp_path, LOG_LEVEL="DEBUG")
        deadline = time.monotonic() + 20
        wait_for(lambda: fake.calls("getUpdates"), deadline)
        fake.add_user(5, "Eve")
        fake.user_starts_private(5)
        wait_for(lambda: fake.calls("sendMessage"), deadline)
        proc.send_signal(signal.SIGINT)
        output, _ = proc.communicate(timeout=20)
    finally:
        fake.stop()
    assert fake.calls("sendMessage"), output
    assert fake.token not in output and fake.token.split(":")[1] not in output
    assert "getUpdates" in output or "Application started" in output


async def test_status_prints_one_json_line_per_game(fake, tmp_path):
    db = tmp_path / "db.sqlite3"
    runner = await BotRunner(fake, db).start()
    fake.add_group(-5, "G")
    anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")
    await anna.say(-5, "/new lucky")
    lobby = fake.last_bot_message(-5)
    await boris.press(-5, lobby.message_id, button_data(lobby, text="Join"))
    await anna.press(-5, lobby.message_id, button_data(lobby, text="Start"))
    fake.add_group(-6, "H")
    await anna.say(-6, "/new cones")
    await runner.stop()
    result = run_bot(["status"], {"TABLEBOT_DB": str(db)})
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["status"] for r in rows] == ["running", "lobby"]
    for key in ("id", "chat", "game", "status", "players", "turn", "winners", "updated"):
        assert key in rows[0]
    assert sorted(rows[0]["players"]) == ["Anna", "Boris"] and rows[0]["turn"] in ("Anna", "Boris")
    assert rows[1]["game"] == "cones" and rows[1]["chat"] == -6 and rows[1]["turn"] is None


def test_webhook_mode_takes_updates_only_with_its_secret(tmp_path):
    """WEBHOOK_URL set: the bot registers an HTTPS webhook with a secret, listens on PORT, answers
    updates Telegram delivers there, and refuses a delivery that lacks the secret."""
    port = free_port()
    fake = FakeBotAPI()
    fake.start()
    fake.webhook_proxy = f"http://127.0.0.1:{port}"
    try:
        proc = launch_bot(fake, tmp_path, WEBHOOK_URL="https://games.example/", PORT=str(port))
        deadline = time.monotonic() + 30
        wait_for(lambda: fake.calls("setWebhook"), deadline)
        fake.add_user(5, "Eve")
        fake.user_starts_private(5)
        wait_for(lambda: fake.calls("sendMessage", chat_id=5), deadline)
        hook = fake.calls("setWebhook")[-1].params
        path = urllib.parse.urlsplit(hook["url"]).path
        forged = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=b'{"update_id": 1}',
                                        headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(forged, timeout=5)
        proc.send_signal(signal.SIGINT)
        output, _ = proc.communicate(timeout=20)
    finally:
        fake.stop()
    assert fake.calls("sendMessage", chat_id=5), output
    assert "getUpdates" not in {r.method for r in fake.calls()}
    assert hook["url"].startswith("https://games.example/tg-") and hook["secret_token"]
    assert hook["secret_token"] not in hook["url"] and fake.token.split(":")[1] not in hook["url"]
    assert refused.value.code == 403
    assert any(200 <= status < 300 for _, status in fake.webhook_deliveries)
    assert fake.token not in output
