"""Every game on the Mini App's API (no browser): the moves a seat may make come from the engine
with what each does, a move goes through the door as a button's would, no answer holds another
player's secret; the list of games is the registry's; a game still in its lobby says so and
lets a person join through the door; games in the private chat open the page too."""
from __future__ import annotations

import json

import pytest

from engines import registry
from engines.base import event_dict
from bot.webapp.auth import watch_param
from tests.bot.harness import Player, buttons, start_game
from tests.bot.webapp_client import (
    PageClient, assert_only_own_secrets, bot_with_page, init_data, states_by_turn,
)

GROUP = -100810
MOVES = 6


@pytest.fixture
async def web(fake, tmp_path):
    async with bot_with_page(fake, tmp_path / "tablebot.sqlite3", webapp_short_name="board") as runner:
        yield runner


async def two_players(fake, web, kind: str, **options):
    fake.add_group(GROUP, "Games")
    people = [Player(fake, web, 21 + i, name, lang=lang) for i, (name, lang) in enumerate([("Ann", "en"), ("Вика", "ru")])]
    for p in people:
        await p.start_private()
    game = await start_game(fake, web, GROUP, kind, people)
    pages = {s.seat: PageClient(web.base, init_data(fake.token, s.user_id, s.name)) for s in game.seats}
    return game, pages


def what_it_did(kind: str, choice: dict, events: list[dict], seat: int) -> None:
    """The move's events (the last of the mover's) say what the page was told it would do."""
    mine = [e for e in events if e.get("seat") == seat]
    if kind == "cones":
        played = [e for e in mine if e["kind"] == "Played"][-1]
        assert (played["result"], played["before"], played["after"]) == (choice["result"], choice["before"], choice["after"])
    elif kind == "trio":
        laid = [e for e in mine if e["kind"] == "Laid"][-1]
        assert [[list(c) for c in run] for run in laid["set_cells"]] == choice["sets"]
    elif kind == "lucky" and "gains" in choice:
        took = [e for e in mine if e["kind"] in ("Banked", "Took")][-1]
        gained = {c: n for c, n in took["gained"]} if took["kind"] == "Banked" else {took["colour"]: 1}
        assert gained == choice["gains"]


def events_of(kind: str, state, seat: int, code: str) -> list[dict]:
    """The events of ``seat``'s move ``code`` from ``state``, as the bot stores them (the
    game's recent events cannot tell: in trio the bot's forced draws for seats that cannot lay
    come in the same press and may push the move's events out of the recent twelve)."""
    eng = registry.engine(kind)
    _, events = eng.apply(state, seat, eng.decode_action(code))
    return json.loads(json.dumps([event_dict(e) for e in events]))


def first_choice(kind: str, play: dict) -> dict:
    if kind == "cones":
        return play["chips"][0]["piles"][0]
    if kind == "trio":
        return next(x for x in play["tiles"] if x["places"])["places"][0]
    return play.get("bank") or play.get("take") or play["draw"]


@pytest.mark.parametrize("kind", ["cones", "trio", "lucky"])
async def test_moves_offered_by_the_engine_played_through_the_door_and_no_secret_leaks(fake, web, kind):
    game, pages = await two_players(fake, web, kind)
    bodies: dict[int, list[str]] = {0: [], 1: []}
    made = 0
    while made < MOVES and game.status == "running":
        match = await web.bot.book.load(game.id)
        mover = match.current
        for seat, page in pages.items():
            status, seen, _ = await page.get(f"/games/{game.short_id}")
            assert status == 200 and seen["seat"] == seat and seen["my_turn"] == (seat == mover)
            assert (seen["play"] is not None) == (seat == mover), seen["play"]
            bodies[seat].append(json.dumps(seen))
        play = json.loads(bodies[mover][-1])["play"]
        if kind == "trio" and not any(x["places"] for x in play["tiles"]):
            await web.idle()  # the bot draws for a seat that cannot lay
            continue
        choice = first_choice(kind, play)
        edits, logged = len(fake.calls("editMessageMedia", GROUP)), len(await web.store.actions(game.id))
        before = match.state  # (the match moves on with the game)
        status, moved, text = await pages[mover].post(f"/games/{game.short_id}/move",
                                                      {"turn": match.turn, "action": choice["code"]})
        assert status == 200 and moved["moved"], text
        bodies[mover].append(text)
        await web.idle()
        # The bot made exactly this move, and it did what the page said it would.
        assert tuple((await web.store.actions(game.id))[logged][1:]) == (mover, choice["code"])
        what_it_did(kind, choice, events_of(kind, before, mover, choice["code"]), mover)
        assert len(fake.calls("editMessageMedia", GROUP)) > edits  # the group's table shows it
        made += 1
    assert made == MOVES
    states = await states_by_turn(web, await web.game(game.id))
    for seat, seen in bodies.items():
        assert assert_only_own_secrets(kind, seen, seat, states) >= MOVES


async def test_the_games_are_the_registrys_and_a_lobby_says_so_and_lets_a_person_join(fake, web):
    fake.add_group(GROUP, "Games")
    host = Player(fake, web, 31, "Host")
    guest = Player(fake, web, 32, "Guest", lang="ru")
    stranger = Player(fake, web, 33, "Shy", opened_private=False)
    await host.start_private()
    await guest.start_private()
    await host.say(GROUP, "/new cones")
    lobby = next(g for g in await web.games() if g.chat_id == GROUP and g.status == "lobby")
    link = watch_param(lobby.short_id, fake.token)
    guest_page = PageClient(web.base, init_data(fake.token, guest.id, "Guest", lang="ru", start_param=link))
    status, me, _ = await guest_page.get("/me")
    assert status == 200 and [k["id"] for k in me["kinds"]] == list(registry.game_ids())
    assert me["kinds"][1]["title"] == "Конусы" and me["games"] == []
    status, seen, tag = await guest_page.get(f"/games/{lobby.short_id}")
    assert status == 200 and seen["status"] == "lobby" and seen["view"] is None and seen["play"] is None
    assert seen["lobby"] == {"seats": 1, "min": 2, "max": 4, "joined": False, "can_join": True}
    status, joined, _ = await guest_page.post(f"/games/{lobby.short_id}/join", {})
    assert status == 200 and joined["joined"] and joined["game"]["lobby"]["joined"], joined
    assert joined["game"]["seat"] == 1 and joined["game"]["names"] == ["Host", "Guest"]
    assert (await web.game(lobby.id)).seat_of(guest.id) == 1  # the lobby's own record: through the door
    await web.idle()
    assert "Guest" in fake.message(GROUP, lobby.lobby_msg).text  # the lobby message shows it
    status, again, _ = await guest_page.post(f"/games/{lobby.short_id}/join", {})
    assert status == 200 and again["joined"]  # already in: no second seat
    assert len((await web.game(lobby.id)).seats) == 2
    status, listed, _ = await guest_page.get("/me")
    assert [(g["id"], g["status"]) for g in listed["games"]] == [(lobby.short_id, "lobby")]
    # Cones has secrets: someone the bot cannot write to in private is sent to open the chat first.
    shy_page = PageClient(web.base, init_data(fake.token, stranger.id, "Shy", start_param=link))
    status, refused, _ = await shy_page.post(f"/games/{lobby.short_id}/join", {})
    assert status == 409 and not refused["joined"] and refused["url"].startswith("https://t.me/")
    assert len((await web.game(lobby.id)).seats) == 2
    # Without the link, a stranger neither sees nor joins.
    bare = PageClient(web.base, init_data(fake.token, stranger.id, "Shy"))
    assert (await bare.post(f"/games/{lobby.short_id}/join", {}))[0] == 403


async def test_the_private_messages_and_the_games_in_the_private_chat_open_the_page(fake, web):
    fake.add_group(GROUP, "Games")
    people = [Player(fake, web, 41 + i, name) for i, name in enumerate(["Ann", "Bo"])]
    for p in people:
        await p.start_private()
    for kind in ("cones", "trio"):
        game = await start_game(fake, web, GROUP, kind, people)
        for s in game.seats:  # the goal, the hand: a web_app button as «Гениально»'s rack has
            private = fake.message(s.user_id, s.dm_msg)
            assert [b["web_app"]["url"] for b in buttons(private) if "web_app" in b] == [
                f"{web.base}/app/?game={game.short_id}"], kind
        table = fake.message(GROUP, game.table_msg)
        assert any(b.get("text") == "🖐 On the board" and "startapp=" in b.get("url", "") for b in buttons(table))
        await people[0].say(GROUP, "/cancel")
    # Lucky against a computer in the private chat: no private message, so the table has the button.
    await people[0].say(people[0].id, "/new lucky bots=1 level=easy")
    game = next(g for g in await web.games() if g.chat_id == people[0].id and g.kind == "lucky")
    if game.status == "lobby":
        lobby = fake.message(people[0].id, game.lobby_msg)
        await people[0].press(people[0].id, lobby.message_id,
                              next(b["callback_data"] for b in buttons(lobby) if "Start" in b["text"]))
        game = await web.game(game.id)
    await web.idle()
    table = fake.message(people[0].id, game.table_msg)
    assert [b["web_app"]["url"] for b in buttons(table) if "web_app" in b] == [f"{web.base}/app/?game={game.short_id}"]
