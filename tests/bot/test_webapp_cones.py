"""Cones on the Mini App, in a real headless chromium: a whole 2-player game in Russian with the
lobby's variant «Не на ту же башню», one player tapping the page (a chip, a lit pile, ✅: found
by their roles and names), the other on the group table's buttons. The page says what each move
does, marks the pile the variant closes, shows the secret goal on its owner's page only, and no
answer to either page holds the other's goal."""
from __future__ import annotations

import random
import re

import pytest

from bot.webapp.auth import watch_param
from tests.bot.browser import MAIN, Phone, browser, page_url, seen_to_the_end, web
from tests.bot.harness import Player, button_data, press_until_over
from tests.bot.webapp_client import assert_only_own_secrets, init_data, start_seeded, states_by_turn

pytestmark = pytest.mark.asyncio(loop_scope="module")
__all__ = ["browser", "web"]  # the module's one chromium and the bot for each test (fixtures)

GROUP = -100820
CHIP = re.compile(r"^Фишка: ")
PILE = re.compile(r"^Башня \d+: ")



async def by_buttons(fake, web, game, rng) -> None:
    """One whole move on the table's buttons (a chip, a pile, ✅ where asked)."""
    version = game.version
    while game.version == version and game.status == "running":
        await press_until_over(fake, web, game.id, rng, most=1)


async def on_the_page(phone: Phone, blocked: int | None) -> int:
    """One move tapped on the page: the first chip, the first lit pile, ✅. The taps it took."""
    chips = [n for n in await phone.named_buttons() if CHIP.match(n)]
    await phone.tap(chips[0])
    piles = [n for n in await phone.named_buttons() if PILE.match(n)]  # only the lit ones are enabled
    assert piles, "a chip always has a pile to go on"
    assert not any(n.startswith(f"Башня {blocked}: ") for n in piles), piles
    await phone.tap(piles[0])
    said = await phone.text(".preview-line")
    assert said.lower().startswith(chips[0].split(": ")[1].split(",")[0] + " на башню") and "башн" in said, said
    await phone.tap(MAIN)
    return 3


async def test_a_whole_game_one_player_on_the_page_in_russian_the_other_on_buttons(fake, web, browser):
    fake.add_group(GROUP, "Конусы")
    people = [Player(fake, web, 51, "Ann"), Player(fake, web, 52, "Вика", lang="ru")]
    for p in people:
        await p.start_private()
    game = await start_seeded(fake, web, GROUP, "cones", people, words="no_same_pile")
    seat = next(s for s in game.seats if s.user_id == 52)
    other = game.seats[1 - seat.seat]
    goals = (await web.state(game.id)).goals
    # The goal message's «🖐 На доске» opens the page: the goal on it, and the variant.
    phone = await Phone.open(browser, page_url(fake, seat), init_data(fake.token, 52, "Вика", lang="ru"))
    await phone.ready()
    assert "Ваша тайная цель:" in await phone.text(".goal")
    assert await phone.attribute(".goal .chip", "aria-label") == goals[seat.seat]
    assert "Не на ту же башню" in await phone.text(".variants")
    # The other player's page shows their own goal, never hers.
    theirs = await Phone.open(browser, page_url(fake, other), init_data(fake.token, 51, "Ann"))
    await theirs.ready()
    assert await theirs.attribute(".goal .chip", "aria-label") == goals[other.seat]
    await theirs.close()
    rng = random.Random(7)
    taps = []
    closed_seen = False
    while game.status == "running":
        match = await web.bot.book.load(game.id)
        if match.current == seat.seat:
            await phone.wait(f"body[data-version='{game.version}']")
            state = match.state
            blocked = state.last_pile  # the variant: the pile just played waits a turn
            if blocked is not None:
                name = await phone.attribute(f".pile[data-pile='{blocked}']", "aria-label")
                assert name.startswith(f"Башня {blocked}: ") and name.endswith("на этот ход закрыта"), name
                closed_seen = True
            version = game.version
            taps.append(await on_the_page(phone, blocked))
            await phone.wait_version_past(version)
        else:
            await web.idle()  # the table shows the turn the buttons are for
            await by_buttons(fake, web, game, rng)
    assert game.status == "finished" and len(taps) == 12 and set(taps) == {3}, taps
    assert closed_seen
    assert await seen_to_the_end(phone, "Игра окончена.", web, game, seat.seat) >= 12
    cards = await phone.text(".players")
    assert "(вы)" in cards and "★" not in cards and "цель:" in cards  # goals revealed at the end
    states = await states_by_turn(web, await web.game(game.id))
    assert assert_only_own_secrets("cones", [b for _, _, b in theirs.answers], other.seat, states) >= 1
    await phone.close()


async def test_a_page_opened_on_a_lobby_says_so_joins_through_the_door_and_becomes_the_board(fake, web, browser):
    """A link to a game not started yet (a group's link passed on): the page says the game has not
    started, offers ✋ Join (the lobby's own button, through the door), and once the host starts
    the game, the same page shows the board and the goal, live."""
    fake.add_group(GROUP - 1, "Конусы")
    host, guest = Player(fake, web, 53, "Ann"), Player(fake, web, 54, "Вика", lang="ru")
    for p in (host, guest):
        await p.start_private()
    await host.say(GROUP - 1, "/new cones")
    lobby = next(g for g in await web.games() if g.chat_id == GROUP - 1 and g.status == "lobby")
    raw = init_data(fake.token, 54, "Вика", lang="ru", start_param=watch_param(lobby.short_id, fake.token))
    phone = await Phone.open(browser, f"{web.base}/app/", raw)
    await phone.ready()
    assert "ещё не началась" in await phone.text("#status")
    assert "Игра ещё не началась: игроков 1, нужно от 2 до 4." in await phone.text(".lobby")
    await phone.tap("✋ Играю")
    said = await phone.text(".lobby")
    assert "Вы в игре" in said, (said, await phone.text("#note"), phone.answers[-3:])
    assert not [n for n in await phone.named_buttons() if n == "✋ Играю"]
    await web.idle()
    message = fake.message(GROUP - 1, lobby.lobby_msg)
    assert "Вика" in message.text
    await host.press(GROUP - 1, lobby.lobby_msg, button_data(message, endswith=":!start"))
    await phone.wait("body[data-status='running']")
    await phone.wait(".goal:not([hidden])")
    assert await phone.button_count(PILE) == 16
    assert not await phone.page_errors(), await phone.page_errors()
    await phone.close()
