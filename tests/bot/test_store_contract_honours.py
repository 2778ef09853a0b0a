"""What every store must keep of seasons and achievements (``bot/storage/honours.py``): the same
suite on SQLite (a file, in memory) and a real PostgreSQL, through the ``GameStore`` protocol."""
from __future__ import annotations

from bot.storage.store import NEWS_LEAVING, Earned, SeasonNews, SeasonTitle, Seat, Status
from tests.bot.test_store_contract import (  # noqa: F401  (the fixtures, by name)
    GROUP, OTHER_GROUP, a_rating, a_record, backend, db, finish, lobby, store)

MARCH, APRIL = "2027-03", "2027-04"


async def test_a_mark_is_kept_and_replaced(store):
    assert await store.mark("season") is None
    await store.set_mark("season", MARCH)
    await store.set_mark("season", APRIL)
    assert await store.mark("season") == APRIL and await store.mark("other") is None


# ---- a season's ratings -----------------------------------------------------------------------

async def test_a_game_is_counted_once_in_its_season_with_the_ratings_it_moved(store):
    await store.record_game(a_record(1, ended=10.0), [])
    await store.record_game(a_record(2, ended=5.0), [])
    await store.record_game(a_record(3, ended=7.0, status="cancelled"), [])  # not rated: never counted
    assert [r.game_id for r in await store.uncounted_records()] == [2, 1]
    assert [r.game_id for r in await store.uncounted_records(since=6.0)] == [1]
    assert await store.count_season_game(2, MARCH, [a_rating(1, 1570, 1), a_rating(2, 1440, 1)])
    assert not await store.count_season_game(2, MARCH, [a_rating(1, 1900, 2)])  # once
    assert await store.season_ratings(MARCH, "cones", [1, 2, 3]) == {1: a_rating(1, 1570, 1), 2: a_rating(2, 1440, 1)}
    assert await store.season_ratings(APRIL, "cones", [1]) == {} and await store.ratings("cones", [1]) == {}
    assert [r.game_id for r in await store.uncounted_records()] == [1]
    assert await store.counted_seasons() == {MARCH}


async def test_a_seasons_top_needs_enough_games_and_filters_by_the_groups_players_of_the_season(store):
    await store.touch_user(1, "Anna", None, "en")
    await store.record_game(a_record(1, ended=10.0, users=(1, 2)), [])
    await store.record_game(a_record(2, ended=50.0, users=(3, 4)), [])  # this group, another season
    await store.record_game(a_record(3, ended=10.0, chat_id=OTHER_GROUP, users=(5, 6)), [])
    await store.count_season_game(1, MARCH, [a_rating(1, 1600), a_rating(2, 1700)])
    await store.count_season_game(3, MARCH, [a_rating(5, 1800), a_rating(6, 1900, 2)])
    await store.count_season_game(2, APRIL, [a_rating(3, 2000), a_rating(4, 2000)])
    everyone = await store.season_top(MARCH, "cones", start=0, end=20, min_games=5, limit=10)
    assert [(r.user_id, name) for r, name in everyone] == [(5, "P5"), (2, "P2"), (1, "Anna")]
    here = await store.season_top(MARCH, "cones", start=0, end=20, min_games=1, limit=10, chat_id=GROUP)
    assert [r.user_id for r, _ in here] == [2, 1]
    assert [r.user_id for r, _ in await store.season_top(MARCH, "cones", start=0, end=20, min_games=1, limit=2)] \
        == [6, 5]
    assert await store.season_top(MARCH, "trio", start=0, end=20, min_games=0, limit=10) == []
    await store.forget_user(2)
    assert [r.user_id for r, _ in await store.season_top(MARCH, "cones", start=0, end=20, min_games=1, limit=10,
                                                         chat_id=GROUP)] == [1]


# ---- a season's end ---------------------------------------------------------------------------

async def test_the_groups_that_played_in_a_season_and_their_games(store):
    await store.record_game(a_record(1, ended=10.0), [])
    await store.record_game(a_record(2, ended=12.0, kind="trio"), [])
    await store.record_game(a_record(3, ended=11.0, chat_id=OTHER_GROUP, status="cancelled"), [])  # not played
    await store.record_game(a_record(4, ended=11.0, chat_id=77), [])  # a private chat
    await store.record_game(a_record(5, ended=30.0, chat_id=OTHER_GROUP), [])  # the next season
    assert await store.season_played(0, 20) == [(GROUP, 5, "cones", True), (GROUP, 5, "trio", True)]
    assert [r.game_id for r in await store.records_between(GROUP, 0, 20)] == [1, 2]
    assert [r.game_id for r in await store.records_between(GROUP, 11, 20)] == [2]
    assert len((await store.records_between(GROUP, 0, 20))[0].seats) == 3


async def test_a_season_is_closed_once_with_its_champions_and_its_messages(store):
    news = [SeasonNews(MARCH, OTHER_GROUP, 0), SeasonNews(MARCH, GROUP, 5)]  # (in the order of their ids)
    titles = [SeasonTitle(MARCH, "cones", GROUP, 1, 1612, 7), SeasonTitle(MARCH, "trio", GROUP, 2, 1530, 3)]
    assert await store.close_season(MARCH, 100.0, news, titles)
    assert not await store.close_season(MARCH, 200.0, [SeasonNews(MARCH, -5, 0)], [])  # closed already
    assert await store.closed_seasons() == {MARCH}
    assert await store.due_season_news() == news
    await store.set_season_news(MARCH, GROUP, NEWS_LEAVING)
    assert await store.due_season_news() == news[:1]
    await store.set_season_news(MARCH, OTHER_GROUP, 4321)
    assert await store.due_season_news() == []
    await store.set_season_news(MARCH, GROUP, None)  # surely not sent: due again
    assert await store.due_season_news() == news[1:]
    assert await store.season_titles(MARCH, GROUP) == titles and await store.season_titles(MARCH, -5) == []
    assert await store.close_season(APRIL, 150.0, [], [SeasonTitle(APRIL, "cones", OTHER_GROUP, 1, 1550, 5)])
    assert [(t.season, t.kind) for t in await store.titles_of(1)] == [(APRIL, "cones"), (MARCH, "cones")]
    await store.forget_user(1)
    assert await store.titles_of(1) == [] and [t.user_id for t in await store.season_titles(MARCH, GROUP)] == [2]


async def test_a_group_that_migrates_keeps_its_champions(store):
    await store.close_season(MARCH, 1.0, [], [SeasonTitle(MARCH, "cones", GROUP, 1, 1612, 7)])
    await store.migrate_chat(GROUP, -100_123)
    assert [t.chat_id for t in await store.titles_of(1)] == [-100_123]


# ---- achievements -----------------------------------------------------------------------------

async def test_an_achievement_is_granted_once_with_the_game_that_earned_it(store):
    await store.grant([Earned(1, "first_win", 10, 100.0), Earned(2, "first_win", 10, 100.0)])
    await store.grant([Earned(1, "first_win", 11, 200.0), Earned(1, "streak_3", 11, 200.0)])
    assert await store.achievements_of(1) == [Earned(1, "first_win", 10, 100.0), Earned(1, "streak_3", 11, 200.0)]
    assert await store.achievements_of_game(10) == [Earned(1, "first_win", 10, 100.0), Earned(2, "first_win", 10, 100.0)]
    assert await store.achievements_of_game(11) == [Earned(1, "streak_3", 11, 200.0)]
    await store.grant([])
    await store.record_game(a_record(1, users=(1, 2)), [])
    await store.record_game(a_record(2, users=(3,), status="cancelled"), [])  # never finished one
    assert await store.achievement_counts() == ({"first_win": 2, "streak_3": 1}, 2)
    await store.forget_user(1)
    assert await store.achievements_of(1) == []
    assert await store.achievement_counts() == ({"first_win": 1}, 1)


async def test_a_persons_history_lists_their_finished_games_oldest_first(store):
    await store.record_game(a_record(1, ended=3.0), [])
    await store.record_game(a_record(2, ended=1.0, kind="trio", users=(2, 1)), [])
    await store.record_game(a_record(3, ended=2.0, status="cancelled"), [])
    history = await store.history(1)
    assert [(h.game_id, h.kind, h.ended, h.place, h.players, h.computers, h.autoplayed, h.after) for h in history] \
        == [(2, "trio", 1.0, 2, 3, 1, False, 1490), (1, "cones", 3.0, 1, 3, 1, False, 1510)]
    assert await store.history(99) == []


async def test_every_finished_record_with_its_seats_in_the_order_they_ended(store):
    await store.record_game(a_record(1, ended=3.0), [])
    await store.record_game(a_record(2, ended=1.0), [])
    await store.record_game(a_record(3, ended=2.0, status="cancelled"), [])
    records = await store.finished_records()
    assert [r.game_id for r in records] == [2, 1]
    assert records[1] == await store.game_record(1)


async def test_the_seed_and_log_to_replay_a_game_and_none_once_pruned(store):
    game = await lobby(store)
    game.seats.append(Seat(1, 2, "P2"))
    game.state = {"turn": 0}
    await store.save_game(game, seats_changed=True)
    await store.save_game(game, action=(0, "a"))
    await store.save_game(game, action=(1, "b"), by_computer=True)
    await finish(store, game, Status.FINISHED)
    other = await lobby(store, chat_id=OTHER_GROUP)
    assert await store.replay_inputs([game.id, other.id, 999]) == {game.id: (42, [(0, "a"), (1, "b")])}
    await store.record_game(a_record(game.id, ended=10.0), [])
    await store.prune_actions(100.0)
    assert await store.replay_inputs([game.id]) == {}
