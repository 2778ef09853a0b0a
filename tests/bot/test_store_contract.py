"""What every store must do: one suite, run on each implementation of ``bot.storage.store.GameStore``.

Each test opens its store with ``make_store(TABLEBOT_DB value)`` and uses the protocol only (no
SQL, no private attributes), so a new database passes when it joins ``BACKENDS``.
"""
from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from typing import Callable

import pytest

from bot.storage.store import (
    UNKNOWN_MESSAGE, Chat, inline_chat, is_inline_chat, GameRecord, GameStore, PlaceTaken, Rating, RecordSeat, Seat, Series, StaleVersion, Status, StoreError, User,
)
from bot.storage.choose import make_store
from bot.storage.migrations import MIGRATIONS


@dataclass(frozen=True)
class Backend:
    name: str
    new_db: Callable[[pytest.FixtureRequest], str]  # the TABLEBOT_DB value of a new, empty database
    latest_schema: int = len(MIGRATIONS)
    shared: bool = True  # a second store opened on the same value sees the same database


BACKENDS = [
    Backend("sqlite-file", lambda request: str(request.getfixturevalue("tmp_path") / "tablebot.sqlite3")),
    Backend("sqlite-memory", lambda request: ":memory:", shared=False),
    Backend("postgresql", lambda request: request.getfixturevalue("postgres_url")),  # a real server
]

GROUP, OTHER_GROUP = -1001, -1002


@pytest.fixture(params=BACKENDS, ids=lambda b: b.name)
def backend(request) -> Backend:
    return request.param


@pytest.fixture
def db(backend, request) -> str:
    return backend.new_db(request)


@pytest.fixture
async def store(db):
    opened = await make_store(db).open()
    yield opened
    await opened.close()


@pytest.fixture
def shared(backend) -> None:
    """For tests that open a second store on the same database."""
    if not backend.shared:
        pytest.skip(f"{backend.name}: each store has a database of its own")


async def lobby(store: GameStore, chat_id: int = GROUP, thread_id: int = 0, host: int = 1, **kw):
    return await store.create_game(kind="lucky", chat_id=chat_id, thread_id=thread_id,
                                   host=Seat(0, host, f"P{host}"), options={"rounds": 3}, seed=42, **kw)


async def finish(store: GameStore, game, status: Status = Status.FINISHED) -> None:
    game.status = status
    await store.save_game(game)


# ---- opening ---------------------------------------------------------------------------------

async def test_a_new_store_is_at_the_latest_schema_version(store, backend):
    assert await store.schema_version() == backend.latest_schema
    assert await store.all_games() == [] and await store.open_games() == []


async def test_opening_the_same_database_again_changes_nothing(db, shared):
    first = await make_store(db).open()
    game = await lobby(first)
    await first.save_game(game, action=(0, "draw"))
    await first.touch_user(1, "Anna", "anna", "ru")
    await first.set_chat(GROUP, lang="ru", title="Game night", settings={"turn_timeout": 5})
    version = await first.schema_version()
    await first.close()
    for _ in range(2):
        again = await make_store(db).open()
        try:
            assert await again.schema_version() == version
            assert await again.all_games() == [game]
            assert await again.actions(game.id) == [(0, 0, "draw")]
            assert await again.user(1) == User(1, "Anna", "anna", "ru", False, False, True, None)
            assert await again.chat(GROUP) == Chat(GROUP, "ru", {"turn_timeout": 5}, "Game night")
        finally:
            await again.close()


async def test_what_a_write_returned_from_is_committed_for_another_store(store, db, shared):
    game = await lobby(store)
    game.state = {"turn": 1}
    await store.save_game(game, action=(0, "draw"))
    game.table_msg = 77
    await store.save_messages(game)
    await store.set_private_ok(1, True)
    await store.set_chat_setting(GROUP, "lobby_timeout", 10)
    series = await store.create_series(GROUP, "lucky", 3, [1, 2])
    other = await make_store(db).open()  # while the first is still open: nothing waits for close()
    try:
        assert await other.get_game(game.id) == game
        assert await other.actions(game.id) == [(0, 0, "draw")]
        assert (await other.user(1)).private_ok
        assert (await other.chat(GROUP)).settings == {"lobby_timeout": 10}
        assert await other.series(series.id) == series
    finally:
        await other.close()


# ---- games -----------------------------------------------------------------------------------

async def test_create_game_returns_a_lobby_with_its_host_seat(store):
    game = await lobby(store, thread_id=3, host=5)
    assert (game.kind, game.chat_id, game.thread_id, game.host_id) == ("lucky", GROUP, 3, 5)
    assert game.status == Status.LOBBY and game.version == 0 and game.state is None
    assert (game.options, game.seed, game.series_id) == ({"rounds": 3}, 42, None)
    assert (game.lobby_msg, game.table_msg, game.results_msg, game.outcome) == (None, None, None, None)
    assert game.seats == [Seat(0, 5, "P5")]
    assert await store.get_game(game.id) == game
    assert await store.get_game(game.id + 1000) is None


async def test_one_open_game_per_chat_and_forum_thread(store):
    first = await lobby(store)
    with pytest.raises(PlaceTaken) as taken:
        await lobby(store, host=2)
    assert taken.value.game_id == first.id
    in_thread = await lobby(store, thread_id=7, host=2)  # another forum topic of the same group
    elsewhere = await lobby(store, chat_id=OTHER_GROUP, host=3)
    assert len({first.id, in_thread.id, elsewhere.id}) == 3
    assert [g.id for g in await store.all_games()] == [first.id, in_thread.id, elsewhere.id]
    first.status = Status.RUNNING
    await store.save_game(first)
    with pytest.raises(PlaceTaken):  # a running game holds its place too
        await lobby(store, host=2)
    await finish(store, first)
    await finish(store, in_thread, Status.CANCELLED)
    await lobby(store, host=2)  # a finished game leaves its place free
    await lobby(store, thread_id=7, host=2)  # and so does a cancelled one


async def test_a_game_on_an_inline_message_is_found_by_it_and_takes_one_message(store):
    chat = inline_chat("-4096123")
    assert is_inline_chat(chat) and not is_inline_chat(GROUP) and chat == inline_chat("-4096123")
    game = await store.create_game(kind="cones", chat_id=chat, thread_id=0, host=Seat(0, 1, "Anna"),
                                   options={}, seed=1, inline_msg="AgAAAB9x")
    assert game.inline and game.inline_msg == "AgAAAB9x" and (await store.get_game(game.id)).inline_msg == "AgAAAB9x"
    assert (await store.game_on_inline("AgAAAB9x")).id == game.id and await store.game_on_inline("other") is None
    await finish(store, game)
    with pytest.raises(PlaceTaken) as taken:  # one game a message, also after its end
        await store.create_game(kind="lucky", chat_id=inline_chat("-77"), thread_id=0, host=Seat(0, 2, "Bo"),
                                options={}, seed=2, inline_msg="AgAAAB9x")
    assert taken.value.game_id == game.id
    assert not (await lobby(store)).inline  # a chat's game has no inline message


async def test_save_game_writes_the_game_and_bumps_its_version(store):
    series = await store.create_series(GROUP, "lucky", 2, [1, 2])
    game = await lobby(store)
    game.status, game.host_id, game.options = Status.RUNNING, 2, {"rounds": 5}
    game.state, game.last_events = {"turn": 1, "board": [1, 2]}, [{"kind": "Drew", "seat": 0}]
    game.outcome, game.series_id, game.idle_turns = {"places": [1, 2]}, series.id, 2
    await store.save_game(game)
    assert game.version == 1
    assert await store.get_game(game.id) == game
    await store.save_game(game)
    assert game.version == 2 and (await store.get_game(game.id)).version == 2


async def test_a_save_from_a_stale_copy_is_refused_and_changes_nothing(store):
    game = await lobby(store)
    stale = copy.deepcopy(game)
    game.state = {"turn": 1}
    await store.save_game(game, action=(0, "first"))
    stale.state, stale.options = {"turn": 99}, {"lost": True}
    stale.seats.append(Seat(1, 2, "P2"))
    with pytest.raises(StaleVersion):
        await store.save_game(stale, action=(0, "lost"), seats_changed=True)
    with pytest.raises(StaleVersion):  # a move alone (the common save)
        await store.save_game(stale, action=(0, "lost"))
    assert stale.version == 0  # the caller's copy is not bumped either
    assert await store.get_game(game.id) == game
    assert await store.actions(game.id) == [(0, 0, "first")]


async def test_actions_are_appended_in_order_numbered_by_the_version_they_were_made_on(store):
    game, other = await lobby(store), await lobby(store, chat_id=OTHER_GROUP)
    await store.save_game(game, action=(0, "draw"))
    await store.save_game(other, action=(0, "bank"))
    await store.save_game(game, action=(1, "bank"))
    await store.save_game(game)  # a save without a move (a timer, a seat change) logs nothing
    await store.save_game(game, action=(0, "draw.2"))
    assert await store.actions(game.id) == [(0, 0, "draw"), (1, 1, "bank"), (3, 0, "draw.2")]
    assert await store.actions(other.id) == [(0, 0, "bank")]


async def test_seats_are_replaced_only_when_they_changed(store):
    game = await lobby(store)
    game.seats = [Seat(0, 1, "P1", dm_msg=10, dm_version=0),
                  Seat(1, 2, "Boris", dm_msg=11, level="easy", dm_version=1),  # handed over
                  Seat(2, -3, "Bot", kind="computer", level="hard")]
    await store.save_game(game, seats_changed=True)
    assert (await store.get_game(game.id)).seats == game.seats
    kept = copy.deepcopy(game.seats)
    game.seats = game.seats[:1]
    await store.save_game(game)
    assert (await store.get_game(game.id)).seats == kept
    game.seats = [Seat(0, 2, "Boris")]  # the host left: one seat, another person
    await store.save_game(game, seats_changed=True)
    assert (await store.get_game(game.id)).seats == [Seat(0, 2, "Boris")]


async def test_save_messages_stores_message_ids_and_versions_without_a_new_version(store):
    game = await lobby(store)
    game.seats.append(Seat(1, 2, "P2"))
    await store.save_game(game, seats_changed=True)
    game.lobby_msg, game.table_msg, game.results_msg, game.table_version = 5, 6, 7, 1
    game.seats[0].dm_msg, game.seats[0].dm_version = 8, 1
    game.seats[1].dm_msg, game.seats[1].result_sent = 9, True
    game.options = {"not": "saved"}  # game logic goes through save_game only
    await store.save_messages(game)
    stored = await store.get_game(game.id)
    assert (stored.lobby_msg, stored.table_msg, stored.results_msg, stored.table_version) == (5, 6, 7, 1)
    assert [(s.dm_msg, s.dm_version, s.result_sent) for s in stored.seats] == [(8, 1, False), (9, 0, True)]
    assert not stored.end_shown
    game.end_shown = True  # its end is shown: the results and each person's own
    await store.save_messages(game)
    assert (await store.get_game(game.id)).end_shown is True
    assert stored.version == game.version == 1 and stored.options == {"rounds": 3}
    await store.save_game(game)  # the version read is still the one stored
    assert (await store.get_game(game.id)).options == {"not": "saved"}


async def test_queries_select_what_their_names_say(store):
    running = await lobby(store, host=1)
    running.seats.append(Seat(1, 2, "P2"))
    running.status = Status.RUNNING
    await store.save_game(running, seats_changed=True)
    waiting = await lobby(store, thread_id=4, host=2)
    unshown = await lobby(store, chat_id=OTHER_GROUP, host=1)
    await finish(store, unshown)
    shown = await lobby(store, chat_id=OTHER_GROUP, thread_id=1, host=1)
    shown.results_msg, shown.end_shown = 50, True
    await store.save_messages(shown)
    await finish(store, shown)
    cancelled = await lobby(store, chat_id=OTHER_GROUP, thread_id=2, host=2)
    await finish(store, cancelled, Status.CANCELLED)

    ids = lambda games: [g.id for g in games]  # noqa: E731
    assert ids(await store.open_games()) == [running.id, waiting.id]
    assert ids(await store.open_games_of(2)) == [running.id, waiting.id]
    assert ids(await store.open_games_of(1)) == [running.id]
    assert await store.open_games_of(9) == []
    assert (await store.open_game_at(GROUP)) == running
    assert (await store.open_game_at(GROUP, 4)) == waiting
    assert await store.open_game_at(GROUP, 5) is None
    assert await store.open_game_at(OTHER_GROUP) is None  # finished
    assert await store.open_game_at(OTHER_GROUP, 2) is None  # cancelled
    assert ids(await store.unshown_ends()) == [unshown.id]
    assert ids(await store.all_games()) == [running.id, waiting.id, unshown.id, shown.id, cancelled.id]
    assert await store.games_by_status() == {"running": 1, "lobby": 1, "finished": 2, "cancelled": 1}


async def test_an_open_store_answers_a_ping_and_a_closed_one_raises_store_error(db):
    opened = await make_store(db).open()
    assert await opened.games_by_status() == {}
    assert await opened.ping() is None
    await opened.close()
    with pytest.raises(StoreError):
        await opened.ping()


async def test_migrate_chat_moves_games_series_and_the_chat_and_clears_message_ids(store):
    series = await store.create_series(GROUP, "lucky", 3, [1, 2])
    old = await lobby(store, series_id=series.id)
    await finish(store, old)
    old.results_msg, old.end_shown = 9, True
    await store.save_messages(old)
    game = await lobby(store, thread_id=0, host=2, series_id=series.id)
    game.lobby_msg, game.table_msg, game.seats[0].dm_msg = 3, 4, 5
    await store.save_messages(game)
    untouched = await lobby(store, chat_id=OTHER_GROUP)
    await store.set_chat(GROUP, lang="ru", title="Game night", settings={"turn_timeout": 5})
    new_id = -1009999

    assert sorted(await store.migrate_chat(GROUP, new_id)) == [old.id, game.id]
    moved = await store.open_game_at(new_id)
    assert moved.id == game.id and moved.chat_id == new_id and moved.version == game.version
    assert (moved.lobby_msg, moved.table_msg, moved.results_msg) == (None, None, None)
    assert moved.seats[0].dm_msg == 5  # a private message is not in the group
    assert (await store.get_game(old.id)).chat_id == new_id
    # Its results were posted: still posted (the id is unknown there), never posted again.
    assert (await store.get_game(old.id)).results_msg == UNKNOWN_MESSAGE
    assert old.id not in [g.id for g in await store.unshown_ends()]
    assert await store.open_game_at(GROUP) is None
    assert (await store.get_game(untouched.id)).chat_id == OTHER_GROUP
    assert (await store.series(series.id)).chat_id == new_id
    assert await store.chat(new_id) == Chat(new_id, "ru", {"turn_timeout": 5}, "Game night")
    assert await store.migrate_chat(GROUP, new_id) == []


# ---- users -----------------------------------------------------------------------------------

async def test_touch_user_creates_and_updates_a_person_but_not_a_chosen_language(store):
    assert await store.user(1) is None
    await store.touch_user(1, "Anna", "anna", "ru")
    assert await store.user(1) == User(1, "Anna", "anna", "ru", lang_chosen=False, private_ok=False,
                                       notify=True, ping_msg=None)
    await store.touch_user(1, "Anna K", None, "en")  # not chosen: the app's language follows
    assert await store.user(1) == User(1, "Anna K", None, "en", False, False, True, None)
    await store.set_user_lang(1, "ru")
    assert await store.user(1) == User(1, "Anna K", None, "ru", True, False, True, None)
    await store.touch_user(1, "Anna", "anna", "en")  # chosen: kept
    assert await store.user(1) == User(1, "Anna", "anna", "ru", True, False, True, None)


async def test_a_persons_settings_are_kept_and_a_touch_does_not_reset_them(store):
    await store.touch_user(1, "Anna", None, "en")
    await store.set_private_ok(1, True)
    await store.set_notify(1, False)
    await store.set_ping(1, 321)
    assert await store.user(1) == User(1, "Anna", None, "en", False, True, False, 321)
    await store.touch_user(1, "Anna", None, "en")
    assert await store.user(1) == User(1, "Anna", None, "en", False, True, False, 321)
    await store.set_private_ok(1, False)
    await store.set_notify(1, True)
    await store.set_ping(1, None)
    assert await store.user(1) == User(1, "Anna", None, "en", False, False, True, None)


async def test_set_private_ok_on_an_unknown_person_creates_them(store):
    await store.set_private_ok(2, True)
    user = await store.user(2)
    assert user is not None and user.user_id == 2 and user.private_ok and user.notify and not user.lang_chosen
    await store.touch_user(2, "Boris", "boris", "en")  # the name comes later
    assert await store.user(2) == User(2, "Boris", "boris", "en", False, True, True, None)


async def test_a_user_record_cannot_be_changed_by_its_reader(store):
    await store.touch_user(1, "Anna", None, "en")
    with pytest.raises(dataclasses.FrozenInstanceError):
        (await store.user(1)).notify = False


# ---- chats -----------------------------------------------------------------------------------

async def test_set_chat_changes_what_it_is_given_and_keeps_the_rest(store):
    assert await store.chat(GROUP) is None
    await store.set_chat(GROUP, lang="ru", title="Game night")
    assert await store.chat(GROUP) == Chat(GROUP, "ru", {}, "Game night")
    await store.set_chat(GROUP, title="Games")
    await store.set_chat(GROUP, settings={"turn_timeout": 5})
    assert await store.chat(GROUP) == Chat(GROUP, "ru", {"turn_timeout": 5}, "Games")
    assert await store.chat(OTHER_GROUP) is None


async def test_set_chat_setting_merges_into_the_settings(store):
    await store.set_chat_setting(GROUP, "lobby_timeout", 10)  # a chat not seen before
    assert await store.chat(GROUP) == Chat(GROUP, None, {"lobby_timeout": 10}, None)
    await store.set_chat(GROUP, lang="en", title="Game night")
    await store.set_chat_setting(GROUP, "turn_timeout", 0)
    await store.set_chat_setting(GROUP, "lobby_timeout", 20)
    assert await store.chat(GROUP) == Chat(GROUP, "en", {"lobby_timeout": 20, "turn_timeout": 0}, "Game night")


async def test_changing_a_returned_settings_dict_changes_nothing_in_the_store(store):
    await store.set_chat_setting(GROUP, "lobby_timeout", 10)
    chat = await store.chat(GROUP)
    chat.settings["lobby_timeout"] = 99
    chat.settings["turn_timeout"] = 1
    assert (await store.chat(GROUP)).settings == {"lobby_timeout": 10}


# ---- caches ----------------------------------------------------------------------------------

async def test_a_read_after_a_write_sees_the_write(store):
    await store.touch_user(1, "Anna", None, "en")
    await store.set_chat(GROUP, lang="en", title="Game night")
    for notify in (False, True, False):
        assert (await store.user(1)).notify is not notify
        await store.set_notify(1, notify)
        assert (await store.user(1)).notify is notify
    for lang in ("ru", "en"):
        await store.chat(GROUP)
        await store.set_chat(GROUP, lang=lang)
        assert (await store.chat(GROUP)).lang == lang
    assert await store.chat(-1009999) is None
    game = await lobby(store)
    await store.migrate_chat(GROUP, -1009999)
    assert (await store.chat(-1009999)).title == "Game night"
    assert (await store.get_game(game.id)).chat_id == -1009999


# ---- series ----------------------------------------------------------------------------------

async def test_a_series_round_trips(store):
    series = await store.create_series(GROUP, "lucky", 3, [1, 2])
    assert series == Series(series.id, GROUP, "lucky", 3, 0, [1, 2], {"1": 0, "2": 0}, [])
    assert await store.series(series.id) == series
    game = await lobby(store, series_id=series.id)
    series.played, series.points, series.counted = 1, {"1": 7, "2": 3}, [game.id]
    await store.save_series(series)
    assert await store.series(series.id) == series
    assert await store.series(series.id + 1000) is None
    assert (await store.get_game(game.id)).series_id == series.id


# ---- records and ratings ---------------------------------------------------------------------

def a_record(game_id: int, chat_id: int = GROUP, users=(1, 2), *, kind: str = "cones", ended: float = 1.0,
             status: str = "finished") -> GameRecord:
    seats = [RecordSeat(i, u, f"P{u}", place=i + 1, score=10 - i, team=i, before=1500, after=1510 - 20 * i, games=1)
             for i, u in enumerate(users)]
    seats.append(RecordSeat(len(users), -1001, "Bot 1", kind="computer", level="hard", place=len(users) + 1,
                            team=len(users)))
    return GameRecord(game_id, kind, chat_id, 5, status, status == "finished", {"equal": True}, None, 0.5, ended,
                      seats)


def a_rating(user_id: int, figure: int, games: int = 5, kind: str = "cones") -> Rating:
    return Rating(user_id, kind, 25.0 + figure / 100, 3.0, figure, games)


async def test_moves_say_whether_a_computer_made_them(store):
    game = await lobby(store)
    game.seats.append(Seat(1, 2, "P2"))
    game.state = {"turn": 0}
    await store.save_game(game, seats_changed=True)
    await store.save_game(game, action=(0, "a"))  # the person
    await store.save_game(game, action=(1, "b"), by_computer=True)  # a computer plays seat 1
    await store.save_game(game, action=(0, "c"), by_computer=True)  # the turn timer moved for seat 0
    assert await store.move_counts(game.id) == {0: (2, 1), 1: (1, 1)}


async def test_a_game_is_recorded_once_with_its_ratings(store):
    record = a_record(7)
    assert await store.record_game(record, [a_rating(1, 1510), a_rating(2, 1490)])
    assert not await store.record_game(a_record(7, users=(3, 4)), [a_rating(3, 1700)])
    assert await store.game_record(7) == record
    assert await store.game_record(8) is None
    assert (await store.ratings("cones", [1, 2, 3])) == {1: a_rating(1, 1510), 2: a_rating(2, 1490)}
    assert await store.ratings("lucky", [1]) == {}


async def test_games_over_without_a_record_are_listed_in_the_order_they_ended(store):
    first, second, lobby_only = await lobby(store), await lobby(store, chat_id=OTHER_GROUP), await lobby(store, chat_id=-9)
    second.state = first.state = {"turn": 1}
    await finish(store, second)
    await finish(store, first, Status.CANCELLED)
    await finish(store, lobby_only, Status.CANCELLED)  # never began: nothing to record
    assert [g.id for g in await store.unrecorded_games()] == [second.id, first.id]
    await store.record_game(a_record(second.id), [])
    assert [g.id for g in await store.unrecorded_games()] == [first.id]


async def test_chat_records_counts_and_a_persons_games(store):
    await store.record_game(a_record(1, ended=1), [])
    await store.record_game(a_record(2, ended=3, kind="trio"), [])
    await store.record_game(a_record(3, ended=2, status="cancelled"), [])
    await store.record_game(a_record(4, chat_id=OTHER_GROUP, users=(1, 3)), [])
    assert [r.game_id for r in await store.chat_records(GROUP, 10)] == [2, 3, 1]
    assert [r.game_id for r in await store.chat_records(GROUP, 2)] == [2, 3]
    assert await store.chat_counts(GROUP) == {"cones": 1, "trio": 1}
    played = await store.played(1)
    assert [(p.kind, p.place, p.players, p.score, p.status) for p in played] == [
        ("cones", 1, 3, 10, "finished"), ("cones", 1, 3, 10, "finished"), ("cones", 1, 3, 10, "cancelled"),
        ("trio", 1, 3, 10, "finished")]


async def test_rating_history_lists_a_persons_rated_games_oldest_first(store):
    await store.record_game(a_record(1, ended=3), [])
    await store.record_game(a_record(2, ended=1, kind="trio", users=(2, 1)), [])
    await store.record_game(a_record(3, ended=2, status="cancelled"), [])  # not rated
    await store.record_game(a_record(4, ended=4, chat_id=OTHER_GROUP, users=(3, 4)), [])  # not theirs
    history = await store.rating_history(1)
    assert [(h.kind, h.before, h.after, h.games, h.ended) for h in history] == [
        ("trio", 1500, 1490, 1, 1.0), ("cones", 1500, 1510, 1, 3.0)]
    assert await store.rating_history(-1001) == []  # a computer's rating never moves
    await store.forget_user(1)
    assert await store.rating_history(1) == []
    assert [h.after for h in await store.rating_history(2)] == [1510, 1490]


async def test_top_orders_by_figure_needs_enough_games_and_filters_by_chat(store):
    await store.touch_user(1, "Anna", None, "en")
    await store.record_game(a_record(1, users=(1, 2)), [a_rating(1, 1600), a_rating(2, 1700)])
    await store.record_game(a_record(2, chat_id=OTHER_GROUP, users=(3, 4)), [a_rating(3, 1800), a_rating(4, 1900, 2)])
    top = await store.top("cones", min_games=5, limit=10)
    assert [(r.user_id, name) for r, name in top] == [(3, "P3"), (2, "P2"), (1, "Anna")]
    assert [r.user_id for r, _ in await store.top("cones", min_games=5, limit=10, chat_id=GROUP)] == [2, 1]
    assert [r.user_id for r, _ in await store.top("cones", min_games=1, limit=2)] == [4, 3]
    assert await store.top("trio", min_games=0, limit=10) == []


async def test_forget_user_leaves_a_nameless_seat_and_no_rating(store):
    game = await lobby(store, host=2)
    game.state = {"turn": 1}
    await finish(store, game)
    await store.record_game(a_record(game.id), [a_rating(1, 1600), a_rating(2, 1700)])
    await store.forget_user(2)
    assert (await store.user(2)).forgotten and not (await store.user(1) or User(1, "", None, None, False, False,
                                                                                 True, None)).forgotten
    assert list(await store.ratings("cones", [1, 2])) == [1]
    seats = (await store.game_record(game.id)).seats
    assert (seats[1].user_id, seats[1].name, seats[1].after) == (None, None, None)
    assert seats[0].name == "P1"
    assert (await store.get_game(game.id)).seats[0].name == ""  # the game's own seat too
    assert await store.played(2) == []


async def test_forget_chat_empties_its_records_for_good_and_keeps_ratings(store):
    game = await lobby(store)
    game.state = {"turn": 1}
    await finish(store, game)
    await store.record_game(a_record(game.id), [a_rating(1, 1600)])
    await store.record_game(a_record(99, chat_id=OTHER_GROUP), [])
    assert await store.forget_chat(GROUP) == 1
    assert await store.chat_records(GROUP, 10) == [] and await store.chat_counts(GROUP) == {}
    assert await store.unrecorded_games() == []  # not recorded again
    assert await store.ratings("cones", [1])
    assert [r.game_id for r in await store.chat_records(OTHER_GROUP, 10)] == [99]


async def test_prune_actions_deletes_old_logs_of_recorded_games_only(store):
    old, new, open_ = await lobby(store), await lobby(store, chat_id=OTHER_GROUP), await lobby(store, chat_id=-9)
    for game in (old, new, open_):
        await store.save_game(game, action=(0, "x"))
    await store.record_game(a_record(old.id, ended=100.0), [])
    await store.record_game(a_record(new.id, ended=300.0), [])
    assert await store.prune_actions(200.0) == 1
    assert await store.actions(old.id) == []
    assert len(await store.actions(new.id)) == 1 and len(await store.actions(open_.id)) == 1


# ---- the owner's figures ---------------------------------------------------------------------

async def test_activity_counts_people_who_joined_or_played_and_games_finished_since_a_time(store):
    import time
    before = time.time() - 1
    await lobby(store, chat_id=-7, host=9)
    assert await store.activity(before) == (1, 0)
    assert await store.activity(time.time() + 60) == (0, 0)  # nothing written after then
    game = await lobby(store, host=1)
    game.seats += [Seat(1, 2, "P2"), Seat(2, -1, "🤖 Bot", kind="computer")]
    await store.save_game(game, seats_changed=True)
    other = await lobby(store, chat_id=OTHER_GROUP, host=2)  # person 2 again: counted once
    await finish(store, game)
    await finish(store, other, Status.CANCELLED)
    assert await store.activity(before) == (3, 1)

