"""``python -m bot`` with METRICS_PORT, as an operator's monitor meets it: /healthz answers 200
while the bot polls, /metrics parses and counts a press with its answer latency, and the port
closes with an orderly stop. With PORT equal to METRICS_PORT one socket takes the webhook too."""
from __future__ import annotations

import signal
import time
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from tests.bot.harness import buttons
from tests.bot.test_cli import launch_bot, wait_for
from tests.bot.webapp_client import free_port
from tests.fakebotapi import FakeBotAPI


def _get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()
    except OSError:
        return 0, ""  # nobody listening


def _sample(text: str, name: str, **labels) -> float | None:
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name and s.labels == labels:
                return s.value
    return None


def test_healthz_and_metrics_of_a_polling_bot(tmp_path):
    port = free_port()
    fake = FakeBotAPI()
    fake.start()
    try:
        proc = launch_bot(fake, tmp_path, METRICS_PORT=str(port))
        deadline = time.monotonic() + 30
        wait_for(lambda: _get(port, "/healthz")[0] == 200, deadline)
        health = _get(port, "/healthz")
        fake.add_group(-7, "G")
        fake.add_user(1, "Anna")
        fake.add_user(2, "Boris")
        fake.user_sends(1, -7, "/new lucky")
        wait_for(lambda: fake.last_bot_message(-7) is not None, deadline)
        lobby = fake.last_bot_message(-7)
        join = next(b["callback_data"] for b in buttons(lobby) if "Join" in b["text"])
        query = fake.user_presses(2, -7, lobby.message_id, join)
        wait_for(lambda: fake.callback_answer(query) is not None, deadline)
        status, text = _get(port, "/metrics")
        proc.send_signal(signal.SIGTERM)
        output, _ = proc.communicate(timeout=20)
        after = _get(port, "/healthz")
    finally:
        fake.stop()
    assert health == (200, "ok\n"), output
    assert status == 200
    assert _sample(text, "tablebot_presses_total", kind="lobby") == 1
    assert _sample(text, "tablebot_press_answer_seconds_count") == 1
    assert _sample(text, "tablebot_games", status="lobby") == 1
    assert proc.returncode == 0 and after[0] == 0, output  # stopped in order, the port closed


def test_one_port_takes_the_webhook_and_serves_healthz(tmp_path):
    port = free_port()
    fake = FakeBotAPI()
    fake.start()
    fake.webhook_proxy = f"http://127.0.0.1:{port}"
    try:
        proc = launch_bot(fake, tmp_path, WEBHOOK_URL="https://games.example/", PORT=str(port),
                          METRICS_PORT=str(port))
        deadline = time.monotonic() + 30
        wait_for(lambda: _get(port, "/healthz")[0] == 200, deadline)
        health = _get(port, "/healthz")
        fake.add_user(5, "Eve")
        fake.user_starts_private(5)
        wait_for(lambda: fake.calls("sendMessage", chat_id=5), deadline)
        status, text = _get(port, "/metrics")
        proc.send_signal(signal.SIGTERM)
        output, _ = proc.communicate(timeout=20)
    finally:
        fake.stop()
    assert health == (200, "ok\n"), output
    assert fake.calls("sendMessage", chat_id=5) and "getUpdates" not in {r.method for r in fake.calls()}
    assert status == 200 and _sample(text, "tablebot_updates_total", kind="message") == 1
    assert proc.returncode == 0, output
