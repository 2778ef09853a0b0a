"""The Mini App in a real headless chromium against the running bot and the fake Bot API: a
person opens the page from the rack message's button, plays by tapping, the group's table and
the other player's open page follow; a whole game is finished with one player on the page and
the other on buttons; a page whose signature is forged gets nothing."""
from __future__ import annotations

import asyncio
import json
import random

import pytest

from engines import genial
from bot.webapp.auth import watch_param
from tests.bot.browser import MINIMAL_STUB, Phone, chromium, page_url, tap_a_move
from tests.bot.harness import Player, button_data, buttons, press_until_over, start_game
from tests.bot.test_startup import launch, stop
from tests.bot.test_genial_e2e import GROUP, play_turn, start_group_game
from tests.bot.webapp_client import bot_with_page, forged, free_port, init_data


@pytest.fixture
async def web(fake, tmp_path):
    async with bot_with_page(fake, tmp_path / "tablebot.sqlite3") as runner:
        yield runner


def assert_only_own_rack(phone: Phone, seat: int) -> None:
    """No answer to this phone holds a rack but its own."""
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
    lang = {p.id: p.lang for p in people}
    raws = [init_data(fake.token, s.user_id, s.name, lang=lang[s.user_id]) for s in seats]
    async with chromium() as browser:
        phones = [await Phone.open(browser, page_url(fake, seats[i]), raws[i]) for i in range(2)]
        for phone in phones:
            await phone.ready()
            assert await phone.page.locator("svg.hexboard polygon.cell").count() >= 91
            assert await phone.page.locator(".tile").count() == 6
        # Pinch or wheel zooms the board (its viewBox), ⤢ shows it whole again.
        board = phones[other].page.locator("svg.hexboard")
        whole = await board.get_attribute("viewBox")
        box = await board.bounding_box()
        await phones[other].page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        await phones[other].page.mouse.wheel(0, -300)
        assert await board.get_attribute("viewBox") != whole
        await phones[other].page.locator(".reset").click()
        assert await board.get_attribute("viewBox") == whole
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
            assert_only_own_rack(phone, i)
        # Each in their language: Борис reads Russian.
        for s, phone in zip(seats, phones):
            status = await phone.page.inner_text("#status")
            assert ("Гениально" in status) == (lang[s.user_id] == "ru"), status


async def test_a_whole_game_one_player_on_the_page_the_other_on_buttons(fake, web):
    game, people = await start_group_game(fake, web, 2)
    by_id = {p.id: p for p in people}
    on_page = 0
    seat = game.seats[on_page]
    rng = random.Random(26)
    async with chromium() as browser:
        phone = await Phone.open(browser, page_url(fake, seat), init_data(fake.token, seat.user_id, seat.name))
        await phone.ready()
        turns = {"page": 0, "buttons": 0}
        while game.status == "running":
            state = await web.state(game.id)
            turn = genial.turn(state)
            if genial.current_player(state) == on_page:
                await phone.page.wait_for_selector(f"body[data-turn='{turn}']")
                await tap_a_move(phone, rng)
                await phone.wait_turn_past(turn)
                turns["page"] += 1
            else:
                await play_turn(fake, web, game, by_id, rng, wander=False)
                turns["buttons"] += 1
            await web.idle()
        assert game.status == "finished" and turns["page"] > 10 and turns["buttons"] > 10, turns
        await phone.page.wait_for_selector(".story .result")
        over = "Игра окончена." if by_id[seat.user_id].lang == "ru" else "Game over."
        assert over in await phone.page.inner_text("#status")
        assert await phone.page.locator(".story .result").count() == 2
        assert not phone.errors, phone.errors
        assert all(status in (200, 304) for status in phone.api_statuses), phone.api_statuses
        assert_only_own_rack(phone, on_page)
    # The group saw the whole game, and the results.
    assert fake.message(GROUP, game.table_msg) is not None
    assert game.results_msg is not None


async def test_a_forged_or_foreign_page_gets_nothing(fake, web):
    game, people = await start_group_game(fake, web, 2)
    seat = game.seats[0]
    url = page_url(fake, seat)
    version = (await web.game(game.id)).version
    async with chromium() as browser:
        raw = init_data(fake.token, seat.user_id, seat.name)
        forged_phone = await Phone.open(browser, url, raw, forge=forged)
        await forged_phone.page.wait_for_selector("#note:not([hidden])")
        stranger = await Phone.open(browser, url, init_data(fake.token, 999, "Eve"))
        await stranger.page.wait_for_selector("#note:not([hidden])")
        for phone, refused in ((forged_phone, {401}), (stranger, {403})):
            assert phone.api_statuses and set(phone.api_statuses) - {200} <= refused, phone.api_statuses
            assert not phone.errors, phone.errors
            assert await phone.page.locator(".tile").count() == 0
            assert all('"rack"' not in body for _, _, body in phone.answers)
        assert set(forged_phone.api_statuses) == {401}
    assert (await web.game(game.id)).version == version


@pytest.mark.parametrize("kind", ["lucky", "cones", "trio"])
async def test_the_other_games_have_a_live_read_only_board(fake, web, kind):
    """Opened from the group's link (start_param: the game), by someone who does not play."""
    group = -100800
    fake.add_group(group, "Games")
    people = [Player(fake, web, 11 + i, name) for i, name in enumerate(["Ann", "Bo"])]
    for p in people:
        await p.start_private()
    game = await start_game(fake, web, group, kind, people)
    rng = random.Random(5)
    await press_until_over(fake, web, game.id, rng, most=3)
    async with chromium() as browser:
        raw = init_data(fake.token, 999, "Eve", start_param=watch_param(game.short_id, fake.token))
        phone = await Phone.open(browser, f"{web.base}/app/", raw)
        await phone.ready()
        assert await phone.page.locator(".board-panel svg, .board-panel .count").count() > 0
        assert await phone.page.locator(".player").count() == 2
        version = game.version
        while game.version == version:  # a move (not just a step of composing one)
            await press_until_over(fake, web, game.id, rng, most=1)
        await phone.wait_version_past(version)  # live
        assert not phone.errors, phone.errors
        assert "Watching" in await phone.page.inner_text("#status")


async def test_checked_from_outside_python_m_bot_serves_the_page(fake, tmp_path):
    """``python -m bot`` with PORT and WEBAPP_URL=http://127.0.0.1:PORT: the rack message has the
    web_app button; its page, with a bare stub (initData only), draws the board from the bot's
    JSON with no page error; with a forged hash every JSON request is refused."""
    port = free_port()
    proc = launch({"TELEGRAM_BOT_TOKEN": fake.token, "TELEGRAM_API_URL": fake.base_url,
                   "TABLEBOT_DB": str(tmp_path / "bot.sqlite3"), "PORT": str(port),
                   "WEBAPP_URL": f"http://127.0.0.1:{port}", "TABLEBOT_GROUP_WRITES_PER_MINUTE": "10000",
                   "TABLEBOT_GROUP_FAST_SPACING": "0"})
    try:
        fake.add_group(GROUP, "Outside")
        for user, name in ((1, "Anna"), (2, "Bob")):
            fake.add_user(user, name)
            fake.user_starts_private(user)
        fake.user_sends(1, GROUP, "/new genial")
        lobby = await _eventually(lambda: next((m for m in fake.messages(GROUP) if buttons(m)), None))
        fake.user_presses(2, GROUP, lobby.message_id, button_data(lobby, text="Join"))
        await _eventually(lambda: "Bob" in (fake.message(GROUP, lobby.message_id).text or ""))
        fake.user_presses(1, GROUP, lobby.message_id, button_data(lobby, text="Start"))

        def app_url():
            for m in fake.messages(1):
                for b in buttons(m):
                    if "web_app" in b:
                        return b["web_app"]["url"]
        url = await _eventually(app_url)
        assert url.startswith(f"http://127.0.0.1:{port}/")
        raw = init_data(fake.token, 1, "Anna")
        async with chromium() as browser:
            phone = await Phone.open(browser, url, raw, stub=MINIMAL_STUB)
            await phone.ready()
            assert await phone.page.locator("svg polygon.cell").count() >= 91
            assert not phone.errors, phone.errors
            assert phone.api_statuses and all(200 <= s < 300 for s in phone.api_statuses), phone.api_statuses
            forged_phone = await Phone.open(browser, url, raw, stub=MINIMAL_STUB, forge=forged)
            await forged_phone.page.wait_for_selector("#note:not([hidden])")
            assert forged_phone.api_statuses and set(forged_phone.api_statuses) <= {401, 403}
            assert not forged_phone.errors, forged_phone.errors
    finally:
        code, output, _ = stop(proc)
    assert code == 0, output


async def _eventually(probe, seconds: float = 20.0):
    """What ``probe`` returns once it is truthy (the bot runs in another process)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while loop.time() < deadline:
        value = probe()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError("not within the time")
