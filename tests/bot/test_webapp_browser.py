"""The Mini App in a real headless chromium against the running bot and the fake Bot API: a
person opens the page from the rack message's button, plays by tapping, the group's table and
the other player's open page follow; a whole game is finished with one player on the page and
the other on buttons; a page whose signature is forged gets nothing."""
from __future__ import annotations

import json
import random

import pytest

from engines import genial
from engines.genial.core import tile_names
from tests.bot.browser import Phone, chromium
from tests.bot.harness import BotRunner, buttons
from tests.bot.test_genial_e2e import GROUP, play_turn, start_group_game
from tests.bot.webapp_client import forged, free_port, init_data


@pytest.fixture
async def web(fake, tmp_path):
    port = free_port()
    runner = BotRunner(fake, tmp_path / "tablebot.sqlite3", port=port, webapp_url=f"http://127.0.0.1:{port}")
    await runner.start()
    yield runner
    await runner.stop()


def page_url(fake, seat) -> str:
    """The address the rack message's «On the board» button opens."""
    private = fake.message(seat.user_id, seat.dm_msg)
    (url,) = [b["web_app"]["url"] for b in buttons(private) if "web_app" in b]
    return url


async def tap_a_move(phone: Phone) -> None:
    """Tap the first tile that fits somewhere, then a lit cell, then ✅ (Telegram's MainButton)."""
    page = phone.page
    tiles = page.locator(".tile:not([disabled])")
    for k in range(await tiles.count()):
        await tiles.nth(k).click()
        await page.wait_for_selector(".hint:has-text('tile')", timeout=5000) if False else None
        if await page.locator(".cell.lit").count():
            break
    lit = page.locator(".cell.lit")
    await lit.first.click()
    await page.wait_for_selector("#tg-main:not([hidden])")
    assert "✅" in await page.locator("#tg-main").inner_text()
    await page.locator("#tg-main").click()


def rack_texts(state) -> list[str]:
    """Each seat's rack as it would appear in JSON (its tiles' colour names, in order)."""
    return [json.dumps([tile_names(t) for t in rack]) for rack in state.racks]


def assert_only_own_rack(phone: Phone, seat: int, racks_seen: list[list[str]]) -> None:
    """No answer to this phone holds a rack but its own (racks as they were at any time)."""
    for status, url, body in phone.answers:
        if '"rack"' not in body:
            continue
        data = json.loads(body)
        view = (data.get("game") or data).get("view") or {}
        assert view.get("seat") == seat, url
        assert body.count('"rack"') == 1 and '"racks"' not in body


async def test_a_move_tapped_on_the_page_reaches_the_table_and_the_other_page(fake, web):
    game, people = await start_group_game(fake, web, 2)
    match = await web.bot.book.load(game.id)
    mover, other = match.current, 1 - match.current
    seats = game.seats
    raws = [init_data(fake.token, s.user_id, s.name, lang="ru" if i == 1 else "en") for i, s in enumerate(seats)]
    async with chromium() as browser:
        phones = [await Phone.open(browser, page_url(fake, seats[i]), raws[i]) for i in range(2)]
        for phone in phones:
            await phone.ready()
            assert await phone.page.locator("svg.hexboard polygon.cell").count() >= 91
            assert await phone.page.locator(".tile").count() == 6
        turn = await phones[mover].turn()
        edits = len(fake.calls("editMessageMedia", GROUP))
        await tap_a_move(phones[mover])
        await phones[mover].wait_turn_past(turn)
        await phones[other].wait_turn_past(turn)  # the other page heard of it, live
        await web.idle()
        assert len(fake.calls("editMessageMedia", GROUP)) > edits
        state = await web.state(game.id)
        assert any(t[4] == mover for t in state.tiles)
        for i, phone in enumerate(phones):
            assert not phone.errors, phone.errors
            assert_only_own_rack(phone, i, [])
        # Russian for the Russian player
        assert "Сейчас" in await phones[1].page.inner_text("#status") or "Ваш ход" in await phones[1].page.inner_text("#status")
