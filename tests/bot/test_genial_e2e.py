"""«Гениально» end to end through the fake Bot API: racks by private message, moves by buttons
(tile → numbered placement on a picture → preview → confirm: 3 taps) and typed, the group never
sees a rack."""
from __future__ import annotations

import collections
import random
import re
import time

from bot.games.genial.ui import UI
from bot.games.genial.entry import PER_PAGE
from engines import genial
from tests.bot.harness import Player, button_data, buttons
from tests.fakebotapi.spec import Upload

GROUP = -100700
NAMES = ["Anna", "Борис", "<i>Clara</i>", "Dan 🎲"]
RACK_LISTING = re.compile(r"\d [🔴🟠🟡🟢🔵🟣]{2}")


def _pictures(value) -> list[bytes]:
    """The files inside request parameters (a sendPhoto's photo, an editMessageMedia's media)."""
    if isinstance(value, Upload):
        return [value.content]
    if isinstance(value, (bytes, bytearray)):
        return [bytes(value)]
    if isinstance(value, dict):
        return [p for v in value.values() for p in _pictures(v)]
    if isinstance(value, list):
        return [p for v in value for p in _pictures(v)]
    return []


def sent_images(fake, chat_id: int, since: int = 0) -> list[bytes]:
    """Every picture the bot uploaded to a chat (sendPhoto, editMessageMedia), from request
    ``since`` on."""
    return [p for r in fake.requests[since:] if str(r.params.get("chat_id")) == str(chat_id)
            for p in _pictures(r.params)]


def group_texts(fake, chat_id: int) -> list[str]:
    return [str(r.params.get("text") or "") + str(r.params.get("caption") or "") + str(r.params.get("media") or "")
            for r in fake.requests if str(r.params.get("chat_id")) == str(chat_id)]


async def start_group_game(fake, runner, players: int, extra: str = ""):
    fake.add_group(GROUP, "Genial night")
    people = [Player(fake, runner, i + 1, NAMES[i], lang="ru" if i == 1 else "en") for i in range(players)]
    for p in people:
        await p.start_private()
    await people[0].say(GROUP, f"/new genial {extra}".strip())
    lobby = fake.last_bot_message(GROUP)
    for p in people[1:]:
        await p.press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    await people[0].press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    game = next(g for g in (await runner.games()) if g.chat_id == GROUP)
    assert game.status == "running"
    assert any("Racks were sent privately" in (m.text or "") + (m.caption or "") for m in fake.messages(GROUP))
    return game, people


def action_of(data: str) -> str:
    return data.split(":", 2)[2]


NUMBER_PATH = re.compile(r"~([roygbp]{2})(\d+)([A-O]\d{1,2})([A-O]\d{1,2})\Z")


def kinds(message) -> dict:
    """A move-entry message's buttons by what they do (callback data each)."""
    out = {"tiles": [], "numbers": [], "more": None, "prev": None, "back": None, "confirm": None,
           "swap": None, "keep": None}
    for b in buttons(message):
        data, text = b.get("callback_data"), b["text"]
        if data is None:
            continue
        act = action_of(data)
        if act.startswith(("?", "!")):
            continue  # the table's own buttons (rules, a seat back), not the move entry
        if act == "S":
            out["swap"] = data
        elif act == "K":
            out["keep"] = data
        elif act.startswith("P"):
            out["confirm"] = data
        elif text.isdigit():
            out["numbers"].append(data)
        elif text.startswith("▶"):
            out["more"] = data
        elif text.startswith("◀️"):
            out["back"] = data
        elif text.startswith("◀"):
            out["prev"] = data
        else:
            out["tiles"].append(data)
    return out


EMOJI_OF = dict(zip("roygbp", "🔴🟠🟡🟢🔵🟣"))
CANDIDATE_LINE = re.compile(r"^(\d+) · ([🔴🟠🟡🟢🔵🟣]) ([A-O]\d{1,2}) ([🔴🟠🟡🟢🔵🟣]) ([A-O]\d{1,2}) → \S")


def assert_candidates_named(caption: str, numbers: list[str], shown: list[str]) -> None:
    """The list under a page of placements: a line per number, no two alike («six lines read
    the same, with no cell named»), each naming the two cells its button places the tile on,
    with the colour that goes on each."""
    lines = {m.group(1): m for m in map(CANDIDATE_LINE.match, caption.splitlines()) if m}
    assert sorted(lines, key=int) == shown, caption
    assert len({m.string.split(" · ", 1)[1] for m in lines.values()}) == len(lines), caption
    for data, n in zip(numbers, shown):
        code, _, first_cell, second_cell = NUMBER_PATH.match(action_of(data)).groups()
        m = lines[n]
        said = {m.group(3): m.group(2), m.group(5): m.group(4)}
        assert said == {first_cell: EMOJI_OF[code[0]], second_cell: EMOJI_OF[code[1]]}, (m.string, data)


def uploaded(fake, chat_id: int, since: int) -> int:
    """Bytes of pictures uploaded to a chat by the requests from index ``since`` on."""
    return sum(len(p) for p in sent_images(fake, chat_id, since))


async def play_turn(fake, runner, game, by_id, rng: random.Random, *, swap: bool = True,
                    wander: bool = True) -> dict:
    """The player to act makes one decision in the private chat by buttons, as a person would:
    a tile, usually one of the first numbers, the preview's Confirm; with ``wander`` sometimes a
    look at the next page or a step back first. Returns what happened: taps (presses from the
    first until the move applied), whether it was a placement, a swap decision, detours, the
    bytes of pictures uploaded to that player meanwhile."""
    state = (await runner.state(game.id))
    seat = genial.current_player(state)
    person = by_id[game.seats[seat].user_id]
    seen = {"taps": 0, "swap": 0, "back": 0, "more": 0, "tile_step": False, "placed": False}
    mark = len(fake.requests)
    page_numbers = None
    for _ in range(20):
        msg = fake.message(person.id, game.seats[seat].dm_msg)
        assert msg is not None and msg.photo is not None
        k = kinds(msg)
        if k["swap"]:
            seen["swap"] += 1
            choice = k["swap"] if swap and rng.random() < 0.5 else k["keep"]
        elif k["confirm"]:
            # the preview: the picture, the points, then sometimes a change of mind
            assert "Confirm" in str(msg.reply_markup) or "Подтвердить" in str(msg.reply_markup)
            assert "+" in msg.caption or "scores nothing" in msg.caption or "не приносит" in msg.caption
            seen["placed"] = True
            if wander and rng.random() < 0.1 and not seen["back"]:
                seen["back"] += 1
                await person.press(person.id, msg.message_id, k["back"])
                # Back returns to the same page of candidates
                assert kinds(fake.message(person.id, game.seats[seat].dm_msg))["numbers"] == page_numbers
                seen["taps"] += 1
                continue
            choice = k["confirm"]
        elif k["numbers"]:
            numbers = k["numbers"]
            assert len(numbers) <= PER_PAGE and all(NUMBER_PATH.match(action_of(d)) for d in numbers)
            shown = [b["text"] for b in buttons(msg) if b.get("callback_data") in numbers]
            assert all(f"<b>{n}</b>" in msg.caption or f"{n} ·" in msg.caption for n in shown), msg.caption
            assert_candidates_named(msg.caption, numbers, shown)
            page_numbers = numbers
            if wander and k["more"] and not seen["more"] and rng.random() < 0.1:
                seen["more"] += 1
                choice = k["more"]
            elif wander and k["back"] and not seen["back"] and rng.random() < 0.04:
                seen["back"] += 1
                choice = k["back"]
            else:
                choice = numbers[0] if rng.random() < 0.7 else rng.choice(numbers[:3])
        else:
            assert k["tiles"], msg.caption
            seen["tile_step"] = True
            choice = rng.choice(k["tiles"])
        answer = await person.press(person.id, msg.message_id, choice)
        assert not answer.get("show_alert"), answer
        seen["taps"] += 1
        if not action_of(choice).startswith("~"):
            assert genial.turn((await runner.state(game.id))) == genial.turn(state) + 1
            seen["bytes"] = uploaded(fake, person.id, mark)
            return seen
    raise AssertionError("no decision after 20 presses")


async def play(fake, runner, game, people, rng, *, max_turns: int = 10_000, swap=True) -> dict:
    by_id = {p.id: p for p in people}
    total = {"turns": 0, "swap": 0, "back": 0, "more": 0, "taps": collections.Counter(),
             "typical": collections.Counter(), "bytes": []}
    while game.status == "running" and total["turns"] < max_turns:
        seen = await play_turn(fake, runner, game, by_id, rng, swap=swap)
        total["turns"] += 1
        total["swap"] += seen["swap"]
        total["back"] += seen["back"]
        total["more"] += seen["more"]
        if seen["placed"]:
            total["taps"][seen["taps"]] += 1
            if not (seen["back"] or seen["more"]):
                total["typical"][(seen["tile_step"], seen["taps"])] += 1
                total["bytes"].append(seen["bytes"])
        table = fake.message(GROUP, game.table_msg)
        assert len(table.caption) <= 1024
    return total


def assert_typical_moves_take_three_taps(total: dict) -> None:
    """A placement without detours: tile, number, Confirm (no tile to choose: number, Confirm)."""
    typical = total["typical"]
    print(f"\ntaps per placement: {dict(sorted(total['taps'].items()))}; without detours "
          f"(tile step, taps): {dict(typical)}; picture bytes per typical placement: "
          f"mean {sum(total['bytes']) // max(1, len(total['bytes']))}")
    assert typical and set(typical) <= {(True, 3), (False, 2)}, typical
    assert typical[(True, 3)] >= sum(typical.values()) / 2  # most turns start with the tile


def assert_racks_private(fake, people):
    texts = group_texts(fake, GROUP)
    for text in texts:
        assert not RACK_LISTING.search(text), text
        assert "Your rack" not in text and "подставка" not in text.lower()
    group_pics = set(sent_images(fake, GROUP))
    assert group_pics
    for p in people:
        private_pics = set(sent_images(fake, p.id))
        assert private_pics and not (group_pics & private_pics)


async def test_two_players_play_a_whole_game_by_buttons_and_typed_moves(fake, runner):
    started = time.monotonic()
    game, people = await start_group_game(fake, runner, 2)
    table = fake.message(GROUP, game.table_msg)
    link = [b for b in buttons(table) if b.get("url")]
    assert link and link[0]["url"].endswith(f"?start=g{game.short_id}")
    assert "Now:" in table.caption
    rng = random.Random(7)
    by_id = {p.id: p for p in people}

    # A few turns by buttons, then typed moves: a bad one gets a clear answer, a good one plays.
    for _ in range(3):
        await play_turn(fake, runner, game, by_id, rng)
    state = (await runner.state(game.id))
    while genial.view(state, genial.current_player(state))["pending"] != genial.PLACE:
        await play_turn(fake, runner, game, by_id, rng)
        state = (await runner.state(game.id))
    seat = genial.current_player(state)
    person = by_id[game.seats[seat].user_id]
    other = by_id[game.seats[1 - seat].user_id]
    await person.say(person.id, "9 A1 A2")
    reply = fake.last_bot_message(person.id).text
    assert "no tile 9" in reply or "нет тайла 9" in reply, reply
    await person.say(person.id, "1 Z1 Z2")
    reply = fake.last_bot_message(person.id).text
    assert "no cell Z1" in reply or "нет клетки Z1" in reply, reply
    await person.say(person.id, "1 F5 H5")
    reply = fake.last_bot_message(person.id).text
    assert "do not touch" in reply or "не соседние" in reply, reply
    await other.say(other.id, "1 F5 F6")
    reply = fake.last_bot_message(other.id).text
    assert "не ваш ход" in reply.lower() or "not your turn" in reply.lower(), reply
    radius = genial.view(state, None)["radius"]
    ca, cb = genial.legal_placements(state, seat, 0)[0]
    before = genial.turn(state)
    await person.say(person.id, f"1 {genial.cell_label(ca, radius)} {genial.cell_label(cb, radius)}")
    assert genial.turn((await runner.state(game.id))) == before + 1
    assert "placed" in fake.message(GROUP, game.table_msg).caption

    total = await play(fake, runner, game, people, rng)
    assert game.status == "finished"
    results = fake.message(GROUP, game.results_msg).text
    assert "results" in results and "lowest" in results and "🥇" in results
    assert_racks_private(fake, people)
    assert not [b for b in buttons(fake.message(GROUP, game.table_msg)) if "callback_data" in b]
    assert total["turns"] >= 35
    assert_typical_moves_take_three_taps(total)
    ru = by_id[2]
    ru_dm = fake.message(ru.id, game.seats[game.seat_of(ru.id)].dm_msg)
    assert "Ваша подставка" in ru_dm.caption
    # The private message of a finished game ends with that player's own result.
    last = ru_dm.caption.splitlines()[-1]
    assert "Гениально" in last and ("вы победили" in last or "место" in last), ru_dm.caption
    assert time.monotonic() - started < 90


async def test_four_player_teams_play_with_swap_decisions(fake, runner):
    game, people = await start_group_game(fake, runner, 4, "team")
    assert (await runner.state(game.id)).options.team
    rng = random.Random(3)
    total = await play(fake, runner, game, people, rng)
    assert game.status == "finished" and total["turns"] >= 60
    assert_typical_moves_take_three_taps(total)
    results = fake.message(GROUP, game.results_msg).text
    plain = results.replace("\u2068", "").replace("\u2069", "")
    assert "Anna & <i>Clara</i>" in plain and "Борис & Dan 🎲" in plain, plain
    assert "🥇" in plain and "🥈" in plain
    caption = fake.message(GROUP, game.table_msg).caption
    assert "teams" in caption or "команды" in caption
    # a team's shared tracks are in each partner's private caption
    dm = fake.message(people[0].id, game.seats[game.seat_of(people[0].id)].dm_msg)
    assert "shared with" in dm.caption
    assert_racks_private(fake, people)
    if total["swap"]:
        texts = "\n".join(group_texts(fake, GROUP))
        assert "swapped the rack" in texts or "kept the rack" in texts


async def test_solo_in_the_private_chat_is_played_on_the_table(fake, runner):
    solo = Player(fake, runner, 9, "Solo")
    await solo.start_private()
    await solo.say(solo.id, "/new genial bots=0")  # no computer: a solo game at once
    game = next(g for g in (await runner.games()) if g.chat_id == solo.id)
    assert game.status == "running" and len(game.seats) == 1
    rng = random.Random(1)
    moves = 0
    taps = collections.Counter()
    while game.status == "running":
        if moves == 10:  # a typed move works in solo too ("F7 F8": the drawn tile)
            state = (await runner.state(game.id))
            ca, cb = genial.legal_placements(state, 0, genial.view(state, 0)["drawn"])[0]
            before = genial.turn(state)
            await solo.say(solo.id, f"{genial.cell_label(ca, 5)} {genial.cell_label(cb, 5)}")
            assert genial.turn((await runner.state(game.id))) == before + 1
            moves += 1
            continue
        table = fake.message(solo.id, game.table_msg)
        # the drawn tile's placements at once, numbered on the picture; the hint to type is there too
        k = kinds(table)
        assert k["numbers"] and not k["tiles"] and not k["back"], buttons(table)
        assert "«F7 F8»" in table.caption
        pressed, detour = 0, moves % 6 == 3
        for _ in range(8):
            k = kinds(table)
            if k["confirm"]:
                choice = k["confirm"]
            elif k["more"] and detour and not pressed:
                choice = k["more"]
            else:
                choice = k["numbers"][0] if rng.random() < 0.7 else rng.choice(k["numbers"])
            answer = await solo.press(solo.id, table.message_id, choice)
            assert not answer.get("show_alert"), answer
            pressed += 1
            table = fake.message(solo.id, game.table_msg)
            if not action_of(choice).startswith("~"):
                break
        if not detour:
            taps[pressed] += 1
        moves += 1
    assert moves >= 30
    assert set(taps) == {2}, taps  # a number, Confirm
    results = fake.message(solo.id, game.results_msg).text
    assert "Your score:" in results


async def test_ingenious_bonus_then_swap_decision(fake, runner):
    """A hand-built position: orange at 17 and no red in the rack. Tile 1 typed next to the printed
    orange symbol reaches 18: «Ingenious!», a bonus tile is drawn (the tile step is skipped), then
    the swap is offered and taken; the group hears of it, never of the new rack."""
    game, people = await start_group_game(fake, runner, 2)
    by_id = {p.id: p for p in people}
    state = genial.position(2, seed=5, current=0, racks=[["oy", "oy", "yg", "gb", "bp", "yy"]],
                            scores=[[0, 17, 5, 5, 5, 5], [3, 3, 3, 3, 3, 3]], started=[True, True])
    await set_position(runner, game, state)
    person = by_id[game.seats[0].user_id]
    await person.say(person.id, "1 A5 A4")
    caption = fake.message(GROUP, game.table_msg).caption
    assert "Ingenious!" in caption and "for the bonus placement" in caption, caption
    dm = fake.message(person.id, game.seats[0].dm_msg)
    assert "Bonus placement" in dm.caption or "Бонусный ход" in dm.caption
    # no tile step: the drawn tile's placements are offered at once, numbered on the picture
    k = kinds(dm)
    assert k["numbers"] and not k["tiles"] and not k["back"], buttons(dm)
    drawn = genial.view((await runner.state(game.id)), 0)["drawn"]
    assert all(action_of(d).startswith("~" + "".join(genial.LETTERS[genial.COLOURS.index(c)] for c in drawn))
               for d in k["numbers"])
    seen = await play_turn(fake, runner, game, by_id, random.Random(2), wander=False)
    assert seen["taps"] == 2 and not seen["tile_step"]
    state = (await runner.state(game.id))
    assert genial.view(state, 0)["pending"] == genial.SWAP
    old_rack = genial.view(state, 0)["rack"]
    dm = fake.message(person.id, game.seats[0].dm_msg)
    answer = await person.press(person.id, dm.message_id, button_data(dm, endswith=":S"))
    assert not answer.get("show_alert"), answer
    state = (await runner.state(game.id))
    assert genial.current_player(state) == 1 and genial.view(state, 0)["rack"] != old_rack
    caption = fake.message(GROUP, game.table_msg).caption
    assert "swapped the rack" in caption, caption
    assert_racks_private(fake, people)


async def set_position(runner, game, state) -> None:
    """Put a hand-built position in the running game, committed as a move would be."""
    game.state = genial.to_json(state)
    async with runner.bot.book.lock(game.id):
        await runner.store.save_game(game)
    match = runner.bot.book.put(game)
    runner.bot.tables.schedule_private_all(match, bump_current=True)
    runner.bot.tables.schedule_table(match)
    await runner.idle()


def worth(state, seat: int, tile, labels) -> tuple[int, int]:
    """(points on the seat's lowest colours now, all points) of a placement given by its labels."""
    values = genial.view(state, seat)["scores"][genial.view(state, seat)["holder_of"][seat]]["values"]
    low = min(values.values())
    points = genial.placement_score(state, seat, list(tile), *labels)
    return (sum(p["gained"] for c, p in points.items() if values[c] == low),
            sum(p["gained"] for p in points.values()))


def labels_of(state, seat: int, tile) -> set[tuple[str, str]]:
    R = genial.view(state, None)["radius"]
    return {(genial.cell_label(a, R), genial.cell_label(b, R))
            for a, b in genial.legal_placements(state, seat, list(tile))}


async def test_every_placement_of_a_tile_is_reachable_through_the_pages(fake, runner):
    """Through the client: every legal placement of the chosen tile (first round: next to a free
    printed symbol; both ways round) has exactly one number over the pages, best first; ◀ goes a
    page back, and ◀️ Back on a preview returns to its page."""
    game, people = await start_group_game(fake, runner, 2)
    by_id = {p.id: p for p in people}
    state = await runner.state(game.id)
    seat = genial.current_player(state)
    person = by_id[game.seats[seat].user_id]
    rack = genial.view(state, seat)["rack"]
    slot = next(i for i, tl in enumerate(rack) if tl[0] != tl[1])  # a tile with two ways round
    dm = lambda: fake.message(person.id, game.seats[seat].dm_msg)  # noqa: E731
    await person.press(person.id, dm().message_id, kinds(dm())["tiles"][slot])
    found: list[tuple[str, str]] = []
    pages = []
    while True:
        k = kinds(dm())
        texts = [b["text"] for b in buttons(dm()) if b.get("callback_data") in k["numbers"]]
        assert texts == [str(len(found) + n + 1) for n in range(len(k["numbers"]))], texts
        assert dm().photo is not None
        found += [NUMBER_PATH.match(action_of(d)).group(3, 4) for d in k["numbers"]]
        pages.append(k["numbers"])
        if len(pages) == 3:  # a page back shows the same numbers again
            await person.press(person.id, dm().message_id, k["prev"])
            assert kinds(dm())["numbers"] == pages[1]
            await person.press(person.id, dm().message_id, kinds(dm())["more"])
            assert kinds(dm())["numbers"] == pages[2]
        if not k["more"]:
            break
        await person.press(person.id, dm().message_id, k["more"])
    assert len(pages) >= 3 and all(len(p) == PER_PAGE for p in pages[:-1])
    assert len(found) == len(set(found)) and set(found) == labels_of(state, seat, rack[slot])
    values = [worth(state, seat, rack[slot], cells) for cells in found]
    assert values == sorted(values, reverse=True)  # best first
    # a preview from the second page, then back to that page
    await person.press(person.id, dm().message_id, pages[1][2])
    k = kinds(dm())
    assert k["confirm"] and k["back"]
    await person.press(person.id, dm().message_id, k["back"])
    assert kinds(dm())["numbers"] == pages[1]
    assert genial.turn(await runner.state(game.id)) == genial.turn(state)  # nothing was played


async def test_every_placement_is_reachable_on_an_open_board(fake, runner):
    """The adapter alone, on an open board (hundreds of placements): following ▶ more from the
    first page reaches every legal placement of every tile once, a double's pairs once each."""
    game, people = await start_group_game(fake, runner, 2)
    state = genial.position(2, seed=11, current=0, racks=[["ro", "yy", "gb", "bp", "oy", "rp"]],
                            tiles=[(0, "rg", "F6", "F7"), (1, "bb", "E5", "E6")],
                            scores=[[2, 0, 4, 3, 1, 0], [1, 1, 1, 1, 1, 1]], started=[True, True])
    ctx = (await runner.bot.book.load(game.id)).ctx("en", state)
    ui = UI()
    for slot in (0, 1):
        tile = genial.view(state, 0)["rack"][slot]
        tile_path = next(b.action for row in ui.private(ctx, 0, "").rows for b in row
                         if b.text.startswith(f"{slot + 1} "))
        path, found = tile_path[1:], []
        while path is not None:
            view = ui.private(ctx, 0, path)
            numbers = [b for row in view.rows for b in row if b.text.isdigit()]
            found += [NUMBER_PATH.match(b.action).group(3, 4) for b in numbers]
            path = next((b.action[1:] for row in view.rows for b in row if b.text.startswith("▶")), None)
        expected = labels_of(state, 0, tile)
        assert len(expected) > 150 and len(found) == len(set(found)) and set(found) == expected
        values = [worth(state, 0, tile, cells) for cells in found]
        assert values == sorted(values, reverse=True)


async def test_a_stale_path_after_the_board_changed_falls_back_to_the_tile_choice(fake, runner):
    game, people = await start_group_game(fake, runner, 2)
    by_id = {p.id: p for p in people}
    state = genial.position(2, seed=5, current=0, racks=[["ro", "ro", "oy", "yg", "gb", "bp"],
                                                         ["rr", "oo", "yy", "gg", "bb", "pp"]],
                            scores=[[3, 1, 5, 5, 5, 5], [3, 3, 3, 3, 3, 3]], started=[True, True])
    await set_position(runner, game, state)
    person = by_id[game.seats[0].user_id]
    other = by_id[game.seats[1].user_id]
    dm = lambda: fake.message(person.id, game.seats[0].dm_msg)  # noqa: E731
    await person.press(person.id, dm().message_id, kinds(dm())["tiles"][0])
    await person.press(person.id, dm().message_id, kinds(dm())["more"])
    page = kinds(dm())["numbers"]
    await person.press(person.id, dm().message_id, page[0])
    assert kinds(dm())["confirm"]
    stale = action_of(page[0])  # "~ro1XnYm": red-orange, page 2, on two cells
    cells = NUMBER_PATH.match(stale).group(3, 4)
    # the board changes: the player types that very move instead, then the other player moves
    await person.say(person.id, f"1 {cells[0]} {cells[1]}")
    state = await runner.state(game.id)
    assert genial.current_player(state) == 1
    answer = await person.press(person.id, dm().message_id, page[1])  # an earlier turn's button
    assert "turn has moved on" in answer["text"] or "Ход перешёл" in answer["text"], answer
    assert genial.turn(await runner.state(game.id)) == genial.turn(state)
    a, b = genial.legal_placements(state, 1, "rr")[0]
    await other.say(other.id, f"1 {genial.cell_label(a, 5)} {genial.cell_label(b, 5)}")
    state = await runner.state(game.id)
    assert genial.current_player(state) == 0 and ("red", "orange") in map(tuple, genial.view(state, 0)["rack"])
    # paths that do not fit the position any more, pressed on the current turn: the tile choice
    ctx = (await runner.bot.book.load(game.id)).ctx("en", state)
    turn = genial.turn(state)
    assert UI().private(ctx, 0, stale[1:]).rows == UI().private(ctx, 0, "").rows
    for path in (stale, "~ro99", "~pp", "~ro1A1A2", "~zz", "~t2rF"):
        answer = await person.press(person.id, dm().message_id, f"{game.short_id}:{turn}:{path}")
        assert not answer.get("show_alert"), (path, answer)
        k = kinds(dm())
        assert k["tiles"] and not k["numbers"] and not k["confirm"], (path, buttons(dm()))
        assert "Choose a tile" in dm().caption or "Выберите тайл" in dm().caption
    # and a path that still fits shows its page
    await person.press(person.id, dm().message_id, f"{game.short_id}:{turn}:~ro1")
    assert [b["text"] for b in buttons(dm()) if b["text"].isdigit()] == [str(n) for n in range(PER_PAGE + 1,
                                                                                          2 * PER_PAGE + 1)]
    assert genial.turn(await runner.state(game.id)) == turn
