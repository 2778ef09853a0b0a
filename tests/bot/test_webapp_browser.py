"""«Гениально» in a real headless chromium against the running bot and the fake Bot API: a
person opens the page from the rack message's button, plays by tapping named controls, the
group's table and the other player's open page follow; what each placement would earn is on the
board and the preview draws the lines that score; two fingers zoom; a whole game is finished with
one player on the page and the other on buttons; a page whose signature is forged gets nothing."""
from __future__ import annotations

import asyncio
import json
import random
import re
import time

import pytest

from engines import genial, registry
from tests.bot.browser import (
    GENIAL_CELL, GENIAL_TILE, MAIN, MINIMAL_STUB, Phone, browser, page_url, seen_to_the_end, stranger_moves,
    tap_a_move, web,
)
from tests.bot.harness import button_data, buttons
from tests.bot.test_startup import launch, stop
from tests.bot.test_genial_e2e import GROUP, play_turn, start_group_game
from tests.bot.webapp_client import (
    PageClient, assert_only_own_secrets, forged, free_port, init_data, states_by_turn,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")
RESET = re.compile(r"^(Reset the view|Весь стол)$")
__all__ = ["browser", "web"]  # the module's one chromium and the bot for each test (fixtures)



def assert_only_own_rack(phone: Phone, seat: int) -> None:
    """No answer to this phone holds a rack but its own."""
    for status, url, body in phone.answers:
        if '"rack"' not in body:
            continue
        data = json.loads(body)
        view = (data.get("game") or data).get("view") or {}
        assert view.get("seat") == seat, url
        assert body.count('"rack"') == 1 and '"racks"' not in body


async def test_a_move_tapped_on_the_page_reaches_the_table_and_the_other_page(fake, web, browser):
    game, people = await start_group_game(fake, web, 2)
    match = await web.bot.book.load(game.id)
    mover, other = match.current, 1 - match.current
    seats = game.seats
    lang = {p.id: p.lang for p in people}
    raws = [init_data(fake.token, s.user_id, s.name, lang=lang[s.user_id]) for s in seats]
    phones = [await Phone.open(browser, page_url(fake, seats[i]), raws[i]) for i in range(2)]
    for phone in phones:
        await phone.ready()
        assert await phone.count("svg.hexboard polygon.cell") >= 91
        assert await phone.button_count(GENIAL_TILE) == 6  # enabled on the turn only
    # The wheel zooms the board (its viewBox), ⤢ shows it whole again; two fingers: see the pinch test.
    board = "svg.hexboard"
    whole = await phones[other].attribute(board, "viewBox")
    await phones[other].wheel(board, -300)
    assert await phones[other].attribute(board, "viewBox") != whole
    await phones[other].tap(RESET)
    assert await phones[other].attribute(board, "viewBox") == whole
    turn = await phones[mover].turn()
    edits = len(fake.calls("editMessageMedia", GROUP))
    await tap_a_move(phones[mover])
    await phones[mover].wait_turn_past(turn)
    await phones[other].wait_turn_past(turn)  # the other page heard of it, live
    await web.idle()
    assert len(fake.calls("editMessageMedia", GROUP)) > edits
    state = await web.state(game.id)
    assert any(t[4] == mover for t in state.tiles)
    states = await states_by_turn(web, await web.game(game.id))
    for i, phone in enumerate(phones):
        assert not await phone.page_errors(), await phone.page_errors()
        assert_only_own_rack(phone, i)
        assert assert_only_own_secrets("genial", [b for _, _, b in phone.answers], i, states) >= 2
    # Each in their language: Борис reads Russian.
    for s, phone in zip(seats, phones):
        status = await phone.text("#status")
        assert ("Гениально" in status) == (lang[s.user_id] == "ru"), status
    for phone in phones:
        await phone.close()


async def test_a_whole_game_one_player_on_the_page_the_other_on_buttons(fake, web, browser):
    game, people = await start_group_game(fake, web, 2)
    by_id = {p.id: p for p in people}
    on_page = 0
    seat = game.seats[on_page]
    rng = random.Random(26)
    phone = await Phone.open(browser, page_url(fake, seat), init_data(fake.token, seat.user_id, seat.name))
    await phone.ready()
    turns = {"page": 0, "buttons": 0}
    while game.status == "running":
        state = await web.state(game.id)
        turn = genial.turn(state)
        if genial.current_player(state) == on_page:
            await phone.wait(f"body[data-turn='{turn}']")
            await tap_a_move(phone, rng)
            await phone.wait_turn_past(turn)
            turns["page"] += 1
        else:
            await play_turn(fake, web, game, by_id, rng, wander=False)
            turns["buttons"] += 1
        await web.idle()
    assert game.status == "finished" and turns["page"] > 10 and turns["buttons"] > 10, turns
    over = "Игра окончена." if by_id[seat.user_id].lang == "ru" else "Game over."
    assert await seen_to_the_end(phone, over, web, game, on_page) > 10
    assert await phone.count(".story .result") == 2
    assert_only_own_rack(phone, on_page)
    await phone.close()


async def test_each_placement_says_what_it_earns_and_the_preview_draws_the_lines_that_score(fake, web, browser):
    """Lit cells are buttons named by their cell and points, shaded by them, those that earn most
    rimmed; the chosen placement draws its scoring lines and names its cells; the lowest colour's
    underline is explained. Two fingers spread on the board zoom it in (touch events through the
    DevTools protocol, as a phone sends them)."""
    game, people = await start_group_game(fake, web, 2)
    match = await web.bot.book.load(game.id)
    for _ in range(6):  # a few tiles down, so that placements differ in what they earn
        await play_turn(fake, web, game, {p.id: p for p in people}, random.Random(3), wander=False)
    match = await web.bot.book.load(game.id)
    while match.state.phase == genial.SWAP:  # (the deal may end there: Swap or Keep first, then a tile)
        await play_turn(fake, web, game, {p.id: p for p in people}, random.Random(3), wander=False)
        match = await web.bot.book.load(game.id)
    mover = game.seats[match.current]
    phone = await Phone.open(browser, page_url(fake, mover), init_data(fake.token, mover.user_id, mover.name))
    await phone.ready()
    legend = await phone.text(".legend")
    assert "Underlined: the lowest colour" in legend or "Подчёркнут самый слабый цвет" in legend, legend
    tile = next(n for n in await phone.named_buttons() if GENIAL_TILE.match(n))
    await phone.tap(tile)
    cells = [n for n in await phone.named_buttons() if GENIAL_CELL.match(n)]
    assert cells and await phone.count(".cell.lit") == len(cells)
    gains = sorted((int(n.rsplit("+", 1)[1]) for n in cells), reverse=True)
    assert await phone.count("text.gain-figure") == len(cells)
    best = await phone.count(".cell.best")
    assert best == (gains.count(gains[0]) if gains[0] else 0)  # those that earn most, rimmed
    top = max(cells, key=lambda n: int(n.rsplit("+", 1)[1]))
    await phone.tap(top)
    label = top.split(":")[0]
    assert label in await phone.text(".preview")
    assert f"+{gains[0]}" in await phone.button_text(MAIN)
    if gains[0]:  # what scores is drawn: a line per counted cell
        assert await phone.count("line.score-line") >= 1
    # Pinch: two fingers move apart on the board.
    board = "svg.hexboard"
    whole = await phone.attribute(board, "viewBox")
    await phone.pinch(board, list(range(20, 130, 10)))
    zoomed = await phone.attribute(board, "viewBox")
    assert zoomed != whole and float(zoomed.split()[2]) < float(whole.split()[2]) / 2, (whole, zoomed)
    assert not await phone.page_errors(), await phone.page_errors()
    await phone.close()


async def test_a_forged_or_foreign_page_gets_nothing(fake, web, browser):
    game, people = await start_group_game(fake, web, 2)
    seat = game.seats[0]
    url = page_url(fake, seat)
    version = (await web.game(game.id)).version
    raw = init_data(fake.token, seat.user_id, seat.name)
    forged_phone = await Phone.open(browser, url, raw, forge=forged)
    await forged_phone.wait("#note:not([hidden])")
    stranger = await Phone.open(browser, url, init_data(fake.token, 999, "Eve"))
    await stranger.wait("#note:not([hidden])")
    for phone, refused in ((forged_phone, {401}), (stranger, {403})):
        assert phone.api_statuses and set(phone.api_statuses) - {200} <= refused, phone.api_statuses
        assert not await phone.page_errors(), await phone.page_errors()
        assert not [n for n in await phone.named_buttons() if GENIAL_TILE.match(n)]
        assert all('"rack"' not in body for _, _, body in phone.answers)
        await phone.close()
    assert set(forged_phone.api_statuses) == {401}
    assert (await web.game(game.id)).version == version


async def test_an_expired_page_says_so_in_the_persons_language(fake, web, browser):
    """Before /api/me answers, the page knows the person only by Telegram's word for their
    language: it asks the bot for the words in it (no signature: they are the same for everyone)
    and says why it cannot go on, in Russian for a Russian (or Ukrainian) Telegram."""
    game, people = await start_group_game(fake, web, 2)
    seat = game.seats[0]
    day_ago = time.time() - 25 * 3600
    for lang, said in (("ru", "Страница устарела: откройте её снова из чата."),
                       ("uk", "Страница устарела: откройте её снова из чата."),
                       ("en", "This page has expired: open it again from the chat.")):
        phone = await Phone.open(browser, page_url(fake, seat),
                                 init_data(fake.token, seat.user_id, seat.name, lang=lang, auth_date=day_ago))
        await phone.wait("#note:not([hidden])")
        assert await phone.text("#note") == said
        errors = await phone.page_errors()
        assert set(phone.api_statuses) == {401} and not errors, (phone.api_statuses, errors)
        await phone.close()


async def test_checked_from_outside_python_m_bot_serves_the_page(fake, tmp_path, browser):
    """``python -m bot`` with PORT, WEBAPP_URL=http://127.0.0.1:PORT and WEBAPP_SHORT_NAME: the rack
    message has the web_app button; its page, with a bare stub (initData only), draws the board
    from the bot's JSON with no page error; with a forged hash every JSON request is refused. For
    each of the four games, the page opened from the group table's link as the player to move
    lets someone who knows nothing of it make a move by tapping named controls (and the
    MainButton when it shows) within 40 taps."""
    port = free_port()
    proc = launch({"TELEGRAM_BOT_TOKEN": fake.token, "TELEGRAM_API_URL": fake.base_url,
                   "TABLEBOT_DB": str(tmp_path / "bot.sqlite3"), "PORT": str(port),
                   "WEBAPP_URL": f"http://127.0.0.1:{port}", "WEBAPP_SHORT_NAME": "board",
                   "TABLEBOT_GROUP_WRITES_PER_MINUTE": "10000", "TABLEBOT_GROUP_FAST_SPACING": "0"})
    taps = {}
    try:
        for user, name in ((1, "Anna"), (2, "Bob")):
            fake.add_user(user, name)
            fake.user_starts_private(user)
        links = {}
        for k, kind in enumerate(registry.game_ids()):
            group = GROUP - 1 - k
            fake.add_group(group, f"Outside {kind}")
            fake.user_sends(1, group, f"/new {kind}")
            lobby = await _eventually(lambda: next((m for m in fake.messages(group) if buttons(m)), None))
            fake.user_presses(2, group, lobby.message_id, button_data(lobby, text="Join"))
            await _eventually(lambda: "Bob" in (fake.message(group, lobby.message_id).text or ""))
            fake.user_presses(1, group, lobby.message_id, button_data(lobby, text="Start"))

            def link():
                for m in fake.messages(group):
                    for b in buttons(m):
                        if "startapp=" in b.get("url", ""):
                            return b["url"]
            links[kind] = await _eventually(link)
            assert links[kind].startswith(f"https://t.me/{fake.bot_username}/board?startapp=")

        def app_url():  # the rack message's (the goal and the hand messages have one too)
            for m in fake.messages(1):
                for b in buttons(m):
                    if "web_app" in b and "rack" in (m.caption or m.text or ""):
                        return b["web_app"]["url"]
        url = await _eventually(app_url)
        assert url.startswith(f"http://127.0.0.1:{port}/")
        raw = init_data(fake.token, 1, "Anna")
        phone = await Phone.open(browser, url, raw, stub=MINIMAL_STUB)
        await phone.ready()
        assert await phone.count("svg polygon.cell") >= 91
        assert not await phone.page_errors(), await phone.page_errors()
        assert phone.api_statuses and all(200 <= s < 300 for s in phone.api_statuses), phone.api_statuses
        forged_phone = await Phone.open(browser, url, raw, stub=MINIMAL_STUB, forge=forged)
        await forged_phone.wait("#note:not([hidden])")
        # The browser tells of an answer after the page has it: the note may show first.
        await _eventually(lambda: forged_phone.api_statuses)
        assert set(forged_phone.api_statuses) <= {401, 403}
        assert not await forged_phone.page_errors(), await forged_phone.page_errors()
        for opened in (phone, forged_phone):
            await opened.close()
        # Each game from its group table's link, as the player to move, by a stranger to the page.
        for kind, link in links.items():
            start = link.split("startapp=", 1)[1]
            probe = PageClient(f"http://127.0.0.1:{port}", init_data(fake.token, 1, "Anna", start_param=start))
            status, seen, _ = await probe.get(f"/games/{start.split('-')[0]}")
            mover = 1 if seen["my_turn"] else 2
            raw = init_data(fake.token, mover, "Anna" if mover == 1 else "Bob", start_param=start)
            player = await Phone.open(browser, f"http://127.0.0.1:{port}/app/", raw)
            await player.ready()
            await player.wait(f"body[data-version='{seen['version']}']")
            taps[kind] = await stranger_moves(player, random.Random(kind))
            assert not await player.page_errors(), (kind, await player.page_errors())
            await player.close()
    finally:
        code, output, _ = stop(proc)
    assert code == 0, output
    assert set(taps) == set(registry.game_ids()) and max(taps.values()) <= 40, taps


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
