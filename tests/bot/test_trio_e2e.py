"""Trio played end to end through the fake Bot API by button presses only, hands kept secret.

Each move is composed in the mover's private message (tile, placement, Confirm); the group
table only ever shows the board, the die and hand sizes. Forced draws happen by themselves.
"""
from __future__ import annotations

import re

from bot.games.trio.text import face_text, tile_text
from bot.words.names import in_text
from engines import trio
from tests.bot.harness import Player, buttons

GROUP = -100700
NAMES = ["Anna", "Борис", "<i>Clara</i>", "Dan 🎲"]
ALL_TILES = {x: tile_text(x, "en") for x in range(36)}
# A tile as either language writes it: a hand must not leak in Russian either.
TILE_WORDS = {x: (tile_text(x, "en"), tile_text(x, "ru")) for x in range(36)}


def names_tile(text: str, x: int) -> bool:
    return any(words in text for words in TILE_WORDS[x])


def action_of(data: str) -> str:
    return data.split(":", 2)[2]


def callbacks(message) -> list[dict]:
    return [b for b in buttons(message) if "callback_data" in b]


def shown_text(request) -> str:
    """Everything readable a request puts in a chat: text, caption, button labels."""
    p = request.params
    media = p.get("media") if isinstance(p.get("media"), dict) else {}
    markup = p.get("reply_markup") or {}
    labels = " ".join(b.get("text", "") for row in markup.get("inline_keyboard", []) for b in row) \
        if isinstance(markup, dict) else str(markup)
    return " ".join(str(x) for x in (p.get("text") or "", p.get("caption") or "", media.get("caption") or "", labels))


def photo_of(request, known: dict[str, bytes]) -> bytes | None:
    """The picture of a sendPhoto / editMessageMedia request: uploaded bytes, or the bytes of an
    earlier upload when the bot reuses its file_id (``known`` maps file_ids to bytes)."""
    p = request.params
    if request.method == "sendPhoto":
        photo = p.get("photo")
    elif request.method == "editMessageMedia" and isinstance(p.get("media"), dict):
        photo = p["media"].get("media")
        if isinstance(photo, str) and photo.startswith("attach://"):
            photo = p.get(photo[len("attach://"):])
    else:
        return None
    if isinstance(photo, str):
        assert photo in known, f"a photo by a file_id the test never saw uploaded: {photo}"
        return known[photo]
    if isinstance(photo, bytes) and request.ok and isinstance(request.result, dict):
        for size in request.result.get("photo", []):
            known[size["file_id"]] = photo
    return photo if isinstance(photo, bytes) else None


class Watch:
    """Checks, after every step, what went to whom since the last step."""

    def __init__(self, fake, runner, people):
        self.fake = fake
        self.runner = runner
        self.people = people
        self.seen = 0
        self.group_texts: list[str] = []
        self.group_photos: set[bytes] = set()
        self.private_photos: set[bytes] = set()
        self.answers: list[tuple[int, dict]] = []
        self.file_ids: dict[str, bytes] = {}

    def hands(self, game) -> dict[int, list[int]]:
        state = self.runner.bot.book.cached(game.id).state
        return {s.user_id: list(state.hands[s.seat]) for s in game.seats}

    def step(self, game) -> None:
        requests = self.fake.requests[self.seen:]
        self.seen += len(requests)
        hands = self.hands(game) if game.status == "running" else None
        for r in requests:
            chat = r.params.get("chat_id")
            chat = int(chat) if chat is not None else None
            text = shown_text(r)
            photo = photo_of(r, self.file_ids)
            if chat == GROUP:
                self.group_texts.append(text)
                if photo is not None:
                    self.group_photos.add(photo)
                if hands is not None and "results" not in text:
                    for tiles in hands.values():
                        for x in tiles:
                            assert not names_tile(text, x), f"the group saw {ALL_TILES[x]}, still in a hand: {text}"
            elif chat is not None and chat > 0:
                if photo is not None:
                    self.private_photos.add(photo)
                if hands is not None:
                    for owner, tiles in hands.items():
                        if owner != chat:
                            for x in tiles:
                                assert not names_tile(text, x), f"user {chat} saw {owner}'s {ALL_TILES[x]}"

    def check_answer(self, user_id: int, answer: dict, game) -> None:
        """A pop-up may name tiles on the board (a move's toast), never one in another's hand."""
        text = answer.get("text") or ""
        if game.status == "running":
            for owner, tiles in self.hands(game).items():
                if owner != user_id:
                    for x in tiles:
                        assert not names_tile(text, x), f"user {user_id} was told {owner}'s {ALL_TILES[x]}: {text}"
        self.answers.append((user_id, answer))


async def start_game(fake, runner, people):
    for p in people:
        await p.start_private()
    await people[0].say(GROUP, "/new trio")
    lobby = fake.last_bot_message(GROUP)
    for p in people[1:]:
        await p.press(GROUP, lobby.message_id, next(b["callback_data"] for b in callbacks(lobby) if "Join" in b["text"]))
    answer = await people[0].press(GROUP, lobby.message_id,
                                   next(b["callback_data"] for b in callbacks(lobby) if "Start" in b["text"]))
    assert not answer.get("show_alert"), answer
    game = next(g for g in (await runner.games()) if g.chat_id == GROUP and g.status == "running")
    return game


def private_message(fake, game, seat):
    return fake.message(game.seats[seat].user_id, game.seats[seat].dm_msg)


async def play_one_move(fake, runner, game, by_id, watch) -> None:
    """The player to act lays the first playable tile at its first place, by buttons."""
    state = (await runner.state(game.id))
    seat = trio.current_player(state)
    mover = by_id[game.seats[seat].user_id]
    # Everyone else sees their hand and no move buttons.
    for other in range(len(game.seats)):
        if other != seat:
            dm = private_message(fake, game, other)
            assert dm.photo is not None and not callbacks(dm), dm.caption
    dm = private_message(fake, game, seat)
    tiles = [b for b in callbacks(dm) if action_of(b["callback_data"]).startswith("~t")]
    playable = trio.playable_tiles(state, seat)

    def tile_of(button) -> int:
        return int(re.match(r"~t(\d+)", action_of(button["callback_data"])).group(1))
    assert sorted(tile_of(b) for b in tiles) == sorted(playable)
    for b in tiles:  # numbered as on the hand picture
        position = int(b["text"].split(":")[0])
        assert state.hands[seat][position - 1] == tile_of(b)
        # A tile with one place leads straight to its ✅; with several, to the list of places.
        one_place = len(trio.legal_placements(state, seat, tile_of(b))) == 1
        assert action_of(b["callback_data"]).endswith("c1") == one_place, (b, one_place)
    data = tiles[0]["callback_data"]
    for _ in range(3):  # the tile, its place (when it has several), ✅
        answer = await mover.press(mover.id, dm.message_id, data)
        assert not answer.get("show_alert"), answer
        watch.check_answer(mover.id, answer, game)
        watch.step(game)
        if trio.turn(await runner.state(game.id)) != trio.turn(state):
            return
        dm = private_message(fake, game, seat)
        numbers = [b for b in callbacks(dm) if b["text"].isdigit()]
        data = numbers[0]["callback_data"] if numbers else next(
            b["callback_data"] for b in callbacks(dm) if action_of(b["callback_data"]).startswith("L"))
    raise AssertionError("three taps did not lay the tile")


async def play_to_the_end(fake, runner, game, people, watch, max_moves=200) -> None:
    by_id = {p.id: p for p in people}
    watch.step(game)
    for _ in range(max_moves):
        if game.status != "running":
            return
        await play_one_move(fake, runner, game, by_id, watch)
    raise AssertionError("the game did not end")


async def assert_results(fake, runner, game, people) -> None:
    assert game.status == "finished"
    state = (await runner.state(game.id))
    results = fake.message(GROUP, game.results_msg)
    assert "results" in results.text
    for s in game.seats:
        assert s.name in results.text  # the plain text as shown: escaped names appear as typed
        for x in state.hands[s.seat]:
            assert ALL_TILES[x] in results.text
        if not state.hands[s.seat]:
            assert "no tiles left" in results.text
    assert "🥇" in results.text
    winners = [s.seat for s in game.seats if trio.outcome(state).places[s.seat] == 1]
    assert ("Winner: " if len(winners) == 1 else "Winners: ") in results.text
    table = fake.message(GROUP, game.table_msg)
    assert not callbacks(table) and not buttons(table)


async def play_games_until_a_forced_draw(fake, runner, n: int) -> tuple[Watch, list]:
    """Play whole games (a rematch when the last one had no forced draw) and check secrecy."""
    fake.add_group(GROUP, "Trio night")
    people = [Player(fake, runner, i + 1, NAMES[i], lang="ru" if i == 1 else "en") for i in range(n)]
    watch = Watch(fake, runner, people)
    game = await start_game(fake, runner, people)
    table = fake.message(GROUP, game.table_msg)
    link = next(b for b in buttons(table) if "url" in b)
    assert link["url"] == f"https://t.me/{runner.bot.tables.bot_username}?start=g{game.short_id}"
    games = []
    for _ in range(6):
        await play_to_the_end(fake, runner, game, people, watch)
        watch.step(game)
        await assert_results(fake, runner, game, people)
        games.append(game)
        if any("cannot lay a tile" in text for text in watch.group_texts):
            break
        results = fake.message(GROUP, game.results_msg)
        await people[0].press(GROUP, results.message_id,
                              next(b["callback_data"] for b in callbacks(results) if "Rematch" in b["text"]))
        lobby = fake.last_bot_message(GROUP)
        # A rematch keeps the host; the others are asked to join again.
        for p in people[1:]:
            await p.press(GROUP, lobby.message_id,
                          next(b["callback_data"] for b in callbacks(lobby) if "Join" in b["text"]))
        await people[0].press(GROUP, lobby.message_id,
                              next(b["callback_data"] for b in callbacks(lobby) if "Start" in b["text"]))
        game = next(g for g in (await runner.games()) if g.chat_id == GROUP and g.status == "running")
    return watch, games


async def test_two_players_play_whole_games_by_buttons_and_hands_stay_secret(fake, runner):
    watch, games = await play_games_until_a_forced_draw(fake, runner, 2)
    draws = [x for x in watch.group_texts if "cannot lay a tile" in x]
    assert draws, "a forced draw was narrated to the group"
    assert any("draws one" in x or "passes" in x for x in draws)
    assert any("🎲 " in x and " rolled " in x for x in watch.group_texts)
    # The group never got a private picture (hand, placements, confirm).
    assert watch.group_photos and watch.private_photos
    assert not watch.group_photos & watch.private_photos, "the group received a private picture"


async def test_four_players_play_a_whole_game_by_buttons_and_hands_stay_secret(fake, runner):
    watch, games = await play_games_until_a_forced_draw(fake, runner, 4)
    assert any("cannot lay a tile" in x for x in watch.group_texts)
    assert not watch.group_photos & watch.private_photos, "the group received a private picture"
    # Each player's hand was shown to that player only; answers never named a tile.
    assert all(not a.get("show_alert") for _, a in watch.answers)


async def test_waiting_players_get_no_move_buttons_and_a_stale_confirm_is_refused(fake, runner):
    fake.add_group(GROUP, "Trio night")
    people = [Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")]
    game = await start_game(fake, runner, people)
    by_id = {p.id: p for p in people}
    state = (await runner.state(game.id))
    seat = trio.current_player(state)
    mover, other = by_id[game.seats[seat].user_id], by_id[game.seats[1 - seat].user_id]
    waiting = private_message(fake, game, 1 - seat)
    assert waiting.photo is not None and not callbacks(waiting)
    assert "Waiting for" in waiting.caption and mover.name in waiting.caption
    # The table's link opens the private chat: START there brings the hand to the bottom.
    link = next(b["url"] for b in buttons(fake.message(GROUP, game.table_msg)) if "url" in b)
    await other.start_private(link.split("start=")[1])
    assert game.seats[1 - seat].dm_msg != waiting.message_id
    waiting = private_message(fake, game, 1 - seat)
    assert waiting.photo is not None and not callbacks(waiting)
    # The mover walks tile -> placements -> confirm, Back at each step, then again to confirm.
    dm = private_message(fake, game, seat)
    hand_photo = dm.photo
    # (a tile with several places: one with a single place goes straight to its ✅)
    first_tile = next(b["callback_data"] for b in callbacks(dm)
                      if action_of(b["callback_data"]).startswith("~t") and not b["callback_data"].endswith("c1"))
    await mover.press(mover.id, dm.message_id, first_tile)
    dm = private_message(fake, game, seat)
    assert dm.photo != hand_photo and "Tap" in dm.caption
    number = next(b["callback_data"] for b in callbacks(dm) if b["text"].isdigit())
    await mover.press(mover.id, dm.message_id, number)
    dm = private_message(fake, game, seat)
    assert "Confirm" in str(dm.reply_markup) and "forms" in dm.caption
    back = next(b["callback_data"] for b in callbacks(dm) if "Back" in b["text"])
    await mover.press(mover.id, dm.message_id, back)
    dm = private_message(fake, game, seat)
    assert any(b["text"].isdigit() for b in callbacks(dm))
    await mover.press(mover.id, dm.message_id, next(b["callback_data"] for b in callbacks(dm) if "Back" in b["text"]))
    dm = private_message(fake, game, seat)
    assert [b["callback_data"] for b in callbacks(dm)][0] == first_tile and dm.photo == hand_photo
    await mover.press(mover.id, dm.message_id, first_tile)
    await mover.press(mover.id, dm.message_id, number)
    dm = private_message(fake, game, seat)
    confirm = next(b["callback_data"] for b in callbacks(dm) if action_of(b["callback_data"]).startswith("L"))
    # The other player cannot use the move, even with the right turn number.
    answer = await other.press(other.id, waiting.message_id, confirm)
    assert not answer.get("show_alert") and "not your turn" in answer["text"]  # a toast
    turn = trio.turn((await runner.state(game.id)))
    assert turn == trio.turn(state)
    answer = await mover.press(mover.id, dm.message_id, confirm)
    assert not answer.get("show_alert"), answer
    after = trio.turn((await runner.state(game.id)))
    assert after > turn
    # The same Confirm again, now that the turn has passed: done, whose move it is, nothing changes.
    answer = await mover.press(mover.id, dm.message_id, confirm)
    assert not answer.get("show_alert") and answer["text"].startswith("✓ Done: "), answer
    assert trio.turn((await runner.state(game.id))) == after
    # The mover now waits: no move buttons in their private message.
    if game.status == "running" and trio.current_player((await runner.state(game.id))) != seat:
        assert not callbacks(private_message(fake, game, seat))


# ---- the adapter alone, on states that whole games rarely reach ------------------------------

def adapter_ctx(state, events=(), lang="en"):
    from types import SimpleNamespace

    from bot.games.base import Ctx
    from bot.storage.store import Seat
    seats = [Seat(i, i + 1, n) for i, n in enumerate(NAMES[:state.players])]
    game = SimpleNamespace(seats=seats, last_events=list(events), short_id="z9")
    return Ctx(game=game, eng=trio, state=state, lang=lang, bot_username="tablebot_test_bot")


def rows_of(view) -> list[list[tuple[str, str]]]:
    return [[(b.text, b.action) for b in row] for row in view.rows if row]


def test_placements_come_in_pages_of_ten_with_global_numbers():
    import random

    from bot.games.trio.ui import UI
    found = None
    for seed in range(500):
        rng = random.Random(seed)
        state = trio.setup(2, None, seed)
        while found is None and not state.over:
            seat = state.current
            found = next(((state, x) for x in trio.playable_tiles(state, seat)
                          if len(trio.legal_placements(state, seat, x)) > 10), None)
            state, _ = trio.apply(state, seat, rng.choice(trio.legal_actions(state, seat)))
        if found:
            break
    state, tile = found
    seat = state.current
    places = trio.legal_placements(state, seat, tile)
    ui = UI()
    ctx = adapter_ctx(state)
    first = rows_of(ui.private(ctx, seat, f"t{tile}"))
    numbers = [int(text) for row in first for text, _ in row if text.isdigit()]
    assert numbers == list(range(1, 11))
    assert ("▶", f"~t{tile}p1") in [b for row in first for b in row]
    assert not any(text == "◀" for row in first for text, _ in row)
    second = rows_of(ui.private(ctx, seat, f"t{tile}p1"))
    numbers = [(int(text), action) for row in second for text, action in row if text.isdigit()]
    assert numbers[0] == (11, f"~t{tile}c11") and numbers[-1][0] == min(20, len(places))
    assert ("◀", f"~t{tile}p0") in [b for row in second for b in row]
    # Placement 11 is drawn in; Back returns to its page; Confirm is the engine's Lay there.
    confirm = ui.private(ctx, seat, f"t{tile}c11")
    (ok, lay), (_, back) = rows_of(confirm)[0]
    assert back == f"~t{tile}p1"
    assert trio.decode_action(lay) == trio.Lay(tile, *places[10])
    # A path to a tile that is not playable (or not held) falls back to the hand.
    assert rows_of(ui.private(ctx, seat, "t99")) == rows_of(ui.private(ctx, seat, ""))
    other = 1 - seat
    assert ui.private(ctx, other, f"t{tile}").rows == []


def test_a_stalemate_is_explained_and_every_hand_revealed_in_both_languages():
    from bot.games.trio.ui import UI
    from engines.base import event_dict
    ui = UI()
    for seed in range(50):
        state = trio.setup(3, {"strict_lines": True}, seed)
        events = []
        while not state.over:
            seat = state.current
            action = ui.forced_move(state)
            if action is None:
                action = trio.legal_actions(state, seat)[0]
            state, new = trio.apply(state, seat, action)
            events += [event_dict(e) for e in new]
        if state.over == "stalemate":
            break
    assert state.over == "stalemate"
    en = ui.results(adapter_ctx(state, events[-12:]))
    assert "nobody could lay a tile for a whole round" in en
    for hand in state.hands:
        for x in hand:
            assert ALL_TILES[x] in en
    passes = ui.narrate(adapter_ctx(state), events[-6:])
    assert any("the pool is empty" in line and "passes" in line for line in passes)
    ru = ui.results(adapter_ctx(state, events[-12:], lang="ru"))
    assert "итоги" in ru and "Резерв пуст" in ru
    assert ui.forced_move(state) is None


async def test_a_forced_draw_on_the_first_turn_is_narrated_with_its_roll(fake, runner):
    """The set-up rolls the die; when the first player cannot lay, the group still sees that roll."""
    fake.add_group(GROUP, "Trio night")
    people = [Player(fake, runner, i + 1, NAMES[i]) for i in range(2)]
    for p in people:
        await p.start_private()
    await people[0].say(GROUP, "/new trio")
    lobby = fake.last_bot_message(GROUP)
    await people[1].press(GROUP, lobby.message_id,
                          next(b["callback_data"] for b in callbacks(lobby) if "Join" in b["text"]))
    pending = next(g for g in (await runner.games()) if g.chat_id == GROUP and g.status == "lobby")
    pending.seed = next(s for s in range(1000) if trio.must_draw(trio.setup(2, None, s))
                        and not trio.must_draw(trio.apply(trio.setup(2, None, s), 0, trio.Draw())[0]))
    face = trio.setup(2, None, pending.seed).die
    await people[0].press(GROUP, lobby.message_id,
                          next(b["callback_data"] for b in callbacks(lobby) if "Start" in b["text"]))
    game = next(g for g in (await runner.games()) if g.chat_id == GROUP and g.status == "running")
    assert game.id == pending.id and trio.turn((await runner.state(game.id))) == 1
    first = in_text(game.seats[0].name)
    await runner.idle()
    caption = fake.message(GROUP, game.table_msg).caption
    rolled = caption.index(f"{first} rolled")
    drew = caption.index(f"{first} cannot lay a tile and draws one")
    assert rolled < drew, caption
    assert face_text(face, "en") in caption[rolled:drew]


def test_a_symbol_reads_as_one_thing_in_both_languages():
    """"red star", «красная звезда»: a colour word agreeing with its shape, never an emoji pair
    ("🔴●" read as two circles); every symbol and every tile has a text of its own."""
    from bot.games.trio.text import sym_text
    for lang in ("en", "ru"):
        symbols = [sym_text(name, lang) for name in trio.SYMBOLS]
        assert len(set(symbols)) == 9 and all(len(s.split()) == 2 for s in symbols), symbols
        assert len({tile_text(x, lang) for x in range(36)}) == 36
    assert sym_text("red-star", "ru") == "красная звезда" and sym_text("blue-circle", "ru") == "синий круг"
    assert tile_text(0, "en").count(" + ") == 1
