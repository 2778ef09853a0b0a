"""Which way ratings move: the recorder (bot/records/records.py) over a store, through its protocol only.

The end-to-end tests (test_records_e2e.py) play real games; these set up the finished games
whose outcome matters (a tie, teams, a computer, a seat a computer played) directly.
"""
from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.table.background import Background
from bot.words.format import fits_caption
from bot.records.rating import NEW, computer
from bot.records.records import Records
from bot.records.achievements.keeper import Achievements
from bot.records.calendar import Calendar
from bot.records.seasons import SeasonRatings
from bot.records.stats import Stats
from bot.storage.store import Seat, Status
from bot.storage.choose import make_store

GROUP = -1005


@pytest.fixture
async def store():
    opened = await make_store(":memory:").open()
    yield opened
    await opened.close()


async def finished(store, kind: str, seats: list[Seat], places: list[int], *, options=None, moves=None,
                   status=Status.FINISHED, scores=None):
    """A game that ended with ``places``; ``moves``: per seat, how many were the person's and how
    many a computer's (handed over), in the action log."""
    game = await store.create_game(kind=kind, chat_id=GROUP, thread_id=0, host=seats[0], options=options or {},
                                   seed=1)
    game.seats = seats
    game.state, game.status = {"turn": 0}, Status.RUNNING
    await store.save_game(game, seats_changed=True)
    for s in seats:
        own, auto = (moves or {}).get(s.seat, (0 if s.is_computer else 1, 1 if s.is_computer else 0))
        for _ in range(own):
            await store.save_game(game, action=(s.seat, "m"))
        for _ in range(auto):
            await store.save_game(game, action=(s.seat, "m"), by_computer=True)
    game.status = status
    default = {"lucky": lambda: [0] * len(seats), "genial": lambda: [[p] * 6 for p in places]}
    game.outcome = {"places": places, "reason": "x", "scores": scores or default.get(kind, default["lucky"])()}
    await store.save_game(game)
    return game


def people(*names: str) -> list[Seat]:
    return [Seat(i, i + 1, n) for i, n in enumerate(names)]


async def test_the_winner_goes_up_the_loser_down_and_a_second_record_changes_nothing(store):
    records = Records(store, Background())
    game = await finished(store, "lucky", people("Anna", "Boris"), [1, 2])
    record = await records.record(game)
    anna, boris = record.seats
    assert anna.after > anna.before == NEW.figure == boris.before > boris.after
    again = await records.record(game)
    assert again.seats == record.seats
    assert {u: r.games for u, r in (await store.ratings("lucky", [1, 2])).items()} == {1: 1, 2: 1}


async def test_a_tie_moves_equal_players_equally(store):
    records = Records(store, Background())
    record = await records.record(await finished(store, "lucky", people("Anna", "Boris", "Cleo"), [1, 1, 3]))
    anna, boris, cleo = record.seats
    assert anna.after == boris.after > NEW.figure > cleo.after


async def test_teams_of_genial_win_and_lose_together(store):
    records = Records(store, Background())
    game = await finished(store, "genial", people("Anna", "Boris", "Cleo", "Dan"), [1, 2, 1, 2],
                          options={"team": True})
    record = await records.record(game)
    assert [s.team for s in record.seats] == [0, 1, 0, 1]
    anna, boris, cleo, dan = record.seats
    assert anna.after == cleo.after > NEW.figure > boris.after == dan.after


async def test_computers_are_fixed_and_a_win_over_hard_is_worth_more_than_over_easy(store):
    records = Records(store, Background())
    gains = {}
    for n, level in enumerate(("easy", "hard")):
        seats = [Seat(0, 10 + n, f"P{n}"), Seat(1, -1001, "Bot 1", "computer", level=level)]
        record = await records.record(await finished(store, "lucky", seats, [1, 2]))
        assert record.rated and record.seats[1].after is None
        gains[level] = record.seats[0].after - record.seats[0].before
    assert gains["hard"] > gains["easy"] > 0
    assert await store.ratings("lucky", [-1001]) == {}
    assert computer("hard").figure > computer("normal").figure > computer("easy").figure


async def test_a_seat_a_computer_played_mostly_gains_nothing_but_may_lose(store):
    records = Records(store, Background())
    game = await finished(store, "lucky", people("Anna", "Boris", "Cleo"), [1, 2, 3],
                          moves={0: (1, 5), 1: (3, 0), 2: (1, 4)})
    anna, boris, cleo = (await records.record(game)).seats
    assert anna.autoplayed and cleo.autoplayed and not boris.autoplayed
    assert anna.after == anna.before  # won, but a computer played it
    assert cleo.after < cleo.before  # lost: it counts


async def test_not_rated_cancelled_solo_and_games_no_person_played(store):
    records = Records(store, Background())
    cancelled = await finished(store, "lucky", people("Anna", "Boris"), [1, 2], status=Status.CANCELLED)
    solo = await finished(store, "genial", people("Anna"), [1])
    nobody = await finished(store, "lucky", people("Anna", "Boris"), [1, 2], moves={0: (0, 3), 1: (0, 3)})
    for game in (cancelled, solo, nobody):
        record = await records.record(game)
        assert not record.rated and all(s.after is None for s in record.seats)
    assert (await store.game_record(cancelled.id)).status == "cancelled"
    assert await store.ratings("lucky", [1, 2]) == {} and await store.ratings("genial", [1]) == {}


async def draw_here(job) -> bytes:
    return job()  # the drawing process's work, in this process: the job is the same


async def test_the_rating_chart_needs_two_rated_games_of_some_game(store):
    records, stats = Records(store, Background()), Stats(store, None, None, SeasonRatings(store, Calendar()), Achievements(store), render=draw_here)
    await records.record(await finished(store, "lucky", people("Anna", "Boris"), [1, 2]))
    await records.record(await finished(store, "trio", people("Anna", "Boris"), [2, 1]))
    assert await stats.chart(1, "Anna", "ru") is None  # one game of each: steps, not trends
    await records.record(await finished(store, "lucky", people("Anna", "Boris"), [2, 1]))
    picture = await stats.chart(1, "Anna", "ru")
    image = Image.open(io.BytesIO(await picture()))
    assert image.size == (800, 520)


def test_a_caption_counts_what_telegram_shows():
    assert fits_caption("<b>" + "я" * 1024 + "</b>") and fits_caption("&lt;" * 1024)
    assert not fits_caption("я" * 1025) and not fits_caption("🥇" * 513)  # two UTF-16 units each
