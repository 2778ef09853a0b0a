"""What the bot keeps in memory does not grow with everyone and every chat it has ever seen: a
game's scratch goes with the game, a chat's lock with its last update, a page's wait with the
page, and the caches of people and rows keep the newest only."""
from __future__ import annotations

import asyncio

from telegram import Chat, Update, User, Message

from bot.app import ChatOrderedProcessor
from bot.table import people as people_module
from bot.webapp.live import Live
from bot.storage import sql
from tests.bot.recording import build_core
from tests.bot.test_core import lobby_with


def _update(n: int, chat_id: int) -> Update:
    chat = Chat(chat_id, "group" if chat_id < 0 else "private")
    message = Message(n, None, chat, from_user=User(n, "P", False), text="/help")
    return Update(n, message=message)


async def test_a_chats_lock_goes_with_its_last_update_and_order_holds():
    processor = ChatOrderedProcessor()
    seen: dict[int, list[int]] = {}

    async def handle(chat_id: int, n: int) -> None:
        await asyncio.sleep(0.001 * (n % 3))
        seen.setdefault(chat_id, []).append(n)

    updates = [(n, -100 - n % 50) for n in range(500)]
    await asyncio.gather(*(processor.do_process_update(_update(n, chat), handle(chat, n)) for n, chat in updates))
    assert all(order == sorted(order) for order in seen.values())  # each chat in order
    assert len(seen) == 50 and processor._locks == {}


async def test_a_page_that_stops_waiting_leaves_nothing_behind():
    live = Live()
    woken = await asyncio.gather(*(live.wait(game_id, 0.01) for game_id in range(200)))
    assert not any(woken) and live._waking == {}


async def test_the_caches_of_people_and_rows_keep_the_newest_only(monkeypatch, tmp_path):
    monkeypatch.setattr(people_module, "KEPT", 5)
    monkeypatch.setattr(sql, "CACHED_ROWS", 5)
    core = await build_core()
    try:
        for n in range(1, 40):
            person = await core.person(n, f"P{n}")
            await core.people.remember(person)
            await core.people.chat_lang(-n)
        assert len(core.people._seen) <= 5 and len(core.people._known) <= 5 and len(core.people._langs) <= 5
        assert len(core.store._users) <= 5 and len(core.store._chats) <= 5
        # Forgotten from memory, not from the store: the person is read again as they were.
        assert (await core.store.user(1)).name == "P1"
    finally:
        await core.close()


async def test_a_games_scratch_goes_with_the_game():
    core = await build_core()
    try:
        match, people = await lobby_with(core, "cones", 2)
        await core.lobby.start(match, people[0])
        match.scratch.paths["table"] = "c.b"
        match.scratch.looked[people[0].id] = 1.0
        await core.lobby.cancel_game(match, by="P1")
        await core.idle()
        assert core.book.cached(match.id) is None  # let go, with everything kept of it
        fresh = await core.book.load(match.id)
        assert fresh is not match and fresh.scratch.paths == {} and fresh.scratch.looked == {}
    finally:
        await core.close()
