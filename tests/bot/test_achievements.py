"""Achievements: every one of the catalogue granted by a game that earns it (crafted, or played)
and not by a near miss; decided the same from a game as it was heard being played and from a
replay of its log; announced once per person in the results of the game that earned it; granted
retroactively without a word; computers earn nothing; /achievements and /stats show them."""
from __future__ import annotations

import random
import sqlite3
from dataclasses import replace

import pytest

from engines import cones, genial, lucky, trio
from engines.base import event_dict, options_from_dict
from bot.records.achievements import plays
from bot.records.achievements.catalogue import BY_CODE, CATALOGUE, FOUR, signature
from bot.records.achievements.ledger import PROGRESS, REACHED, RECORD, firsts, of_record
from bot.records.achievements.plays import feats, games, replayed
from bot.storage.store import GameRecord, PlayedGame, RecordSeat, Series
from bot.words.i18n import t
from tests.bot.recording import build_core

GROUP = -100800


# ---- the catalogue -------------------------------------------------------------------------

def play_codes() -> dict[str, set[str]]:
    return {kind: set(decide([], {"places": [], "scores": []}, 2, {})) for kind, decide in games().items()}


def test_the_catalogue_has_about_thirty_each_decided_once_and_worded_in_both_languages():
    codes = [a.code for a in CATALOGUE]
    assert 28 <= len(codes) <= 34 and len(set(codes)) == len(codes)
    by_play = {code: kind for kind, found in play_codes().items() for code in found}
    deciders = [set(REACHED), set(RECORD), set(by_play)]
    assert sorted(c for found in deciders for c in found) == sorted(codes)  # each code decided exactly once
    for a in CATALOGUE:
        assert (a.game is None) == (a.code not in by_play) and by_play.get(a.code) == a.game
        assert a.target is None or a.code in PROGRESS
        for text in (a.name, a.rule):
            assert t("ru", text) != text, text  # translated (its game's catalogue, or the records')
    assert {a.game for a in CATALOGUE} == {None, *FOUR} and len({a.icon for a in CATALOGUE}) == len(CATALOGUE)


# ---- a person's games one after another ----------------------------------------------------

def g(n: int, *, kind: str = "cones", place: int = 1, players: int = 2, computers: int = 0, auto: bool = False,
      after: int | None = None) -> PlayedGame:
    return PlayedGame(n, kind, float(n), place, players, computers, auto, after)


def wins(n: int, start: int = 1, **kw) -> list[PlayedGame]:
    return [g(i, **kw) for i in range(start, start + n)]


LEDGER_CASES = {
    "first_game": ([g(1, place=2)], [g(1, auto=True)]),
    "first_win": ([g(1)], [g(1, players=1)]),  # a solo game has nobody to beat
    "games_10": (wins(10, place=2), wins(9, place=2) + [g(10, auto=True)]),
    "games_100": (wins(100, place=2, computers=1), wins(99, place=2)),
    "wins_10": (wins(10), wins(9) + [g(10, computers=1)]),
    "streak_3": (wins(2) + [g(3, players=1, place=1), g(4, computers=1)],  # a solo game does not break it
                 wins(2) + [g(3, place=2), g(4)]),
    "streak_5": (wins(5), wins(2) + [g(3, computers=1)] + wins(2, start=4)),  # a computer's game: not counted
    "all_games": ([g(i, kind=k, place=2) for i, k in enumerate(FOUR, 1)],
                  [g(i, kind=k, place=2) for i, k in enumerate(FOUR[:3], 1)] + [g(4, kind="trio", auto=True)]),
    "rating_1600": ([g(1, after=1540), g(2, after=1600), g(3, after=1580)], [g(1, after=1599)]),
}


@pytest.mark.parametrize("code", sorted(LEDGER_CASES))
def test_a_persons_games_earn_the_ledgers_achievements_and_a_near_miss_does_not(code):
    earning, near = LEDGER_CASES[code]
    reached, _ = firsts(earning)
    assert code in reached
    assert code not in firsts(near)[0]


def test_an_achievement_is_for_the_game_that_first_reached_it_and_progress_is_counted():
    games = wins(2) + [g(3, place=2)] + wins(3, start=4) + [g(7)]
    reached, ledger = firsts(games)
    assert reached["streak_3"] == 6 and reached["first_win"] == 1 and reached["first_game"] == 1
    assert PROGRESS["streak_3"](ledger) == 4 and PROGRESS["games_10"](ledger) == 7
    assert "streak_3" not in firsts(games, until=(5.0, 5))[0]


# ---- one game's record -------------------------------------------------------------------------

def seat(n: int, user: int | None, place: int, *, level: str | None = None, team: int | None = None,
         before: int | None = None) -> RecordSeat:
    return RecordSeat(n, user, f"P{user}", "computer" if level else "human", level, place, 0,
                      n if team is None else team, before=before)


def rec(*seats: RecordSeat, rated: bool = True, series_id: int | None = None) -> GameRecord:
    return GameRecord(7, "cones", GROUP, 0, "finished", rated, {}, series_id, 0.0, 1.0, list(seats))


def series(played: int, points: dict[str, float]) -> Series:
    return Series(3, GROUP, "cones", 3, played, [1, 2], points, counted=[5, 6, 7][:played])


RECORD_CASES = {
    "beat_hard": ((rec(seat(0, 1, 1), seat(1, -1, 2, level="hard")), None),
                  (rec(seat(0, 1, 1), seat(1, -1, 2, level="normal")), None)),
    "beat_three_hard": ((rec(seat(0, 1, 1), *(seat(i, -i, i + 1, level="hard") for i in (1, 2, 3))), None),
                        (rec(seat(0, 1, 1), seat(1, -1, 2, level="hard"), seat(2, -2, 3, level="hard"),
                             seat(3, -3, 4, level="normal")), None)),
    "full_table": ((rec(*(seat(i, i + 1, i + 1) for i in range(4))), None),
                   (rec(*(seat(i, i + 1, i + 1) for i in range(3)), seat(3, -1, 4, level="easy")), None)),
    "giant_slayer": ((rec(seat(0, 1, 1, before=1500), seat(1, 2, 2, before=1600)), None),
                     (rec(seat(0, 1, 1, before=1500), seat(1, 2, 2, before=1599)), None)),
    "shared_win": ((rec(seat(0, 1, 1), seat(1, 2, 1), seat(2, 3, 3)), None),
                   # a partner shares a team's place: that is no shared win
                   (rec(seat(0, 1, 1, team=0), seat(1, 2, 2, team=1), seat(2, 3, 1, team=0), seat(3, 4, 2, team=1)),
                    None)),
    "series_win": ((rec(seat(0, 1, 1), seat(1, 2, 2), series_id=3), series(3, {"1": 4.0, "2": 2.0})),
                   (rec(seat(0, 1, 1), seat(1, 2, 2), series_id=3), series(2, {"1": 2.0, "2": 1.0}))),
}


@pytest.mark.parametrize("code", sorted(RECORD_CASES))
def test_a_games_record_earns_its_achievements_and_a_near_miss_does_not(code):
    (earning, its_series), (near, near_series) = RECORD_CASES[code]
    assert code in of_record(earning, earning.seats[0], its_series)
    assert code not in of_record(near, near.seats[0], near_series)


def test_a_record_earns_a_computer_nothing_nor_a_seat_a_computer_played_and_people_only_means_it():
    shared = rec(seat(0, 1, 1), seat(1, 2, 1), seat(2, -1, 3, level="easy"))
    assert "shared_win" not in of_record(shared, shared.seats[0])  # a computer sat at the table
    beaten = rec(seat(0, 1, 1), seat(1, -1, 2, level="hard"))
    assert of_record(beaten, beaten.seats[1]) == set()
    beaten.seats[0].autoplayed = True
    assert of_record(beaten, beaten.seats[0]) == set()


# ---- what happened in a game -------------------------------------------------------------------

def run(eng, state, moves) -> tuple[list[dict], dict | None]:
    """Apply (seat, action) moves to a crafted state: the events as the bot keeps them, and the
    outcome once the game is over."""
    events = []
    for seat_, action in moves:
        state, happened = eng.apply(state, seat_, action)
        events += [event_dict(e) for e in happened]
    result = eng.outcome(state)
    outcome = None if result is None else {"places": list(result.places), "reason": result.reason,
                                           "scores": [dict(s) if isinstance(s, dict) else s for s in result.scores]}
    return events, outcome


def over(places, **more) -> dict:
    return {"places": places, "reason": "", "scores": [], **more}


D, B = lucky.Draw(), lucky.Bank()
COLOURS5 = ["red", "orange", "yellow", "green", "blue"]


def lucky_turn(moves, **tokens):
    state = lucky.with_tokens(lucky.setup(2, lucky.Options(), 1), current=0, zone=[], **tokens)
    events, outcome = run(lucky, state, [(0, m) for m in moves])
    return events, outcome or over([1, 2])


def lucky_ended(reason: str):
    return [event_dict(lucky.GameEnded(reason, (0,), (1, 2), (7, 3)))], over([1, 2])


def cones_game(supplies, plays, goals=None):
    """Two players, seat 0 first, goals those of the seed unless given: piles by base colour."""
    state = cones.setup(2, cones.Options(), 3)
    colours = state.colours
    g0, g1 = goals or state.goals
    o2, o3 = [c for c in colours if c not in (g0, g1)]
    named = {"g0": g0, "g1": g1, "o2": o2, "o3": o3}
    state = replace(state, goals=(g0, g1), undrawn=(o2, o3), first=0, turn=0, stacks=tuple(() for _ in state.bases),
                    supplies=tuple(tuple(sum(1 for c in s if named[c] == colour) for colour in colours)
                                   for s in supplies))
    piles = {c: [i + 1 for i, b in enumerate(state.bases) if b == named[c]] for c in named}
    moves = [(n % 2, cones.Play(named[colour], piles[base][k])) for n, (colour, base, k) in enumerate(plays)]
    return run(cones, state, moves)


def genial_turn(scores, tiles, near_colour=None):
    """Seat 0's turn: each tile (its colours) placed where its first colour scores (bonus
    placements from the rack), on a board with nothing but the printed symbols."""
    state = genial.position(2, options={"bonus_from_rack": True}, seed=5, racks=[tiles, []], scores=[scores, [0] * 6])
    events = []
    for colour, other in tiles:
        best = next((a, b) for a, b, points in genial.scored_placements(state, 0, (colour, other))
                    if points.get(colour, {}).get("gained") == 1 and points.get(other, {}).get("bonus", 0) == 0)
        state, happened = genial.apply(state, 0, genial.Place(colour, other, *best))
        events += [event_dict(e) for e in happened]
    return events, over([1, 2])


def trio_won(seat_, hands, *before) -> tuple[list[dict], dict]:
    return [event_dict(e) for e in before] + [event_dict(trio.Won(seat_, hands, (1, 2, 3)))], over([1, 2, 3])


LAID = dict(tile=0, symbols=("red-hexagon", "blue-circle"), cells=((0, 1), (1, 1)))
SET = ("red-hexagon", "blue-circle", "yellow-star")

PLAY_CASES = {
    "lucky_full_hand": (lucky_turn([D] * 5 + [B], centre=COLOURS5, reserve=COLOURS5),
                        lucky_turn([D] * 4 + [B], centre=COLOURS5, reserve=COLOURS5)),
    "lucky_big_haul": (lucky_turn([D, D, B], centre={"red": 5, "orange": 4}, reserve=["red", "orange"]),
                       lucky_turn([D, D, B], centre={"red": 4, "orange": 3}, reserve=["red", "orange"])),
    "lucky_every_colour": (lucky_turn([D, B], centre=["red", "orange", "yellow"], reserve=["red"],
                                      collections=[{"red": 5, "orange": 7, "yellow": 7, "green": 7, "blue": 7,
                                                    "purple": 7}, {}]),
                           lucky_ended("stall")),  # a win by the ranking, not by completing
    "lucky_double_bonus": (lucky_turn([D, D, B], centre=["red", "orange", "yellow"], reserve=["red", "orange"],
                                      collections=[{"red": 5, "orange": 5}, {}]),
                           lucky_turn([D, D, B], centre=["red", "orange", "yellow"], reserve=["red", "orange"],
                                      collections=[{"red": 5, "orange": 4}, {}])),
    "cones_three_towers": (cones_game([["g0"] * 3, ["o2"] * 3], [("g0", "o3", 0), ("o2", "o3", 3),
                                                                 ("g0", "o3", 1), ("o2", "g1", 0),
                                                                 ("g0", "o3", 2), ("o2", "g1", 1)]),
                           cones_game([["g0"] * 3, ["o2"] * 3], [("g0", "o3", 0), ("o2", "o3", 0),  # covered
                                                                 ("g0", "o3", 1), ("o2", "g1", 0),
                                                                 ("g0", "o3", 2), ("o2", "g1", 1)])),
    "cones_pairs": (cones_game([["o2"] * 4, ["o2"] * 3], [("o2", "o3", 0), ("o2", "o3", 1), ("o2", "o3", 1),
                                                          ("o2", "o3", 2), ("o2", "o3", 2), ("o2", "o3", 3),
                                                          ("o2", "o3", 3)]),
                    cones_game([["o2"] * 4, ["o2"] * 3], [("o2", "o3", 0), ("o2", "o3", 1), ("o2", "o3", 1),
                                                          ("o2", "o3", 2), ("o2", "o3", 2), ("o2", "o3", 3),
                                                          ("o2", "g1", 0)])),
    "cones_poker_face": (cones_game([["o2"] * 3, ["o3"] * 3], [("o2", "g1", 0), ("o3", "o2", 0), ("o2", "g1", 1),
                                                               ("o3", "o2", 1), ("o2", "g1", 2), ("o3", "o2", 2)]),
                         cones_game([["o2", "o2", "g0"], ["o3"] * 3], [("o2", "g1", 0), ("o3", "o2", 0),
                                                                       ("o2", "g1", 1), ("o3", "o2", 1),
                                                                       ("g0", "o3", 0), ("o3", "o2", 2)])),
    "cones_landslide": (cones_game([["o2"] * 3, ["o3"] * 3], [("o2", "g1", 0), ("o3", "o2", 0), ("o2", "g1", 1),
                                                              ("o3", "o2", 1), ("o2", "g1", 2), ("o3", "o2", 2)]),
                        cones_game([["o2"] * 3, ["o3"] * 3], [("o2", "g1", 0), ("o3", "o2", 0), ("o2", "o3", 0),
                                                              ("o3", "o2", 1), ("o2", "o3", 1), ("o3", "o2", 2)])),
    "genial_chain": (genial_turn([17, 0, 0, 0, 17, 0], [("red", "green"), ("blue", "yellow")]),
                     genial_turn([17, 0, 0, 0, 16, 0], [("red", "green"), ("blue", "yellow")])),
    "genial_instant": (genial_turn([17, 18, 18, 18, 18, 18], [("red", "green")]),
                       genial_turn([16, 18, 18, 18, 18, 18], [("red", "green")])),
    "genial_new_rack": (([event_dict(genial.Swapped(0, (("red", "blue"),), 6))], over([1, 2])),
                        ([event_dict(genial.Swapped(0, (("red", "blue"),), 6))], over([2, 1]))),
    "genial_balance": (([], over([1, 2], scores=[[14, 15, 16, 17, 18, 18], [9, 9, 9, 9, 9, 9]])),
                       ([], over([1, 2], scores=[[13, 18, 18, 18, 18, 18], [9, 9, 9, 9, 9, 9]]))),
    "trio_no_draw": (trio_won(0, (0, 2, 4), trio.Drew(1, True, 10, 0)),
                     trio_won(0, (0, 2, 4), trio.Drew(0, True, 10, 0))),
    "trio_double_set": (([event_dict(trio.Laid(0, sets=(SET, SET), set_cells=((), ()), hand_size=3, **LAID))], over([2, 1])),
                        ([event_dict(trio.Laid(0, sets=(SET,), set_cells=((),), hand_size=3, **LAID))], over([2, 1]))),
    "trio_runaway": (trio_won(0, (0, 3, 4)), trio_won(0, (0, 2, 5))),
}


@pytest.mark.parametrize("code", sorted(PLAY_CASES))
def test_what_happens_in_a_game_earns_its_achievements_and_a_near_miss_does_not(code):
    (events, outcome), (near_events, near_outcome) = PLAY_CASES[code]
    kind = BY_CODE[code].game
    players = len(outcome["places"]) or 2
    assert 0 in feats(kind, events, outcome, players, {}).get(code, set())
    assert 0 not in feats(kind, near_events, near_outcome, players, {}).get(code, set())


def test_every_achievement_has_a_case_here():
    assert set(LEDGER_CASES) | set(RECORD_CASES) | set(PLAY_CASES) == set(BY_CODE)


def test_balance_is_for_games_without_teams():
    outcome = over([1, 2, 1, 2], scores=[[20] * 6] * 4)
    assert not feats("genial", [], outcome, 4, {"team": True})
    assert feats("genial", [], outcome, 4, {})["genial_balance"] == {0, 1, 2, 3}


# ---- played games ------------------------------------------------------------------------------

def people_of(core, n: int):
    return [core.person(i + 1, name) for i, name in enumerate(["Anna", "Boris", "Cleo", "Dora"][:n])]


async def open_game(core, kind: str, people, **options):
    from engines import registry
    info = registry.info(kind)
    match = await core.lobby.open(chat_id=GROUP, thread_id=0, person=people[0], info=info,
                                  options={**info.default_options(), **options}, chat_lang="en")
    for p in people[1:]:
        await core.lobby.join(match, p)
    await core.lobby.start(match, people[0])
    return match


async def play_out(core, match, choose) -> None:
    """Every move by ``choose(match, seat)``, made as its person would (``play.act``)."""
    while match.running:
        seat_ = match.current
        if match.game.seats[seat_].autoplayed:
            await core.idle()  # a computer moves by itself
            continue
        await core.play.act(match.id, seat_, match.turn, choose(match, seat_))
    await core.idle()


def randomly(rng):
    return lambda match, seat_: rng.choice(match.eng.legal_actions(match.state, seat_))


@pytest.fixture
async def core():
    built = await build_core()
    yield built
    await built.close()


async def heard_from_its_start(core, kind: str, people):
    """A new game this process hears from its start (a trio game whose first players all had
    to draw is heard too late to trust its opening: the next one, then)."""
    for _ in range(30):
        match = await open_game(core, kind, people)
        if match.scratch.heard is not None:
            return match
        await core.play.close(match, "cancelled", by="test")
        await core.idle()
    raise AssertionError("no game was heard from its start")


@pytest.mark.parametrize("kind,n", [("lucky", 3), ("cones", 4), ("genial", 2), ("trio", 3)])
async def test_a_played_game_is_decided_the_same_from_its_events_as_heard_and_from_a_replay(core, kind, n):
    people = [await p for p in people_of(core, n)]
    match = await heard_from_its_start(core, kind, people)
    await play_out(core, match, randomly(random.Random(n)))
    game = match.game
    heard = feats(kind, match.scratch.heard, game.outcome, n, game.options)
    log = [(s, code) for _, s, code in await core.store.actions(game.id)]
    assert replayed(kind, n, game.options, game.seed, log) == heard
    assert plays.replayed_many([(kind, n, game.options, game.seed, log), (kind, n, game.options, game.seed, log[:1])]) \
        == [heard, None]  # (a log cut short leads to no end)


async def test_a_game_not_heard_from_its_start_is_replayed_in_a_worker_and_earns_the_same(core):
    anna, boris = [await p for p in people_of(core, 2)]
    match = await heard_from_its_start(core, "cones", [anna, boris])
    await play_out(core, match, randomly(random.Random(9)))
    record = await core.store.game_record(match.id)
    heard = await core.achievements._play(match, record)
    match.scratch.heard = None  # as after a restart in the middle of the game
    assert await core.achievements._play(match, record) == heard
    assert await core.achievements._play(None, record) == heard


def lucky_for(anna: int):
    """Anna banks after every match; everyone else draws until they bust: Anna wins."""
    def choose(match, seat_):
        legal = match.eng.legal_actions(match.state, seat_)
        wanted = B if match.game.seats[seat_].user_id == anna else D
        return wanted if wanted in legal else (D if D in legal else legal[0])
    return choose


def results(core) -> list[str]:
    return [c.text for c in core.messenger.calls if c.chat_id == GROUP and c.method == "sendMessage"
            and c.text.startswith("🏁")]


async def test_the_results_announce_each_achievement_once_per_person(core):
    anna, boris = [await p for p in people_of(core, 2)]
    for n in range(4):
        match = await open_game(core, "lucky", [anna, boris])
        await play_out(core, match, lucky_for(anna.id))
        assert match.game.outcome["places"][match.game.seat_of(anna.id)] == 1
    first, second, third, fourth = results(core)
    assert "🏅 \u2068Anna\u2069 — «First game», «First win»" in first
    assert "🏅 \u2068Boris\u2069 — «First game»" in first
    assert "«Three wins in a row»" not in first + second and "🏅 \u2068Boris" not in second
    assert "🏅 \u2068Anna\u2069 — «Three wins in a row»" in third
    assert "Three wins in a row" not in fourth and "First game" not in second + third + fourth
    earned = {e.code: e.game_id for e in await core.store.achievements_of(anna.id)}
    assert earned["streak_3"] > earned["first_win"]
    assert await core.store.achievements_of(-1001) == []


async def test_the_results_say_it_in_russian(core):
    from bot.ending.achievements import AchievementsSuccessor
    from bot.ending.after import End
    anna, boris = [await p for p in people_of(core, 2)]
    match = await open_game(core, "lucky", [anna, boris])
    await play_out(core, match, lucky_for(anna.id))
    sequel = await AchievementsSuccessor(core.achievements).follow(End(match, await core.store.game_record(match.id)))
    assert "🏅 \u2068Anna\u2069 — «Первая партия», «Первая победа»" in sequel.words("ru")  # (again: the same)


async def test_computers_earn_nothing(core):
    anna = await people_of(core, 1)[0]
    from engines import registry
    info = registry.info("lucky")
    match = await core.lobby.open(chat_id=anna.id, thread_id=0, person=anna, info=info,
                                  options=info.default_options(), chat_lang="en", computers=["easy"])
    await core.lobby.start(match, anna)
    await play_out(core, match, lucky_for(anna.id))
    assert "first_game" in {e.code for e in await core.store.achievements_of(anna.id)}
    [computer] = [s.user_id for s in match.game.seats if s.is_computer]
    assert await core.store.achievements_of(computer) == []
    assert {e.user_id for e in await core.store.achievements_of_game(match.id)} <= {anna.id}


# ---- read again: a retroactive grant announces nothing -----------------------------------------

async def test_a_new_achievement_is_granted_for_the_old_games_that_earned_it_without_a_word(tmp_path):
    db = str(tmp_path / "bot.sqlite3")
    core = await build_core(db=db)
    anna, boris = [await p for p in people_of(core, 2)]
    for _ in range(3):
        await play_out(core, await open_game(core, "lucky", [anna, boris]), lucky_for(anna.id))
    games = [r.game_id for r in await core.store.finished_records()]
    await core.close()
    # As a database of a version that had no achievements yet: none granted, the catalogue unread.
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM achievements")
    conn.execute("DELETE FROM marks WHERE name='achievements'")
    conn.commit()
    conn.close()

    core = await build_core(db=db)
    try:
        assert await core.achievements.catch_up() > 0
        earned = {e.code: e.game_id for e in await core.store.achievements_of(1)}
        assert earned["first_win"] == games[0] and earned["streak_3"] == games[2]
        assert await core.achievements.catch_up() == 0 and await core.store.mark("achievements") == signature()
        assert not [c for c in core.messenger.calls if c.method == "sendMessage"]  # not a word
        await play_out(core, await open_game(core, "lucky", [anna, boris]), lucky_for(1))
        [fourth] = results(core)
        assert "First win" not in fourth and "Three wins in a row" not in fourth and "First game" not in fourth
    finally:
        await core.close()


async def test_a_failure_to_decide_leaves_the_results_without_the_line_and_the_next_start_grants_it(tmp_path):
    from bot.ending.achievements import AchievementsSuccessor
    from bot.ending.after import End
    from bot.records.achievements.keeper import Achievements

    class Broken(Achievements):
        async def decide(self, match, record):
            raise RuntimeError("a bug")
    db = str(tmp_path / "bot.sqlite3")
    core = await build_core(db=db)
    try:
        anna, boris = [await p for p in people_of(core, 2)]
        match = await open_game(core, "lucky", [anna, boris])
        await play_out(core, match, lucky_for(anna.id))
        await core.store.set_mark("achievements", signature())
        conn = sqlite3.connect(db)  # as if its end had met the bug: nothing granted
        with conn:
            conn.execute("DELETE FROM achievements")
        conn.close()
        record = await core.store.game_record(match.id)
        assert await AchievementsSuccessor(Broken(core.store)).follow(End(match, record)) is None  # no line
        assert await core.store.mark("achievements") == ""
        assert await core.achievements.catch_up() > 0  # the next start: granted, silently
        assert {"first_game", "first_win"} <= {e.code for e in await core.store.achievements_of(anna.id)}
    finally:
        await core.close()


# ---- what a person reads -----------------------------------------------------------------------

async def test_achievements_and_stats_show_what_is_earned_progress_and_rarity(core):
    anna, boris = [await p for p in people_of(core, 2)]
    for _ in range(2):
        await play_out(core, await open_game(core, "lucky", [anna, boris]), lucky_for(anna.id))
    held = await core.store.achievements_of(anna.id)  # (and what lucky's own she earned on the way)
    text = await core.stats.achievements_of(anna.id, "Anna", "en")
    lines = text.split("\n")
    assert lines[0] == f"🏅 <b>Achievements</b>: \u2068Anna\u2069, {len(held)} of {len(CATALOGUE)}"
    assert sum(line.startswith("✅") for line in lines) == len(held)
    assert "✅ 🥇 <b>First win</b> — Win a game. 🤖 · 50%" in lines
    assert "▫️ 🔥 <b>Three wins in a row</b> — Win three games in a row. 🤖 · 2/3 · 0%" in lines
    assert "▫️ 🔟 <b>Ten games</b> — Finish 10 games. 🤖 · 2/10 · 0%" in lines
    assert "✅ 🎲 <b>First game</b> — Finish a game. 🤖 · 100%" in lines
    for lang in ("en", "ru"):
        listing = await core.stats.achievements_of(anna.id, "Anna", lang)
        assert len(listing) < 4096 and listing.count("\n") < 50
    russian = await core.stats.achievements_of(boris.id, "Boris", "ru")
    assert "▫️ 🥇 <b>Первая победа</b> — Выиграть партию. 🤖 · 50%" in russian
    mine = await core.stats.person(anna.id, "Anna", "en")
    latest = BY_CODE[held[-1].code]
    assert (f"🏅 Achievements: {len(held)} of {len(CATALOGUE)} · the latest: {latest.icon} «{latest.title('en')}» · "
            "/achievements") in mine


async def test_forgetme_forgets_a_persons_achievements(core):
    anna, boris = [await p for p in people_of(core, 2)]
    await play_out(core, await open_game(core, "lucky", [anna, boris]), lucky_for(anna.id))
    await core.store.forget_user(anna.id)
    assert await core.store.achievements_of(anna.id) == []
    assert "0 of" in await core.stats.achievements_of(anna.id, "Anna", "en")
    assert await core.store.achievements_of(boris.id)
