"""«Совершенно гениально» (lucky) on the Mini App, in a real headless chromium: a whole 2-player
game in Russian, one player opening the page from the group table's link and moving with one tap
a move (Тянуть, Забрать, Взять: big buttons found by their roles and names), the other on the
table's buttons. The page says what a bank would bring and how likely a draw is to match, and
shows the bonus turns.

Seed 675 ends in 48 moves when both players take where they may (before drawing), bank once
three tokens are in the zone, and draw otherwise (what both sides here do); its second seat, the
host's (Вика's), makes 29 of them, five on bonus turns.
"""
from __future__ import annotations

import re

import pytest

from engines import lucky
from tests.bot.browser import Phone, browser, seen_to_the_end, web
from tests.bot.harness import Player, buttons
from tests.bot.webapp_client import (
    init_data, start_seeded, watch_link,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")
__all__ = ["browser", "web"]  # the module's one chromium and the bot for each test (fixtures)

GROUP = -100840
SEED = 675
BANK_AT = 3  # tokens in the zone



def choose(state, seat: int) -> str:
    """take / bank / draw, as both players here play."""
    actions = lucky.legal_actions(state, seat)
    if any(isinstance(a, lucky.Take) for a in actions) and not state.zone:
        return "take"
    if any(isinstance(a, lucky.Bank) for a in actions) and len(state.zone) >= BANK_AT:
        return "bank"
    if any(isinstance(a, lucky.Draw) for a in actions):
        return "draw"
    return lucky.encode_action(actions[0]).split("-")[0]


ON_PAGE = {"take": re.compile(r"^✋ Взять "), "bank": re.compile(r"^💰 Забрать: вы получите"),
           "draw": re.compile(r"^🎲 Тянуть")}


async def test_a_whole_game_one_player_on_the_page_in_russian_the_other_on_buttons(fake, web, browser):
    fake.add_group(GROUP, "Lucky night")
    people = [Player(fake, web, 72, "Вика", lang="ru"), Player(fake, web, 71, "Ann")]
    for p in people:
        await p.start_private()
    game = await start_seeded(fake, web, GROUP, "lucky", people, seed=SEED)
    on_page = game.seat_of(72)
    assert on_page == 1
    ann = people[1]
    raw = init_data(fake.token, 72, "Вика", lang="ru", start_param=watch_link(fake, game))
    phone = await Phone.open(browser, f"{web.base}/app/", raw)
    await phone.ready()
    assert "в резерве: " in await phone.text(".board-panel")
    taps = bonus_seen = 0
    while game.status == "running":
        match = await web.bot.book.load(game.id)
        state = match.state
        what = choose(state, match.current)
        if match.current == on_page:
            await phone.wait(f"body[data-version='{game.version}']")
            if state.in_bonus:
                assert "Призовой ход!" in await phone.text(".bonus-line")
                bonus_seen += 1
            names = await phone.named_buttons()
            assert any(n.startswith("🎲 Тянуть: шанс совпадения: ") for n in names) == any(
                isinstance(a, lucky.Draw) for a in lucky.legal_actions(state, on_page)), names
            version = game.version
            await phone.tap(ON_PAGE[what])  # one tap, one move
            taps += 1
            await phone.wait_version_past(version)
        else:
            await web.idle()  # the table shows the turn its buttons are for
            table = fake.message(GROUP, game.table_msg)
            await ann.press(GROUP, game.table_msg, next(b["callback_data"] for b in buttons(table)
                                                        if b.get("callback_data", "").split(":")[-1].startswith(what)))
    assert game.status == "finished" and lucky.turn(await web.state(game.id)) == 48, game.status
    assert taps == 29 and bonus_seen == 5, (taps, bonus_seen)
    assert await seen_to_the_end(phone, "Игра окончена.", web, game, on_page) >= 29
    assert "Подчёркнут самый слабый цвет" in await phone.text(".legend")
    await phone.close()
