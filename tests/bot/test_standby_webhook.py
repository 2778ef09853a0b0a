"""Webhook mode with a hot standby, end to end: two ``python -m bot`` processes on one PostgreSQL,
each on a port of its own (two machines), behind one proxy that passes Telegram's deliveries to
whichever process takes the connection (nginx's ``proxy_next_upstream error``). The active one is
killed with SIGKILL twice during a game and restarted at once; each time one of them takes over
(the standby, or the restarted one when it gets the lock first), listens, sets the webhook
again, and the deliveries Telegram could not hand over meanwhile reach it.
"""
from __future__ import annotations

import asyncio
import http.server
import os
import signal
import threading
import time
import urllib.error
import urllib.request

from tests.bot.test_standby_takeover import (ANNA, BORIS, CHAT, Supervisor, Table, _bot_env, _first_answer, _late,
                                             _log, _until)
from tests.bot.webapp_client import free_port
from tests.fakebotapi import FakeBotAPI

WEBHOOK_URL = "https://games.example/"
KILLS = 2
MOVES_BETWEEN_KILLS = 4


class Proxy:
    """What the TLS-terminating proxy in front of the bot does: each request goes to the first
    process that accepts the connection (a refused one is tried on the next); the process's
    answer goes back as it is; when none accepts, 502."""

    def __init__(self, ports: list[int]):
        self.ports = ports
        self.refused = 0  # connections no process took
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                status, answer = proxy.forward(self.path, body, dict(self.headers))
                self.send_response(status)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def forward(self, path: str, body: bytes, headers: dict) -> tuple[int, bytes]:
        wanted = {k: v for k, v in headers.items() if k.lower() in ("content-type", "x-telegram-bot-api-secret-token")}
        for port in self.ports:
            request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, headers=wanted)
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    return response.status, response.read()
            except urllib.error.HTTPError as exc:
                return exc.code, exc.read()
            except (urllib.error.URLError, ConnectionError):
                continue  # nobody listens there: the next process
        self.refused += 1
        return 502, b"no process took the connection"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


async def test_the_standby_takes_over_the_webhook_after_a_kill_9_and_nothing_is_lost_or_doubled(
        postgres_url, tmp_path):
    fake = FakeBotAPI()
    fake.start()
    ports = [free_port(), free_port()]
    proxy = Proxy(ports)
    fake.webhook_proxy = proxy.url
    supervisor = Supervisor({**_bot_env(fake, postgres_url), "WEBHOOK_URL": WEBHOOK_URL}, postgres_url, tmp_path)
    port_of: dict[int, int] = {}  # pid -> its PORT

    def start(port: int):
        proc = supervisor.start(PORT=str(port))
        port_of[proc.pid] = port
        return proc

    takeovers, presses, took_over = [], [], []
    made_late = []  # moves of presses answered too late for Telegram: (log length before, data)
    try:
        for port in ports:
            start(port)
        table = Table(fake)
        await _until(lambda: fake.calls("setWebhook"), 60, "the webhook set")
        fake.user_sends(ANNA, CHAT, "/new lucky")
        lobby, join = await _until(lambda: table.last_button("Join"), 30, "the lobby")
        presses.append(fake.user_presses(BORIS, CHAT, lobby.message_id, join))
        await _until(lambda: "Boris" in (fake.message(CHAT, lobby.message_id).text or ""), 15, "Boris joined")
        presses.append(fake.user_presses(ANNA, CHAT, lobby.message_id, table.last_button("Start")[1]))
        await _until(table.table, 15, "the table")

        for kill in range(KILLS + 1):
            while len(table.accepted) < (kill + 1) * MOVES_BETWEEN_KILLS:
                qid = table.press()
                if qid is None:
                    await asyncio.sleep(0.02)
                    continue
                presses.append(qid)
                await table.answered(qid)
            if kill == KILLS:
                break
            active, _ = await _until(supervisor.lock_holder, 15, "an active process")
            hooks = len(fake.calls("setWebhook"))
            moves_before = len(await _log(postgres_url))
            killed_at = time.monotonic()
            os.kill(active, signal.SIGKILL)  # right after a move was answered, as its table is redrawn
            await _until(lambda: active in supervisor.exited_at, 10, "the killed process gone")
            start(port_of[active])  # the supervisor restarts it on its machine: a standby now
            qid = table.press(even_if_unchanged=True)  # a player presses at once: Telegram keeps trying
            presses.append(qid)
            takeovers.append(await _until(lambda: _first_answer(fake, qid), 60, "the press handled") - killed_at)
            # A move if the table was drawn before the kill; answered, unless later than Telegram takes it.
            if not table.note(qid, fake.callback_answer(qid)) and _late(fake, qid) \
                    and len(await _log(postgres_url)) > moves_before:
                made_late.append((moves_before, table.pressed[qid][0]))
            # The standby, or the killed one restarted on its machine if it got the lock first
            # (both try at once; on a busy machine either may win, and either serves).
            new_active, _ = await supervisor.lock_holder()
            assert new_active != active and new_active in {p.pid for p in supervisor.running()}
            took_over.append("the standby" if port_of[new_active] != port_of[active] else "the restarted one")
            assert len(fake.calls("setWebhook")) > hooks  # the new active process set the webhook again

        log = await _log(postgres_url)
        stats = {s.id: s for s in fake.callback_stats()}
    finally:
        supervisor.stop_all()
        proxy.close()
        fake.stop()
    expected = [data.rsplit(":", 1)[1] for data in table.accepted]
    for position, data in made_late:
        expected.insert(position, data.rsplit(":", 1)[1])
    assert [row["action"] for row in log] == expected, table.answers  # every move made once, in order
    assert all(stats[qid].times_answered == 1 for qid in presses), [
        (qid, stats[qid].times_answered) for qid in presses if stats[qid].times_answered != 1]
    hooks = fake.calls("setWebhook")
    assert len(hooks) >= KILLS + 1 and {h.params["url"] for h in hooks} == {hooks[0].params["url"]}
    assert hooks[0].params["url"].startswith(WEBHOOK_URL + "tg-")
    assert not fake.calls("getUpdates")  # nobody polled
    assert proxy.refused > 0  # deliveries no process took while nobody listened: tried again
    assert fake.pending_updates() == 0  # and every update was delivered in the end
    assert not fake.violations, fake.violations
    outputs = "\n".join(supervisor.output(p) for p in supervisor.procs)
    assert "Traceback" not in outputs, outputs
    print(f"\nwebhook take-over after kill -9: the next press handled "
          f"{', '.join(f'{s:.1f}' for s in takeovers)} s after the kill (by {', '.join(took_over)}); "
          f"{len(log)} moves, each once")
