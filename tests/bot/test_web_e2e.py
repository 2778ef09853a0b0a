"""The bot's web server end to end, over real HTTP, the real bot against the fake Bot API: a
game played over the webhook, /healthz while serving and when the database goes away, and
/metrics counting presses with an answer-latency histogram."""
from __future__ import annotations

import asyncio
import contextlib
import json
import random

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.updates import webhook
from tests.bot.harness import BotRunner, Player, press_until_over, start_game


async def _get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{port}{path}") as response:
            return response.status, await response.text()


def _samples(text: str) -> dict[tuple[str, tuple], float]:
    """Every sample of a Prometheus text page, by (name, sorted labels)."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


async def test_a_game_is_played_over_the_webhook(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "tablebot.sqlite3", webhook_url="https://games.example/",
                             port=0).start()
    try:
        fake.add_group(-10, "G")
        anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")
        game = await start_game(fake, runner, -10, "lucky", [anna, boris])
        presses: list[str] = []
        assert await press_until_over(fake, runner, game.id, random.Random(3), presses)
        assert presses and all(fake.callback_answer(q) is not None for q in presses)
    finally:
        await runner.stop()
    hook = fake.calls("setWebhook")[-1].params
    assert hook["url"].startswith("https://games.example/tg-") and hook["secret_token"]
    assert set(hook["allowed_updates"]) == {"message", "callback_query", "my_chat_member", "inline_query",
                                            "chosen_inline_result"}
    assert "getUpdates" not in {r.method for r in fake.calls()}
    delivered = [status for _, status in fake.webhook_deliveries]
    assert len([s for s in delivered if s == 200]) >= len(presses) + 3  # /new, Join, Start and the moves


async def test_an_update_whose_body_arrives_while_the_bot_stops_is_refused_for_telegram_to_send_again(
        fake, tmp_path):
    """Its headers came while the bot ran, its body once the stop had begun: queued behind the
    stop's end it would be acknowledged and never handled, so it is refused (503: Telegram
    delivers it again), and the stop ends."""
    runner = await BotRunner(fake, tmp_path / "tablebot.sqlite3", webhook_url="https://games.example/",
                             port=0).start()
    app = runner.app
    fake.add_user(5, "Anna")
    fake.user_starts_private(5)  # so that the bot could answer her /help, were it handled
    await runner.idle()
    answered = len(fake.messages(5))
    assert answered, "the bot does not answer /start"
    path, secret = webhook.path_and_secret(fake.token)
    body = json.dumps({"update_id": 99_001, "message": {
        "message_id": 1, "date": 0, "chat": {"id": 5, "type": "private", "first_name": "Anna"},
        "from": {"id": 5, "is_bot": False, "first_name": "Anna"}, "text": "/help"}}).encode()
    reader, writer = await asyncio.open_connection("127.0.0.1", runner.bot.web.public_port)
    try:
        writer.write(f"POST /{path} HTTP/1.1\r\nHost: games.example\r\nContent-Type: application/json\r\n"
                     f"{webhook.SECRET_HEADER}: {secret}\r\nContent-Length: {len(body)}\r\n\r\n".encode())
        await writer.drain()
        await asyncio.sleep(0.3)  # the bot has the headers and waits for the body
        stopping = asyncio.create_task(app.stop())
        while app.running:
            await asyncio.sleep(0.01)
        writer.write(body)
        await writer.drain()
        status_line = await asyncio.wait_for(reader.readline(), 10)
        await asyncio.wait_for(stopping, 10)
    finally:
        writer.close()
        await runner.stop()
    assert status_line.split()[1] == b"503", status_line
    assert len(fake.messages(5)) == answered, "the refused update was handled"


@contextlib.asynccontextmanager
async def _serving(fake, tmp_path):
    """A bot on ``tmp_path``'s database with its operator's port: the runner and that port."""
    runner = await BotRunner(fake, tmp_path / "tablebot.sqlite3", metrics_port=0).start()
    try:
        yield runner, runner.bot.web.private_port
    finally:
        await runner.stop()


async def test_healthz_is_200_while_serving_and_503_once_the_database_is_gone(fake, tmp_path):
    async with _serving(fake, tmp_path) as (_, port):
        assert await _get(port, "/healthz") == (200, "ok\n")
        for leftover in tmp_path.glob("tablebot.sqlite3*"):  # the volume with the database is lost
            leftover.unlink()
        status, reason = await _get(port, "/healthz")
        assert status == 503 and "database" in reason and "no longer the file" in reason


async def test_healthz_is_503_while_the_bot_does_not_poll(fake, tmp_path):
    async with _serving(fake, tmp_path) as (runner, port):
        assert (await _get(port, "/healthz"))[0] == 200
        await runner.app.updater.stop()
        assert await _get(port, "/healthz") == (503, "not polling\n")


async def test_metrics_count_presses_by_kind_with_an_answer_latency_histogram(fake, tmp_path):
    async with _serving(fake, tmp_path) as (runner, port):
        fake.add_group(-10, "G")
        anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")
        fake.fail_next("sendMessage", chat_id=-10, error_code=429, description="Too Many Requests: retry after 1",
                       retry_after=1)  # the lobby waits once
        game = await start_game(fake, runner, -10, "lucky", [anna, boris])  # Join and Start: lobby presses
        presses: list[str] = []
        rng = random.Random(5)
        for _ in range(4):
            await press_until_over(fake, runner, game.id, rng, presses, most=1)
        status, text = await _get(port, "/metrics")
    assert status == 200
    samples = _samples(text)
    assert samples[("tablebot_presses_total", (("kind", "lobby"),))] == 2
    assert samples[("tablebot_presses_total", (("kind", "lucky"),))] == len(presses) == 4
    assert samples[("tablebot_press_answer_seconds_count", ())] == 6  # every press answered, once
    assert samples[("tablebot_press_answer_seconds_bucket", (("le", "+Inf"),))] == 6
    assert samples[("tablebot_press_answer_seconds_sum", ())] > 0
    assert samples[("tablebot_updates_total", (("kind", "callback_query"),))] == 6
    assert samples[("tablebot_updates_total", (("kind", "message"),))] == 1  # /new
    assert samples[("tablebot_telegram_requests_total", (("method", "answerCallbackQuery"),))] == 6
    assert samples[("tablebot_telegram_requests_total", (("method", "editMessageMedia"),))] >= 1
    assert samples[("tablebot_telegram_flood_waits_total", (("method", "sendMessage"),))] == 1
    assert samples[("tablebot_games", (("status", "running"),))] == 1
    assert samples[("tablebot_games", (("status", "finished"),))] == 0
    assert samples[("tablebot_drawing_seconds_count", ())] >= 1
    assert samples[("tablebot_active", ())] == 1
