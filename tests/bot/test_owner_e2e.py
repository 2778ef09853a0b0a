"""The owner's commands end to end (TABLEBOT_OWNER_ID): /botstats gives the owner the figures,
/broadcast_maintenance warns exactly the groups with an open game, once, after the owner
confirms; for anyone else (and in a group) both are unknown commands; the owner's private chat
lists them in its command menu."""
from __future__ import annotations

import asyncio
import logging

import pytest

from bot.words.i18n import t
from bot.words.names import in_text
from bot.ops.owner import NOTICE
from bot.updates import router
from bot.updates.owner import OwnerRoutes
from tests.bot.harness import BotRunner, Player, button_data, buttons, play_against_a_computer, start_game

OWNER = 4242
BOT = "tablebot_test_bot"
RUNNING, LOBBY, QUIET = -100501, -100502, -100503


@pytest.fixture
async def owned(fake, tmp_path):
    bot = BotRunner(fake, tmp_path / "tablebot.sqlite3", owner_id=OWNER)
    await bot.start()
    yield bot
    await bot.stop()


async def world(fake, runner, *, finished: bool = True):
    """A running lucky game in one group, an open cones lobby in a Russian group, a group whose
    game was cancelled, a game against a computer in private (played to its end, or else just
    started); the owner, who has opened the private chat."""
    for chat_id, title in ((RUNNING, "Fridays"), (LOBBY, "Пятницы"), (QUIET, "Quiet")):
        fake.add_group(chat_id, title)
    anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")
    clara, dima = Player(fake, runner, 3, "Clara", lang="ru"), Player(fake, runner, 4, "Dima")
    owner = Player(fake, runner, OWNER, "Olga")
    for person in (anna, boris, clara, dima, owner):
        await person.start_private()
    await start_game(fake, runner, RUNNING, "lucky", [anna, boris])
    await clara.say(LOBBY, "/new cones")
    await clara.say(LOBBY, "/lang ru")
    await dima.say(QUIET, "/new trio")
    await dima.say(QUIET, "/cancel")
    if finished:
        assert (await play_against_a_computer(fake, runner, dima, "cones", seed=3)).status == "finished"
    else:
        await dima.say(dima.id, "/new lucky bots=1 level=easy")
        lobby = fake.last_bot_message(dima.id)
        if any("Start" in b["text"] for b in buttons(lobby)):
            await dima.press(dima.id, lobby.message_id, button_data(lobby, text="Start"))
        assert any(g.chat_id == dima.id and g.status == "running" for g in await runner.games())
    return owner, anna


def unknown(command: str) -> str:
    """The answer to a command the bot does not know."""
    return t("en", "I don't know the command {cmd}. See /help.", cmd=in_text(command))


def replies(fake, chat_id: int, text: str) -> list:
    return [m for m in fake.messages(chat_id) if m.from_bot and text in (m.text or "")]


async def test_the_owner_gets_the_figures_and_anyone_else_an_unknown_command(fake, owned):
    owner, anna = await world(fake, owned)
    logging.getLogger("bot.somewhere").error("something broke")  # counted
    logging.getLogger("bot.somewhere").warning("something odd")  # not counted

    await owner.say(OWNER, "/botstats")
    figures = fake.last_bot_message(OWNER).text
    lines = figures.splitlines()
    assert lines[0] == "📊 The bot now"
    assert "Games running: 1 (Totally Genial 1)" in lines  # the private game against a computer is over
    assert "Lobbies open: 1 (Cones 1)" in lines
    assert "Players this week: 4" in lines  # Anna, Boris, Clara, Dima (not the computer, not the owner)
    assert "Games finished today (UTC): 1, this week: 1" in lines
    assert "Errors logged since the start: 1" in lines
    assert any(line.startswith("Up for: 0 d 0 h ") for line in lines)
    assert "Database: SQLite" in lines

    # Anyone else: the answer to any unknown command, in private; nothing in a group unless the
    # command names the bot; the owner in a group is no one special.
    for command in ("/botstats", "/broadcast_maintenance"):
        await anna.say(anna.id, command)
        assert fake.last_bot_message(anna.id).text == unknown(command)
    await anna.say(anna.id, "/nosuchthing")
    assert fake.last_bot_message(anna.id).text == unknown("/nosuchthing")
    before = fake.last_bot_message(RUNNING)
    await anna.say(RUNNING, "/botstats")
    await owner.say(RUNNING, "/botstats")
    assert fake.last_bot_message(RUNNING) is before
    await owner.say(RUNNING, f"/botstats@{BOT}")
    assert fake.last_bot_message(RUNNING).text == unknown(f"/botstats@{BOT}")


async def test_the_broadcast_reaches_the_groups_with_open_games_once_after_confirmation(fake, owned):
    owner, anna = await world(fake, owned, finished=False)
    english, russian = t("en", NOTICE), t("ru", NOTICE)
    assert russian.startswith("🛠 Бот ненадолго перезапустится")

    await anna.say(anna.id, "/broadcast_maintenance")
    assert fake.last_bot_message(anna.id).text == unknown("/broadcast_maintenance")

    await owner.say(OWNER, "/broadcast_maintenance")
    old = fake.last_bot_message(OWNER)
    await owner.say(OWNER, "/broadcast_maintenance")  # asked again: the first button is old now
    ask = fake.last_bot_message(OWNER)
    assert ask.text.startswith("Send this notice to 2 groups with a running game or an open lobby?")
    assert english in ask.text
    for chat_id in (RUNNING, LOBBY, QUIET, anna.id):
        assert not replies(fake, chat_id, "🛠"), "nothing goes out before the owner confirms"

    answer = await owner.press(OWNER, old.message_id, button_data(old, text="Send"))
    assert answer["text"] == "This button is old: write /broadcast_maintenance again."
    assert not any(replies(fake, chat_id, "🛠") for chat_id in (RUNNING, LOBBY))

    data = button_data(ask, text="Send")
    answer = await owner.press(OWNER, ask.message_id, data)
    assert answer["text"] == "Sent to 2 groups."
    done = fake.message(OWNER, ask.message_id)
    assert done.text == "Sent to 2 groups." and not buttons(done)
    await owner.press(OWNER, ask.message_id, data)  # a double tap sends nothing more
    await owned.idle()

    assert [m.text for m in replies(fake, RUNNING, "🛠")] == [english]
    assert [m.text for m in replies(fake, LOBBY, "🛠")] == [russian]
    assert not replies(fake, QUIET, "🛠")  # no open game there
    assert not replies(fake, 4, "🛠")  # Dima's game against a computer runs in private: not a group
    assert not any("allow_paid_broadcast" in r.params for r in fake.calls("sendMessage"))  # not paid for


async def test_with_paid_broadcasts_the_notice_goes_as_a_paid_broadcast(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "tablebot.sqlite3", owner_id=OWNER, paid_broadcast=True).start()
    try:
        owner, _ = await world(fake, runner, finished=False)
        await owner.say(OWNER, "/broadcast_maintenance")
        ask = fake.last_bot_message(OWNER)
        assert (await owner.press(OWNER, ask.message_id, button_data(ask, text="Send")))["text"] == "Sent to 2 groups."
        await runner.idle()
        notices = [r for r in fake.calls("sendMessage") if "🛠" in r.params["text"] and r.chat_id in (RUNNING, LOBBY)]
        assert len(notices) == 2 and all(r.ok and r.params.get("allow_paid_broadcast") is True for r in notices)
        # Everything else the bot wrote is not a broadcast: nobody pays for it.
        assert sum(1 for r in fake.requests if r.params.get("allow_paid_broadcast")) == 2
    finally:
        await runner.stop()



async def test_nobody_to_tell_and_no_button(fake, owned):
    owner = Player(fake, owned, OWNER, "Olga")
    await owner.start_private()
    await owner.say(OWNER, "/broadcast_maintenance")
    reply = fake.last_bot_message(OWNER)
    assert reply.text == "No group has a running game or an open lobby: there is nobody to tell."
    assert not buttons(reply)


async def test_the_owners_private_chat_lists_the_owners_commands(fake, tmp_path):
    fake.add_user(OWNER, "Olga")  # Telegram sets a chat's menu only once the chat exists
    owned = await BotRunner(fake, tmp_path / "tablebot.sqlite3", owner_id=OWNER).start()
    try:
        await _menu_lists_the_owners_commands(fake)
    finally:
        await owned.stop()


async def _menu_lists_the_owners_commands(fake):
    scope = {"type": "chat", "chat_id": OWNER}
    private = [name for name, _ in router.menus()[0][1]]
    for lang, language_code in (("en", ""), ("ru", "ru")):
        for _ in range(500):  # the menu is set in the background at the start
            if fake.commands(scope, language_code):
                break
            await asyncio.sleep(0.01)
        menu = fake.commands(scope, language_code)
        assert [c["command"] for c in menu] == private + [c.name for c in OwnerRoutes.COMMANDS]
        assert menu[-1]["description"] == t(lang, OwnerRoutes.COMMANDS[-1].menus["owner"])
    # Nobody else's menu has them.
    assert not any(c["command"] == "botstats" for c in fake.commands({"type": "all_private_chats"}))


async def test_without_an_owner_nobody_may(fake, runner):
    anna = Player(fake, runner, 1, "Anna")
    await anna.start_private()
    await anna.say(anna.id, "/botstats")
    assert fake.last_bot_message(anna.id).text == unknown("/botstats")


def test_the_owner_comes_from_tablebot_owner_id():
    from bot.ops.config import ConfigError, from_env
    env = {"TELEGRAM_BOT_TOKEN": "123:abc"}
    assert from_env({**env, "TABLEBOT_OWNER_ID": " 4242 "}).owner_id == 4242
    assert from_env(env).owner_id is None and from_env({**env, "TABLEBOT_OWNER_ID": ""}).owner_id is None
    with pytest.raises(ConfigError):
        from_env({**env, "TABLEBOT_OWNER_ID": "@olga"})
