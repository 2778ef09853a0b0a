"""The Mini App's API against the running bot and the fake Bot API: who may see and do what,
moves through the door (the group table is edited, the other page hears of it), and no answer
to one person holding another's rack."""
from __future__ import annotations

import asyncio
import json
import time

import pytest

from engines import genial
from engines.genial.core import tile_names
from bot.webapp.auth import watch_param
from tests.bot.harness import Player, button_data, buttons
from tests.bot.test_genial_e2e import GROUP, start_group_game
from tests.bot.webapp_client import PageClient, bot_with_page, forged, init_data

SHORT_NAME = "board"


@pytest.fixture
async def web(fake, tmp_path):
    async with bot_with_page(fake, tmp_path / "tablebot.sqlite3", webapp_short_name=SHORT_NAME) as runner:
        yield runner


def page_of(runner, fake, user_id: int, **kw) -> PageClient:
    name = fake.users[user_id]["first_name"] if hasattr(fake, "users") else "P"
    return PageClient(runner.base, init_data(fake.token, user_id, name, **kw))


def racks(state) -> list[list[list[str]]]:
    return [[tile_names(t) for t in rack] for rack in state.racks]


async def test_the_buttons_open_the_page_a_move_from_it_goes_through_the_door(fake, web):
    game, people = await start_group_game(fake, web, 2)
    match = await web.bot.book.load(game.id)
    # The private rack message opens the page on this game; the group's table links to the app.
    for s in game.seats:
        private = fake.message(s.user_id, s.dm_msg)
        apps = [b["web_app"]["url"] for b in buttons(private) if "web_app" in b]
        assert apps == [f"{web.base}/app/?game={game.short_id}"]
    table = fake.message(GROUP, game.table_msg)
    links = [b["url"] for b in buttons(table) if "url" in b]
    assert f"https://t.me/{fake.bot_username}/{SHORT_NAME}?startapp={watch_param(game.short_id, fake.token)}" in links
    assert not any("web_app" in b for b in buttons(table))

    mover = match.current
    other = 1 - mover
    pages = [PageClient(web.base, init_data(fake.token, s.user_id, s.name)) for s in game.seats]
    status, me, _ = await pages[mover].get("/me")
    assert status == 200 and [g["id"] for g in me["games"]] == [game.short_id]
    status, seen, tag = await pages[mover].get(f"/games/{game.short_id}")
    assert status == 200 and seen["seat"] == mover and seen["my_turn"]
    assert seen["view"]["rack"] == racks(match.state)[mover]

    # The other page waits for a change with the ETag of what it shows.
    status, before, other_tag = await pages[other].get(f"/games/{game.short_id}")
    waiting = asyncio.create_task(pages[other].get(f"/games/{game.short_id}?wait=1",
                                                   headers={"If-None-Match": other_tag}))
    status, found, _ = await pages[mover].get(f"/games/{game.short_id}/ask/placements?tile=0")
    assert status == 200 and found["placements"]
    choice = found["placements"][0]
    assert set(choice["points"]) <= set(genial.COLOURS)
    edits_before = len(fake.calls("editMessageMedia", GROUP))
    status, moved, _ = await pages[mover].post(f"/games/{game.short_id}/move",
                                               {"turn": found["turn"], "action": choice["code"]})
    assert status == 200 and moved["moved"], moved
    assert moved["game"]["turn"] != seen["turn"]
    status, now, _ = await asyncio.wait_for(waiting, 10)
    assert status == 200 and now["version"] > before["version"]
    await web.idle()
    assert len(fake.calls("editMessageMedia", GROUP)) > edits_before  # the group's table was redrawn
    placed = [t for t in (await web.state(game.id)).tiles if t[4] == mover]
    assert placed, "the move is in the engine state"


async def test_a_page_waiting_on_a_lobby_hears_its_own_join_as_joined(fake, web):
    """A page opened from a lobby's link waits for a change; the change is this person joining
    (from the group's ✋ Join): the answer says they sit there now and offers no Join again (it
    said "not joined, can join" with their name among the seats, and the page showed ✋ again)."""
    fake.add_group(GROUP - 5, "Lobby night")
    host, guest = Player(fake, web, 61, "Ann"), Player(fake, web, 62, "Vika")
    for p in (host, guest):
        await p.start_private()
    await host.say(GROUP - 5, "/new lucky")
    lobby = next(g for g in await web.games() if g.chat_id == GROUP - 5 and g.status == "lobby")
    page = PageClient(web.base, init_data(fake.token, 62, "Vika", start_param=watch_param(lobby.short_id, fake.token)))
    status, before, tag = await page.get(f"/games/{lobby.short_id}")
    assert status == 200 and before["lobby"]["joined"] is False and before["lobby"]["can_join"] is True
    waiting = asyncio.create_task(page.get(f"/games/{lobby.short_id}?wait=1", headers={"If-None-Match": tag}))
    await asyncio.sleep(0.2)  # the page is waiting
    await web.idle()
    message = fake.message(GROUP - 5, lobby.lobby_msg)
    await guest.press(GROUP - 5, message.message_id, button_data(message, endswith=":!join"))
    status, now, _ = await asyncio.wait_for(waiting, 10)
    assert status == 200 and now["lobby"]["seats"] == 2, now
    assert now["seat"] == 1 and now["lobby"]["joined"] is True and now["lobby"]["can_join"] is False, now["lobby"]


async def test_refused_requests_change_nothing(fake, web):
    game, people = await start_group_game(fake, web, 2)
    match = await web.bot.book.load(game.id)
    mover = match.current
    seat = game.seats[mover]
    good = init_data(fake.token, seat.user_id, seat.name)
    found = (await PageClient(web.base, good).get(f"/games/{game.short_id}/ask/placements?tile=0"))[1]
    move = {"turn": found["turn"], "action": found["placements"][0]["code"]}
    version = (await web.game(game.id)).version
    day_ago = time.time() - 24 * 3600 - 60
    refused = {
        "missing": (PageClient(web.base, None), 401),
        "forged": (PageClient(web.base, forged(good)), 401),
        "expired": (PageClient(web.base, init_data(fake.token, seat.user_id, seat.name, auth_date=day_ago)), 401),
        "another bot's": (PageClient(web.base, init_data("1:other", seat.user_id, seat.name)), 401),
        "a stranger": (PageClient(web.base, init_data(fake.token, 999, "Eve")), 403),
        # A watcher linked from the group may look, not move.
        "a watcher": (PageClient(web.base, init_data(fake.token, 999, "Eve",
                                                     start_param=watch_param(game.short_id, fake.token))), 403),
        # Game ids are short and counted: a board is watched from its group's link, not by a guess.
        "a guess": (PageClient(web.base, init_data(fake.token, 999, "Eve", start_param=game.short_id)), 403),
        "another game's link": (PageClient(web.base, init_data(
            fake.token, 999, "Eve", start_param=game.short_id + watch_param("zz", fake.token)[2:])), 403),
    }
    for why, (page, code) in refused.items():
        status, _, _ = await page.post(f"/games/{game.short_id}/move", move)
        assert status == code, why
    for why in ("missing", "forged", "expired", "a stranger", "a guess", "another game's link"):
        page, code = refused[why]
        assert (await page.get(f"/games/{game.short_id}"))[0] == code, why
    assert (await refused["a watcher"][0].get(f"/games/{game.short_id}"))[0] == 200  # looking is fine
    # The seat not to move is refused by the door, in words; a move for another turn too.
    waiting = game.seats[1 - mover]
    status, body, _ = await PageClient(web.base, init_data(fake.token, waiting.user_id, waiting.name)).post(f"/games/{game.short_id}/move", move)
    assert status == 409 and not body["moved"] and body["text"]
    status, body, _ = await PageClient(web.base, good).post(f"/games/{game.short_id}/move",
                                                            {"turn": move["turn"] + 1, "action": move["action"]})
    assert status == 409 and not body["moved"]
    status, _, _ = await PageClient(web.base, good).post(f"/games/{game.short_id}/move", {"turn": "x"})
    assert status == 400
    await web.idle()
    assert (await web.game(game.id)).version == version

    # The watcher sees the public board: no rack at all.
    status, watched, _ = await refused["a watcher"][0].get(f"/games/{game.short_id}")
    assert status == 200 and watched["seat"] is None and "rack" not in watched["view"]


async def test_no_answer_holds_another_players_rack(fake, web):
    game, people = await start_group_game(fake, web, 2)
    match = await web.bot.book.load(game.id)
    for s in game.seats:
        page = PageClient(web.base, init_data(fake.token, s.user_id, s.name))
        for path in ("/me", f"/games/{game.short_id}", f"/games/{game.short_id}/ask/placements?tile=0"):
            status, body, _ = await page.get(path)
            assert status == 200
            text = json.dumps(body)
            assert text.count('"rack"') <= 1 and "racks" not in text
            if '"rack"' in text:
                assert body["view"]["rack"] == racks(match.state)[s.seat]


async def test_a_person_asking_too_fast_is_slowed_down(fake, web):
    game, people = await start_group_game(fake, web, 2)
    seat = game.seats[0]
    page = PageClient(web.base, init_data(fake.token, seat.user_id, seat.name))
    codes = [(await page.get("/me"))[0] for _ in range(150)]  # 60 at once, 10 a second more
    assert codes[0] == 200 and 429 in codes
    other = PageClient(web.base, init_data(fake.token, game.seats[1].user_id, game.seats[1].name))
    assert (await other.get("/me"))[0] == 200  # per person


async def test_without_webapp_url_nothing_changes(fake, runner):
    game, people = await start_group_game(fake, runner, 2)
    for s in game.seats:
        assert not any("web_app" in b for b in buttons(fake.message(s.user_id, s.dm_msg)))
    assert not any("t.me/" in b.get("url", "") and "startapp" in b.get("url", "")
                   for b in buttons(fake.message(GROUP, game.table_msg)))


async def test_a_solo_game_is_played_on_the_page_from_its_table(fake, web):
    """Solo «Гениально» in the private chat: the table (there is no rack message) opens the page,
    and the drawn tile is placed from it."""
    person = Player(fake, web, 5, "Solo")
    await person.start_private()
    await person.say(person.id, "/new genial bots=0")  # no computer: a solo game at once
    game = next(g for g in await web.games() if g.chat_id == person.id and g.status == "running")
    assert len(game.seats) == 1
    table = fake.message(person.id, game.table_msg)
    assert [b["web_app"]["url"] for b in buttons(table) if "web_app" in b] == [f"{web.base}/app/?game={game.short_id}"]
    page = PageClient(web.base, init_data(fake.token, person.id, "Solo"))
    status, seen, _ = await page.get(f"/games/{game.short_id}")
    assert status == 200 and seen["my_turn"] and seen["view"]["drawn"]
    status, found, _ = await page.get(f"/games/{game.short_id}/ask/placements?tile=drawn")
    assert status == 200 and found["placements"]
    status, moved, _ = await page.post(f"/games/{game.short_id}/move",
                                       {"turn": found["turn"], "action": found["placements"][0]["code"]})
    assert status == 200 and moved["moved"]


async def test_a_game_view_is_built_once_per_etag(fake, web, monkeypatch):
    """Every page on a game asks for it after the same move: the JSON is made once per ETag
    (game, version, seat, language), and a seat's view is never served to another seat."""
    from bot.webapp import views
    built = []
    real = views.game_json
    monkeypatch.setattr(views, "game_json", lambda match, seat, lang: built.append(seat) or real(match, seat, lang))
    game, _ = await start_group_game(fake, web, 2)
    pages = [PageClient(web.base, init_data(fake.token, s.user_id, s.name)) for s in game.seats]
    answers = [await pages[i].get(f"/games/{game.short_id}") for i in (0, 0, 1, 1)]
    assert all(status == 200 for status, _, _ in answers)
    assert answers[0][1:] == answers[1][1:] and answers[2][1:] == answers[3][1:]
    assert [a[1]["seat"] for a in answers] == [0, 0, 1, 1]
    assert sorted(built) == [0, 1]
