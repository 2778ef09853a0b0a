"""One ``python -m bot`` per database file: a second refuses to start; a killed one leaves no lock."""
from __future__ import annotations

import pathlib
import signal
import subprocess
import sys

from tests.bot.test_startup import clean_env, launch, wait_for
from tests.fakebotapi import FakeBotAPI

ROOT = pathlib.Path(__file__).resolve().parents[2]


def bot_env(fake, db: pathlib.Path, **extra) -> dict[str, str]:
    return clean_env(TELEGRAM_BOT_TOKEN=fake.token, TELEGRAM_API_URL=fake.base_url, TABLEBOT_DB=str(db), **extra)


def test_a_second_bot_on_the_same_database_refuses_and_a_killed_one_leaves_no_lock(tmp_path):
    fake = FakeBotAPI()
    fake.start()
    db = tmp_path / "games.sqlite3"
    env = bot_env(fake, db)
    first = third = None
    try:
        first = launch(env)
        assert wait_for(lambda: fake.calls("getUpdates"), 20), "the first bot never polled"

        second = subprocess.run([sys.executable, "-m", "bot"], cwd=ROOT, env=env, capture_output=True,
                                text=True, timeout=20)
        assert second.returncode == 2, second.stderr
        line = second.stderr.strip()
        assert "\n" not in line and "Traceback" not in line, second.stderr
        assert line.startswith("tablebot: ") and str(db) in line and "another tablebot" in line, line
        assert f"pid {first.pid}" in line, line
        # status and backup only read: they run beside the bot
        status = subprocess.run([sys.executable, "-m", "bot", "status"], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=20)
        assert status.returncode == 0, status.stderr
        assert first.poll() is None  # the first bot serves on

        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        polls = len(fake.calls("getUpdates"))
        third = launch(env)
        assert wait_for(lambda: len(fake.calls("getUpdates")) > polls or third.poll() is not None, 20)
        assert third.poll() is None, third.communicate()[0]
        fake.add_user(5, "Eve")
        fake.user_starts_private(5)
        assert wait_for(lambda: fake.calls("sendMessage", chat_id=5), 20), "the new bot does not answer"
    finally:
        for proc in (first, third):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.communicate(timeout=20)
        fake.stop()
