"""Trio on the Mini App, in a real headless chromium: a whole 2-player game in English, one player
opening the page from their hand message and tapping it (a tile of their hand, a numbered place,
✅: found by their roles and names), the other composing moves in the private chat. The page
shows only its own hand, the die and what a place forms; a turn the player cannot lay a tile is
drawn for them; no answer to the page holds the other's hand.

Seed 9 ends in nine moves when both players lay the first tile that fits at its first place
(what both sides here do): one seat lays five tiles and wins, the other lays three and draws once.
"""
from __future__ import annotations

import re

import pytest

from engines import trio
from tests.bot.browser import MAIN, Phone, browser, page_url, seen_to_the_end, web
from tests.bot.harness import Player, buttons
from tests.bot.webapp_client import init_data, start_seeded

pytestmark = pytest.mark.asyncio(loop_scope="module")
__all__ = ["browser", "web"]  # the module's one chromium and the bot for each test (fixtures)

GROUP = -100830
SEED = 9
TILE = re.compile(r"^Tile: ")
PLACE = re.compile(r"^Place \d+$")



async def by_buttons(fake, web, game, person: Player) -> None:
    """One move in the private chat: the first tile offered, its first place, ✅ Confirm."""
    version = game.version
    while game.version == version and game.status == "running":
        seat = game.seats[game.seat_of(person.id)]
        message = fake.message(person.id, seat.dm_msg)
        first = next(b["callback_data"] for b in buttons(message)
                     if "callback_data" in b and not b["text"].startswith(("◀", "▶")))
        await person.press(person.id, seat.dm_msg, first)


async def on_the_page(phone: Phone, state, seat: int) -> int:
    """The first tile of the hand that fits, its place 1 (turned over and back where it fits both
    ways), ✅. The taps a move takes: two and ✅."""
    tiles = [n for n in await phone.named_buttons() if TILE.match(n)]  # only those that fit are enabled
    first = next(t for t in state.hands[seat] if trio.legal_placements(state, seat, t))
    lo, hi = (s.replace("-", " ") for s in trio.tile_symbols(first))
    assert tiles[0] == f"Tile: {lo} + {hi}", tiles
    await phone.tap(tiles[0])
    places = [n for n in await phone.named_buttons() if PLACE.match(n)]
    assert "Place 1" in places
    await phone.tap("Place 1")
    said = await phone.text(".preview-line")
    assert said.startswith(f"Place 1: {lo} + {hi}.") and "Sets formed: " in said, said
    if await phone.button_count("↻ Turn"):  # it fits the other way round too
        await phone.tap("↻ Turn")
        assert not (await phone.text(".preview-line")).startswith("Place 1:")
        await phone.tap("Place 1")
        assert (await phone.text(".preview-line")).startswith("Place 1:")
    assert await phone.count(".set-line") >= 1  # the sets it forms, drawn
    await phone.tap(MAIN)
    return 3


async def test_a_whole_game_one_player_on_the_page_the_other_in_the_private_chat(fake, web, browser):
    fake.add_group(GROUP, "Trio night")
    people = [Player(fake, web, 61, "Ann"), Player(fake, web, 62, "Bo")]
    for p in people:
        await p.start_private()
    game = await start_seeded(fake, web, GROUP, "trio", people, seed=SEED)
    on_page = 1  # the seat that draws once
    seat = game.seats[on_page]
    person = {p.id: p for p in people}[game.seats[1 - on_page].user_id]
    phone = await Phone.open(browser, page_url(fake, seat), init_data(fake.token, seat.user_id, seat.name))
    await phone.ready()
    taps = []
    while game.status == "running":
        match = await web.bot.book.load(game.id)
        if match.current == on_page:
            await phone.wait(f"body[data-version='{game.version}']")
            hand = await phone.button_count(TILE)
            assert hand == len(match.state.hands[on_page])  # her own hand, every tile of it
            assert "The die:" in await phone.text(".die")
            version = game.version
            taps.append(await on_the_page(phone, match.state, on_page))
            await phone.wait_version_past(version)
        else:
            await web.idle()  # the private message shows the turn its buttons are for
            await by_buttons(fake, web, game, person)
    state = await web.state(game.id)
    assert game.status == "finished" and trio.turn(state) == 9 and len(taps) == 3 and set(taps) == {3}, taps
    assert any(w == on_page and not laid for w, _, _, laid in state.history)  # a tile was drawn for her
    assert await seen_to_the_end(phone, "Game over.", web, game, on_page) >= 3
    assert "(you)" in await phone.text(".players")
    await phone.close()
