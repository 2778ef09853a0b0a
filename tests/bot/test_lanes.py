"""An answer never waits behind a write: answers to presses have connections of their own, and
writes that cannot get one of theirs wait in the pacer (not in the HTTP pool)."""
from __future__ import annotations

import bot.app
from tests.bot.harness import BotRunner, Player, button_data

GROUPS = [-100901, -100902, -100903, -100904]
WRITE_SECONDS = 4.0  # how long Telegram takes for each write below (under the client's 5 s time-out)


async def test_writes_filling_their_connections_hold_up_no_answer(fake, tmp_path, monkeypatch):
    monkeypatch.setattr(bot.app, "WRITES_IN_FLIGHT", 2)  # two connections for writes, two in flight
    runner = await BotRunner(fake, tmp_path / "db.sqlite3").start()
    try:
        anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")
        for chat in GROUPS:
            fake.add_group(chat, f"Group {chat}")
        await anna.say(GROUPS[0], "/new lucky")
        lobby = fake.last_bot_message(GROUPS[0])
        before = len(fake.calls("sendMessage"))

        def replies() -> list:
            return fake.calls("sendMessage")[before:]
        # From now on Telegram takes its time over every write, and answers presses at once.
        fake.set_faults(1.0, ("slow",), methods={"sendMessage", "editMessageText"}, slow_seconds=WRITE_SECONDS)
        for chat in GROUPS[1:]:  # three replies: two fill the writes' connections, one waits
            fake.user_sends(anna.id, chat, "/help")
        held = await fake.wait_for(lambda: len(replies()) >= 2 and replies())
        qid = fake.user_presses(boris.id, GROUPS[0], lobby.message_id, button_data(lobby, text="Join"))
        await fake.wait_for(lambda: fake.callback_answer(qid), timeout=10)
        answered = next(r for r in fake.calls("answerCallbackQuery") if r.params["callback_query_id"] == qid)
        assert answered.time < min(r.time for r in held[:2]) + WRITE_SECONDS, "the answer waited for a write"
        assert "joined" in fake.callback_answer(qid)["text"]
        # The third reply and the lobby's edit waited in the pacer, not in the HTTP pool.
        assert len(replies()) == 2 and not fake.calls("editMessageText")
        assert runner.bot.messenger.pacer.flying == 2
        fake.set_faults(0)
        await runner.idle(timeout=30)
        assert len(replies()) == 3  # then everything went out
        assert "Boris" in fake.message(GROUPS[0], lobby.message_id).text
    finally:
        fake.set_faults(0)
        await runner.stop()
