"""python-telegram-bot handlers: short functions that parse an update and call the service.

Every callback query is answered exactly once, whatever happens (``on_press``).
"""
from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import ContextTypes

from engines import registry
from bot import keyboard
from bot.games.base import isolate
from bot.i18n import LANGS, t
from bot.keyboard import Button
from bot.lobby import MENU, Answer
from bot.storage import from_base36
from bot.texts import game_name, help_text

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)

_START_PAYLOAD = re.compile(r"^([jg])([0-9a-z]{1,12})$")


def _bot(context: ContextTypes.DEFAULT_TYPE) -> "TableBot":
    return context.application.bot_data["tablebot"]


def _thread(update: Update) -> int:
    message = update.effective_message
    if message is not None and message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return 0


def _words(context: ContextTypes.DEFAULT_TYPE) -> list[str]:
    return [w for w in (context.args or []) if w]


# ---- commands -------------------------------------------------------------------------------

async def on_new(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    tb = _bot(context)
    chat = update.effective_chat
    person = await tb.person(update)
    private = chat.type == ChatType.PRIVATE
    lang = await tb.ensure_chat(chat, person)
    await tb.lobby.new(chat_id=chat.id, thread_id=_thread(update), person=person, words=_words(context),
                       chat_lang=lang, private=private)


async def on_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    tb = _bot(context)
    chat = update.effective_chat
    person = await tb.person(update)
    if chat.type != ChatType.PRIVATE:
        lang = await tb.ensure_chat(chat, person)
        await tb.messenger.send_text(chat.id, help_text(lang, tb.username), thread_id=_thread(update))
        return
    await tb.storage.set_private_ok(person.id, True)
    words = _words(context)
    match = _START_PAYLOAD.match(words[0]) if words else None
    if match and match.group(1) == "j":
        text = await tb.lobby.join_from_private(person, match.group(2))
        await tb.messenger.send_text(chat.id, text)
        return
    if match and match.group(1) == "g":
        game = await tb.service.load(from_base36(match.group(2)))
        seat = game.seat_of(person.id) if game else None
        if game is not None and game.status == "running" and seat is not None:
            tb.service.schedule_private(game.id, seat, bump=True)
            return
    await tb.messenger.send_text(
        chat.id, t(person.lang, "Hello, {name}! I host board games in group chats.",
                   name=isolate(person.name)) + "\n\n" + help_text(person.lang, tb.username))


async def on_help(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    tb = _bot(context)
    person = await tb.person(update)
    lang = await tb.ensure_chat(update.effective_chat, person)
    await tb.messenger.send_text(update.effective_chat.id, help_text(lang, tb.username), thread_id=_thread(update))


async def on_rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    tb = _bot(context)
    person = await tb.person(update)
    chat = update.effective_chat
    lang = await tb.ensure_chat(chat, person)
    words = _words(context)
    info = registry.find(" ".join(words)) or (registry.find(words[0]) if words else None)
    if info is None:
        names = ", ".join(f"{gi.id} ({game_name(gi, lang)})" for gi in registry.all_infos())
        text = t(lang, "Which rules? Write /rules and a game: {names}.", names=names)
    else:
        from bot.games import adapter_for
        text = adapter_for(info.id).rules(lang)
    await tb.messenger.send_text(chat.id, text, thread_id=_thread(update))


async def on_cancel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    tb = _bot(context)
    chat = update.effective_chat
    person = await tb.person(update)
    lang = await tb.ensure_chat(chat, person)
    game = await tb.service.open_game_at(chat.id, _thread(update))
    if game is None:
        await tb.messenger.send_text(chat.id, t(lang, "There is no game here to cancel."), thread_id=_thread(update))
        return
    if not await tb.service.may_manage(game, person.id) and not (chat.type == ChatType.PRIVATE):
        await tb.messenger.send_text(chat.id, t(lang, "Only the host or a chat admin can cancel the game."),
                                     thread_id=_thread(update))
        return
    await tb.lobby.cancel_game(game, by=person.name)


async def on_board(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    tb = _bot(context)
    chat = update.effective_chat
    person = await tb.person(update)
    lang = await tb.ensure_chat(chat, person)
    game = await tb.service.open_game_at(chat.id, _thread(update))
    if game is None or game.status != "running":
        if game is not None and game.status == "lobby":
            await tb.lobby.refresh_new_message(game)
            return
        await tb.messenger.send_text(chat.id, t(lang, "No game is running here. Start one with /new."),
                                     thread_id=_thread(update))
        return
    await tb.service.repost_table(game)


async def on_lang(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    tb = _bot(context)
    chat = update.effective_chat
    person = await tb.person(update)
    lang = await tb.ensure_chat(chat, person)
    words = _words(context)
    if not words or words[0].lower() not in LANGS:
        rows = [[Button("English", "l.en"), Button("Русский", "l.ru")]]
        await tb.messenger.send_text(chat.id, t(lang, "Choose the language:"), keyboard.markup(MENU, None, rows),
                                     thread_id=_thread(update))
        return
    answer = await tb.set_lang(chat.id, person, words[0].lower())
    await tb.messenger.send_text(chat.id, answer.text or "", thread_id=_thread(update))


async def _minutes_setting(update: Update, context: ContextTypes.DEFAULT_TYPE, *, key: str, low: int,
                           high: int, may_be_off: bool, describe, invalid, changed, after=None) -> None:
    """A group setting in minutes (/lobbytimeout, /turntimer): anyone may read it, admins change it.

    ``describe(tb, chat_id, lang)`` says the current value; ``changed(lang, minutes)`` confirms a
    change (0 = off, when ``may_be_off``); ``invalid(lang)`` answers anything else;
    ``after(tb, chat_id, thread_id)`` applies a new value to what is already running.
    """
    tb = _bot(context)
    chat = update.effective_chat
    person = await tb.person(update)
    lang = await tb.ensure_chat(chat, person)
    words = _words(context)

    async def reply(text: str) -> None:
        await tb.messenger.send_text(chat.id, text, thread_id=_thread(update))

    if chat.type == ChatType.PRIVATE:
        await reply(t(lang, "This setting is for groups."))
        return
    if not words:
        await reply(await describe(tb, chat.id, lang))
        return
    if not await tb.service.is_admin(chat.id, person.id):
        await reply(t(lang, "Only a chat admin can change this."))
        return
    word = words[0].lower()
    if may_be_off and word in ("off", "0", "выкл", "нет"):
        minutes = 0
    else:
        try:
            minutes = int(word)
            if not low <= minutes <= high:
                raise ValueError
        except ValueError:
            await reply(invalid(lang))
            return
    await tb.storage.set_chat_setting(chat.id, key, minutes)
    if after is not None:
        await after(tb, chat.id, _thread(update))
    await reply(changed(lang, minutes))


async def on_lobby_timeout(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/lobbytimeout [minutes]: idle lobbies close after this long."""
    async def describe(tb, chat_id: int, lang: str) -> str:
        return t(lang, "Idle lobbies close after {n} minutes. Change it with /lobbytimeout <i>minutes</i> (5-1440).",
                 n=await tb.lobby.timeout_minutes(chat_id))
    await _minutes_setting(
        update, context, key="lobby_timeout", low=5, high=1440, may_be_off=False, describe=describe,
        invalid=lambda lang: t(lang, "Please give a number of minutes from 5 to 1440."),
        changed=lambda lang, n: t(lang, "Idle lobbies now close after {n} minutes.", n=n))


async def on_turn_timer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/turntimer [minutes|off]: how long a move may take in this group."""
    async def describe(tb, chat_id: int, lang: str) -> str:
        current = await tb.turns.minutes(chat_id)
        if current <= 0:
            return t(lang, "There is no turn timer here: players take as long as they like. "
                           "Turn it on with /turntimer <i>minutes</i> (1-1440).")
        return t(lang, "A move may take {n} minutes here; then I remind, and move for whoever is away. "
                       "Change it with /turntimer <i>minutes</i> (1-1440) or /turntimer off.", n=f"{current:g}")
    async def restart_timer(tb, chat_id: int, thread_id: int) -> None:
        game = await tb.service.open_game_at(chat_id, thread_id)
        if game is not None and game.status == "running":
            tb._schedule_turn(game)  # the running game takes the new time at once
    await _minutes_setting(
        update, context, key="turn_timeout", low=1, high=1440, may_be_off=True, describe=describe,
        invalid=lambda lang: t(lang, "Please give a number of minutes from 1 to 1440, or off."),
        after=restart_timer,
        changed=lambda lang, n: t(lang, "A move may now take {n} minutes.", n=n) if n else
        t(lang, "The turn timer is off: players take as long as they like."))


async def on_my_chat_member(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The bot was removed from a group (close its games quietly: nobody can see them any more),
    or a user blocked or unblocked the bot in private (their tables say so)."""
    tb = _bot(context)
    change = update.my_chat_member
    if change is None:
        return
    chat = change.chat
    present = change.new_chat_member.status in (ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR,
                                                ChatMemberStatus.OWNER, ChatMemberStatus.RESTRICTED)
    if chat.type == ChatType.PRIVATE:
        await tb.storage.set_private_ok(chat.id, present)
        await tb.service.set_reachable(chat.id, present)
        return
    if not present:
        for game in await tb.storage.open_games():
            if game.chat_id == chat.id:
                await tb.lobby.cancel_game(await tb.service.load(game.id), by=None, announce=False)


async def on_unknown_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    tb = _bot(context)
    message = update.effective_message
    chat = update.effective_chat
    if message is None or not message.text:
        return
    command = message.text.split()[0]
    if chat.type != ChatType.PRIVATE and "@" not in command:
        return  # in groups a bare /command may belong to another bot
    if "@" in command and command.split("@", 1)[1].lower() != tb.username.lower():
        return
    person = await tb.person(update)
    lang = await tb.ensure_chat(chat, person)
    await tb.messenger.send_text(chat.id, t(lang, "I don't know the command {cmd}. See /help.",
                                            cmd=isolate(command[:40])), thread_id=_thread(update))


async def on_private_text(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A typed move in the private chat (e.g. genial's ``3 F7 F8``)."""
    tb = _bot(context)
    person = await tb.person(update)
    text = (update.effective_message.text or "").strip()
    await tb.storage.set_private_ok(person.id, True)
    reply = await tb.typed_move(person, text)
    if reply:
        await tb.messenger.send_text(person.id, reply)


async def on_migrate(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    tb = _bot(context)
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id:
        await tb.service.migrate_chat(message.chat.id, message.migrate_to_chat_id)
    elif message.migrate_from_chat_id:
        await tb.service.migrate_chat(message.migrate_from_chat_id, message.chat.id)


# ---- buttons --------------------------------------------------------------------------------

async def on_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    tb = _bot(context)
    query = update.callback_query
    answered = False

    async def answer(a: Answer) -> None:
        nonlocal answered
        if not answered:
            answered = True
            await tb.messenger.answer(query.id, a.text, alert=a.alert, url=a.url)

    try:
        person = await tb.person(update)
        await answer(await tb.press(query, person))
    finally:
        if not answered:
            await tb.messenger.answer(query.id, t("en", "Something went wrong. Please try again."), alert=True)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    log.error("error while handling an update", exc_info=context.error)
    if isinstance(update, Update) and update.effective_chat and update.message:
        tb = _bot(context)
        try:
            lang = await tb.service.chat_lang(update.effective_chat.id)
            await tb.messenger.send_text(update.effective_chat.id,
                                         t(lang, "Something went wrong on my side; nothing was changed."))
        except Exception:  # the error handler itself must never raise
            log.exception("could not report an error to the chat")
