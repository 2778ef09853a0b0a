"""What only the SQLite store does: writes asked for at once go to the database's thread
together, each its own transaction, committed in order; a file it cannot use is a StoreError.
What every store does is in test_store_contract.py."""
from __future__ import annotations

import asyncio
import copy
import sqlite3

import pytest

from bot.storage.store import PlaceTaken, Seat, StaleVersion, StoreError
from bot.storage.sqlite import SqliteStore


async def _store(tmp_path) -> SqliteStore:
    return await SqliteStore(str(tmp_path / "db.sqlite3")).open()


async def _lobbies(store: SqliteStore, n: int):
    return await asyncio.gather(*(
        store.create_game(kind="lucky", chat_id=-(100 + i), thread_id=0, host=Seat(0, 1000 + i, f"P{i}"),
                          options={}, seed=i)
        for i in range(n)))


async def test_writes_asked_for_at_once_are_each_committed(tmp_path):
    store = await _store(tmp_path)
    games = await _lobbies(store, 60)
    for game in games:
        game.options = {"note": game.chat_id}
    await asyncio.gather(*(store.save_game(g) for g in games))
    await store.close()

    store = await _store(tmp_path)  # what is on disk, not what is in memory
    try:
        stored = {g.id: g for g in await store.all_games()}
        assert len({g.id for g in games}) == 60
        for game in games:
            assert stored[game.id].options == {"note": game.chat_id}
            assert stored[game.id].version == game.version == 1
    finally:
        await store.close()


async def test_a_failing_write_among_many_fails_alone_and_leaves_the_store_usable(tmp_path):
    store = await _store(tmp_path)
    try:
        games = await _lobbies(store, 10)
        stale = copy.deepcopy(games[4])
        await store.save_game(games[4])  # now the copy's version is behind
        stale.options = {"lost": True}
        for game in games:
            game.options = {"kept": True}
        saves = [store.save_game(g) for g in games[:4]] + [store.save_game(stale)] + \
                [store.save_game(g) for g in games[5:]]
        # and a lobby where one is open already: refused, the others stand
        taken = store.create_game(kind="cones", chat_id=games[0].chat_id, thread_id=0,
                                  host=Seat(0, 1, "X"), options={}, seed=1)
        outcomes = await asyncio.gather(*saves, taken, return_exceptions=True)
        assert isinstance(outcomes[4], StaleVersion)
        assert isinstance(outcomes[-1], PlaceTaken) and outcomes[-1].game_id == games[0].id
        assert all(o is None for i, o in enumerate(outcomes[:-1]) if i != 4)
        for game in games[:4] + games[5:]:
            assert (await store.get_game(game.id)).options == {"kept": True}
        assert (await store.get_game(games[4].id)).options == {}
        # no transaction was left open: the next write goes through
        games[4].options = {"later": True}
        await store.save_game(games[4])
        assert (await store.get_game(games[4].id)).options == {"later": True}
    finally:
        await store.close()


async def test_writes_of_one_row_land_in_the_order_asked(tmp_path):
    store = await _store(tmp_path)
    try:
        await store.touch_user(7, "Anna", None, "en")
        await asyncio.gather(*(store.set_user_lang(7, lang) for lang in ["ru", "en", "ru", "en", "ru"]))
        assert (await store.user(7)).lang == "ru"
    finally:
        await store.close()


async def test_closing_waits_for_the_writes_already_asked_for(tmp_path):
    store = await _store(tmp_path)
    games = await _lobbies(store, 20)
    for game in games:
        game.options = {"last": True}
    saves = [asyncio.ensure_future(store.save_game(g)) for g in games]
    await asyncio.sleep(0)  # asked for, not yet committed
    await store.close()
    await asyncio.gather(*saves)
    store = await _store(tmp_path)
    try:
        stored = {g.id: g for g in await store.all_games()}
        assert all(stored[g.id].options == {"last": True} for g in games)
    finally:
        await store.close()


async def test_a_series_is_created_with_its_id(tmp_path):
    store = await _store(tmp_path)
    try:
        first, second = await asyncio.gather(store.create_series(-1, "lucky", 3, [1, 2]),
                                             store.create_series(-2, "cones", 2, [3, 4]))
        assert first.id != second.id
        assert (await store.series(second.id)).users == [3, 4]
    finally:
        await store.close()


async def test_a_file_it_cannot_use_is_a_store_error_and_is_left_as_it_was(tmp_path):
    with pytest.raises(StoreError, match="is a directory"):
        await SqliteStore(str(tmp_path)).open()
    path = tmp_path / "places.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="another program"):
        await SqliteStore(str(path)).open()
    assert path.read_bytes() == before


async def test_a_ping_fails_once_the_database_file_is_deleted_under_the_open_store(tmp_path):
    """The open descriptor still reads, but the file at TABLEBOT_DB is gone (a volume lost):
    what is written now is lost at the next start, so the store is not healthy."""
    path = tmp_path / "tablebot.sqlite3"
    opened = await SqliteStore(str(path)).open()
    try:
        await opened.ping()
        for leftover in tmp_path.glob("tablebot.sqlite3*"):
            leftover.unlink()
        with pytest.raises(StoreError, match="no longer the file"):
            await opened.ping()
    finally:
        await opened.close()
