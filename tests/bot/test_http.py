"""The bot's own requests to the Bot API (bot/outgoing/http.py, aiohttp) against the strict fake
Telegram: a picture goes up and comes back byte for byte, requests wait for a free connection
instead of failing, and each failure is the error python-telegram-bot's own request raises, with
the cause the messenger reads to know whether a new message may have reached Telegram."""
from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import NetworkError, TimedOut

from bot.outgoing.http import AiohttpRequest
from bot.outgoing.messenger import Messenger, surely_not_delivered
from bot.outgoing.sent import Result

GROUP = -1001234500


def _bot(fake, connections: int = 4) -> Bot:
    return Bot(fake.token, base_url=fake.base_url, base_file_url=fake.base_file_url,
               request=AiohttpRequest(connections), get_updates_request=AiohttpRequest(1))


@pytest.fixture
async def bot(fake):
    fake.add_group(GROUP, "Wire <b>&amp;</b> 🎲")
    async with _bot(fake) as b:
        yield b


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 30, 90)).save(out, "PNG")
    return out.getvalue()


async def test_a_picture_goes_up_and_comes_back_byte_for_byte(fake, bot):
    picture = _png()
    keys = InlineKeyboardMarkup([[InlineKeyboardButton("Ход 🎲", callback_data="1:0:x")]])
    sent = await bot.send_photo(GROUP, picture, caption="Стол <готов> & 🎲", reply_markup=keys)
    assert sent.caption == "Стол <готов> & 🎲"
    shown = fake.message(GROUP, sent.message_id)
    assert shown.photo is not None and shown.reply_markup is not None
    file = await bot.get_file(sent.photo[-1].file_id)
    assert bytes(await file.download_as_bytearray()) == picture


async def test_requests_wait_for_a_free_connection_instead_of_failing(fake):
    fake.set_latency(0.2)
    async with _bot(fake, connections=1) as bot:
        names = await asyncio.gather(*(bot.get_me() for _ in range(5)))
    assert len({me.username for me in names}) == 1 and len(names) == 5


async def test_a_slow_answer_times_out_and_may_have_reached_telegram(fake, bot):
    fake.set_faults(1.0, ("slow",), methods={"sendMessage"}, slow_seconds=1.5)
    with pytest.raises(TimedOut) as caught:
        await bot.send_message(GROUP, "slow", read_timeout=0.5)
    assert not surely_not_delivered(caught.value)
    await asyncio.sleep(1.2)
    assert [m.text for m in fake.messages(GROUP)] == ["slow"]  # performed: a retry would double it


async def test_a_plain_send_gives_up_at_the_usual_time_a_patient_one_waits_for_its_answer(fake):
    """A message Telegram answers late: a plain send (a ping) stops waiting at the request's read
    time-out and is unsure, not sent again; a patient one (a message that must go out once) waits
    long and learns its id. (A plain send once had no time-out at all: a write that never got
    its answer held its place in flight for ever.)"""
    fake.add_group(GROUP, "Wire")
    fake.set_faults(1.0, ("slow",), methods={"sendMessage"}, slow_seconds=1.5)
    request = AiohttpRequest(4, read_timeout=0.5)
    async with Bot(fake.token, base_url=fake.base_url, request=request, get_updates_request=AiohttpRequest(1)) as bot:
        messenger = Messenger(bot)
        try:
            started = asyncio.get_running_loop().time()
            plain = await messenger.send_text(GROUP, "plain")
            assert plain.result == Result.UNSURE and plain.message is None
            assert asyncio.get_running_loop().time() - started < 1.4  # not the 1.5 s Telegram took
            patient = await messenger.send_text(GROUP, "patient", patient=True)
            assert patient.result == Result.OK
            assert patient.message.message_id == fake.messages(GROUP)[-1].message_id
            await asyncio.sleep(1.2)
            assert [m.text for m in fake.messages(GROUP)] == ["plain", "patient"]  # each once
        finally:
            await messenger.close()


async def test_a_dropped_connection_may_have_reached_telegram_a_refused_one_did_not(fake, bot):
    fake.set_faults(1.0, ("drop_after",), methods={"sendMessage"})
    with pytest.raises(NetworkError) as dropped:
        await bot.send_message(GROUP, "dropped")
    assert not isinstance(dropped.value, TimedOut) and not surely_not_delivered(dropped.value)
    fake.set_faults(0)
    fake.set_down(True)
    with pytest.raises(NetworkError) as refused:
        await bot.send_message(GROUP, "refused")
    assert surely_not_delivered(refused.value), refused.value
    assert "ClientConnectorError" in refused.value.message
    fake.set_down(False)
    again = await bot.send_message(GROUP, "back")
    assert [m.text for m in fake.messages(GROUP)] == ["dropped", "back"]
    assert again.text == "back"


async def test_a_proxy_named_in_the_environment_carries_the_requests(monkeypatch):
    """HTTPS_PROXY / HTTP_PROXY are honoured as by python-telegram-bot's own request (read once
    per origin), and NO_PROXY is respected."""
    asked: list[bytes] = []

    async def proxy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        asked.append(head.split(b"\r\n", 1)[0])
        length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), 0)
        await reader.readexactly(length)
        body = b'{"ok":true,"result":true}'
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(proxy, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    request = AiohttpRequest(1)
    try:
        status, body = await request.do_request("http://api.telegram.invalid/bot1:x/logOut", "POST")
        assert (status, body) == (200, b'{"ok":true,"result":true}')
        assert asked == [b"POST http://api.telegram.invalid/bot1:x/logOut HTTP/1.1"]
        with pytest.raises(NetworkError):  # straight to port 1, not through the proxy: refused
            await request.do_request("http://127.0.0.1:1/bot1:x/logOut", "POST")
        assert len(asked) == 1
    finally:
        await request.shutdown()
        server.close()
        await server.wait_closed()
