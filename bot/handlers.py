"""python-telegram-bot callbacks: read the update, call the one object it is about, answer.

``prepare`` runs first for every update (handler group -1) and puts the person and the chat's
language on the context, so the callbacks do not repeat it. Button presses are routed by
python-telegram-bot's own anchored patterns (``bot.keyboard``): the menu, turn-free game
buttons (lobby, rematch, pop-ups) and moves; anything else is answered as not ours. Every press
is answered exactly once, and a refusal is worded here, in the presser's language.
"""
from __future__ import annotations

import logging
import re
from typing import Awaitable, Callable

from telegram import CallbackQuery, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import Application, CallbackContext, ExtBot

from engines import registry
from bot import keyboard
from bot.book import GameBook
from bot.games import adapter_for
from bot.games.base import Act, Alert, Nav, isolate
from bot.i18n import LANGS, t
from bot.keyboard import MENU, Answer, Button
from bot.lobby import Lobby
from bot.lobby_view import game_menu
from bot.messenger import Messenger
from bot.people import People, Person
from bot.pings import Pings
from bot.play import Play
from bot.refusals import Refused, word, word_html
from bot.store import GameStore, Status, from_base36
from bot.tables import Tables
from bot.texts import GAME_BLURBS, game_button, game_name, help_text, private_help_text
from bot.turns import MAX_MINUTES, MIN_MINUTES, TurnPolicy

log = logging.getLogger(__name__)

_START_PAYLOAD = re.compile(r"^([jg])([0-9a-z]{1,12})$")


class TableContext(CallbackContext[ExtBot, dict, dict, dict]):
    """The context of one update, with who sent it and in which language to answer."""

    def __init__(self, application: Application, chat_id: int | None = None, user_id: int | None = None):
        super().__init__(application, chat_id=chat_id, user_id=user_id)
        self.person: Person | None = None  # None: no person sent it (a channel, an anonymous admin)
        self.lang: str = "en"  # the chat's language (in private: the person's)

    @property
    def words(self) -> list[str]:
        return [w for w in (self.args or []) if w]


def _press_of(query: CallbackQuery) -> keyboard.Press:
    """The parsed callback data (python-telegram-bot hands a press without data to the first
    handler whatever its pattern, so every route checks again)."""
    press = keyboard.parse(query.data)
    if press is None:
        raise Refused("unknown_button")
    return press


def _thread(update: Update) -> int:
    message = update.effective_message
    if message is not None and message.is_topic_message and message.message_thread_id:
        return message.message_thread_id
    return 0


class Handlers:
    def __init__(self, *, book: GameBook, store: GameStore, lobby: Lobby, play: Play, tables: Tables,
                 people: People, turns: TurnPolicy, pings: Pings, messenger: Messenger, bot_username: str):
        self.book = book
        self.pings = pings
        self.store = store
        self.lobby = lobby
        self.play = play
        self.tables = tables
        self.people = people
        self.turns = turns
        self.messenger = messenger
        self.bot_username = bot_username
        # Each person's last applied button, so that a second tap on it is answered "already done".
        self._last_press: dict[int, str] = {}

    # ---- every update --------------------------------------------------------------------

    async def prepare(self, update: object, context: TableContext) -> None:
        """Who sent the update and the language to answer in (handler group -1)."""
        if not isinstance(update, Update):
            return
        user = update.effective_user
        message = update.message
        if user is None or (message is not None and message.sender_chat is not None):
            return  # a channel post, or an anonymous admin or a channel writing in a group
        context.person = await self.people.person(user)
        chat = update.effective_chat
        context.lang = await self.people.lang_in(chat, context.person) if chat else context.person.lang

    async def _reply(self, update: Update, context: TableContext, text: str, markup=None) -> None:
        """Answer a command (in the background: the chat's next update does not wait for it)."""
        self.messenger.post(update.effective_chat.id, text, markup, thread_id=_thread(update))

    # ---- commands ------------------------------------------------------------------------

    async def on_new(self, update: Update, context: TableContext) -> None:
        """/new [game] [options]: open a lobby, or show the game menu."""
        chat = update.effective_chat
        lang = await self.people.adopt_chat(chat, context.person)
        await self.lobby.new(chat_id=chat.id, thread_id=_thread(update), person=context.person,
                             words=context.words, chat_lang=lang, private=chat.type == ChatType.PRIVATE)

    async def on_start(self, update: Update, context: TableContext) -> None:
        """/start: the greeting, or a deep link back to a lobby (``j…``) or a game (``g…``)."""
        chat = update.effective_chat
        person = context.person
        if chat.type != ChatType.PRIVATE:
            await self._reply(update, context, help_text(context.lang, self.bot_username))
            return
        await self.people.set_private_ok(person.id, True)
        await self.people.remember(person)
        words = context.words
        match = _START_PAYLOAD.match(words[0]) if words else None
        if match and match.group(1) == "j":
            await self._reply(update, context, await self.lobby.join_from_private(person, match.group(2)))
            return
        if match and match.group(1) == "g":
            game = await self.book.load(from_base36(match.group(2)))
            seat = game.seat_of(person.id) if game else None
            if game is not None and game.status == Status.RUNNING and seat is not None:
                self.tables.schedule_private(game.id, seat, bump=True)
                return
        add_me = keyboard.markup(MENU, None, [[Button(
            t(person.lang, "➕ Add me to a group"), url=f"https://t.me/{self.bot_username}?startgroup=new")]])
        await self._reply(update, context, t(person.lang, "Hello, {name}! I host board games in group chats.",
                                             name=isolate(person.name)) + "\n\n" + private_help_text(person.lang),
                          add_me)

    async def on_anonymous(self, update: Update, context: TableContext) -> None:
        """A command written as the group (an anonymous admin) or as a channel: nobody to seat."""
        command = (update.message.text or "").split()[0]
        if "@" in command and command.split("@", 1)[1].lower() != self.bot_username.lower():
            return
        lang = await self.people.chat_lang(update.effective_chat.id)
        await self._reply(update, context, t(
            lang, "I cannot tell who you are when you write as the group or as a channel, so I cannot "
                  "seat you or take orders from you. Write as yourself (switch off «Remain anonymous» "
                  "in your admin rights), then try again."))

    async def on_help(self, update: Update, context: TableContext) -> None:
        """/help: in a group, the commands for playing here; in private, what one can do there."""
        if update.effective_chat.type == ChatType.PRIVATE:
            await self._reply(update, context, private_help_text(context.lang))
        else:
            await self._reply(update, context, help_text(context.lang, self.bot_username))

    async def on_rules(self, update: Update, context: TableContext) -> None:
        """/rules <game>: the rules in short."""
        lang = context.lang
        words = context.words
        info = registry.find(" ".join(words)) or (registry.find(words[0]) if words else None)
        if info is None:
            names = ", ".join(f"{gi.id} ({game_name(gi, lang)})" for gi in registry.all_infos())
            text = t(lang, "Which rules? Write /rules and a game: {names}.", names=names)
        else:
            text = adapter_for(info.id).rules(lang)
        await self._reply(update, context, text)

    async def on_cancel(self, update: Update, context: TableContext) -> None:
        """/cancel: the host or an admin stops the game here."""
        chat = update.effective_chat
        person = context.person
        game = await self.book.open_game_at(chat.id, _thread(update))
        if game is None:
            await self._reply(update, context, t(context.lang, "There is no game here to cancel."))
            return
        if chat.type != ChatType.PRIVATE and not await self.people.may_manage(game, person.id):
            await self._reply(update, context, t(context.lang, "Only the host or a chat admin can cancel the game."))
            return
        await self.lobby.cancel_game(game, by=person.name)

    async def on_board(self, update: Update, context: TableContext) -> None:
        """/board: the table (or the lobby) again at the bottom of the chat."""
        game = await self.book.open_game_at(update.effective_chat.id, _thread(update))
        if game is None:
            await self._reply(update, context, t(context.lang, "No game is running here. Start one with /new."))
        elif game.status == Status.LOBBY:
            self.tables.repost_lobby(game)
        else:
            await self.tables.repost_table(game)

    async def on_lang(self, update: Update, context: TableContext) -> None:
        """/lang [en|ru]: the chat's language (in private: the person's own)."""
        words = context.words
        if not words or words[0].lower() not in LANGS:
            rows = [[Button("English", "l.en"), Button("Русский", "l.ru")]]
            await self._reply(update, context, t(context.lang, "Choose the language:"),
                              keyboard.markup(MENU, None, rows))
            return
        try:
            text = await self._set_lang(update.effective_chat.id, context.person, words[0].lower())
        except Refused as refused:
            text = word_html(refused, context.person.lang)
        await self._reply(update, context, text)

    async def _set_lang(self, chat_id: int, person: Person, lang: str) -> str:
        if chat_id > 0:
            await self.people.remember(person)
            await self.people.set_user_lang(person.id, lang)
            return t(lang, "Your language is now English.")
        game = await self.book.open_game_at(chat_id, 0)
        is_host = game is not None and game.host_id == person.id
        if not is_host and not await self.people.is_admin(chat_id, person.id):
            raise Refused("lang_rights")
        await self.store.set_chat(chat_id, lang=lang)
        if game is not None:
            if game.status == Status.LOBBY:
                self.tables.schedule_lobby(game.id)
            else:
                self.tables.schedule_table(game.id)
        return t(lang, "The language of this chat is now English.")

    async def _minutes_setting(self, update: Update, context: TableContext, *, key: str, low: int, high: int,
                               may_be_off: bool, describe: Callable[[int, str], Awaitable[str]],
                               invalid: Callable[[str], str], changed: Callable[[str, int], str],
                               after: Callable[[int, int], Awaitable[None]] | None = None) -> None:
        """A group setting in minutes (/lobbytimeout, /turntimer): anyone may read it, admins change it.

        ``describe(chat_id, lang)`` says the current value; ``changed(lang, minutes)`` confirms a
        change (0 = off, when ``may_be_off``); ``invalid(lang)`` answers anything else;
        ``after(chat_id, thread_id)`` applies a new value to what is already running.
        """
        chat = update.effective_chat
        lang = context.lang
        words = context.words
        if chat.type == ChatType.PRIVATE:
            await self._reply(update, context, t(lang, "This setting is for groups."))
            return
        if not words:
            await self._reply(update, context, await describe(chat.id, lang))
            return
        if not await self.people.is_admin(chat.id, context.person.id):
            await self._reply(update, context, t(lang, "Only a chat admin can change this."))
            return
        value = words[0].lower()
        if may_be_off and value in ("off", "0", "выкл", "нет"):
            minutes = 0
        else:
            try:
                minutes = int(value)
                if not low <= minutes <= high:
                    raise ValueError
            except ValueError:
                await self._reply(update, context, invalid(lang))
                return
        await self.store.set_chat_setting(chat.id, key, minutes)
        if after is not None:
            await after(chat.id, _thread(update))
        await self._reply(update, context, changed(lang, minutes))

    async def on_notify(self, update: Update, context: TableContext) -> None:
        """/notify [on|off]: whether I ping the person when it is their turn."""
        person = context.person
        words = context.words
        value = words[0].lower() if words else ""
        if value in ("on", "off", "вкл", "выкл"):
            await self.people.remember(person)
            await self.store.set_notify(person.id, value in ("on", "вкл"))
        row = await self.store.user(person.id)
        on = row is None or row.notify
        text = t(context.lang, "🔔 {name}: I ping you when it is your turn. /notify off stops it.",
                 name=isolate(person.name)) if on else \
            t(context.lang, "🔕 {name}: no pings when it is your turn. /notify on brings them back.",
              name=isolate(person.name))
        await self._reply(update, context, text)

    async def on_lobby_timeout(self, update: Update, context: TableContext) -> None:
        """/lobbytimeout [minutes]: idle lobbies close after this long."""
        async def describe(chat_id: int, lang: str) -> str:
            return t(lang, "Idle lobbies close after {n} minutes. Change it with /lobbytimeout <i>minutes</i> (5-1440).",
                     n=await self.lobby.timeout_minutes(chat_id))
        await self._minutes_setting(
            update, context, key="lobby_timeout", low=5, high=1440, may_be_off=False, describe=describe,
            invalid=lambda lang: t(lang, "Please give a number of minutes from 5 to 1440."),
            changed=lambda lang, n: t(lang, "Idle lobbies now close after {n} minutes.", n=n))

    async def on_turn_timer(self, update: Update, context: TableContext) -> None:
        """/turntimer [minutes|off]: how long a move may take in this group."""
        async def describe(chat_id: int, lang: str) -> str:
            current = await self.turns.minutes(chat_id)
            if current <= 0:
                return t(lang, "There is no turn timer here: players take as long as they like. "
                               "Turn it on with /turntimer <i>minutes</i> (1-1440).")
            return t(lang, "A move may take {n} minutes here; then I remind, and move for whoever is away. "
                           "Change it with /turntimer <i>minutes</i> (1-1440) or /turntimer off.", n=f"{current:g}")

        async def restart_timer(chat_id: int, thread_id: int) -> None:
            game = await self.book.open_game_at(chat_id, thread_id)
            if game is not None and game.status == Status.RUNNING:
                self.play.arm_turn_timer(game)  # the running game takes the new time at once
        await self._minutes_setting(
            update, context, key="turn_timeout", low=MIN_MINUTES, high=MAX_MINUTES, may_be_off=True,
            describe=describe, after=restart_timer,
            invalid=lambda lang: t(lang, "Please give a number of minutes from 1 to 1440, or off."),
            changed=lambda lang, n: t(lang, "A move may now take {n} minutes.", n=n) if n else
            t(lang, "The turn timer is off: players take as long as they like."))

    async def on_my_chat_member(self, update: Update, context: TableContext) -> None:
        """The bot was removed from a group (close its games quietly: nobody can see them any more),
        or a user blocked or unblocked the bot in private (their tables say so)."""
        change = update.my_chat_member
        chat = change.chat
        present = change.new_chat_member.status in (ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR,
                                                    ChatMemberStatus.OWNER, ChatMemberStatus.RESTRICTED)
        if chat.type == ChatType.PRIVATE:
            await self.people.set_private_ok(chat.id, present)
            await self.play.set_reachable(chat.id, present)
            return
        was_present = change.old_chat_member.status in (ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR,
                                                        ChatMemberStatus.OWNER, ChatMemberStatus.RESTRICTED)
        if present and not was_present:
            # Added to a group: greet once, in the language of whoever added the bot.
            if context.person is not None:
                lang = await self.people.adopt_chat(chat, context.person)
            else:
                lang = await self.people.chat_lang(chat.id)
            text, markup = game_menu(lang, greet=True)
            self.messenger.post(chat.id, text, markup)
            return
        if not present:
            for game in await self.store.open_games():
                if game.chat_id == chat.id:
                    await self.lobby.cancel_game(await self.book.load(game.id), by=None, announce=False)

    async def on_unknown_command(self, update: Update, context: TableContext) -> None:
        message = update.effective_message
        if not message.text:
            return
        command = message.text.split()[0]
        if update.effective_chat.type != ChatType.PRIVATE and "@" not in command:
            return  # in groups a bare /command may belong to another bot
        if "@" in command and command.split("@", 1)[1].lower() != self.bot_username.lower():
            return
        await self._reply(update, context, t(context.lang, "I don't know the command {cmd}. See /help.",
                                             cmd=isolate(command[:40])))

    async def on_private_text(self, update: Update, context: TableContext) -> None:
        """A typed move in the private chat (e.g. genial's ``3 F7 F8``)."""
        person = context.person
        await self.people.set_private_ok(person.id, True)
        await self.people.remember(person)
        reply = await self._typed_move(person, (update.effective_message.text or "").strip())
        if reply:
            await self.messenger.send_text(person.id, reply)

    async def _typed_move(self, person: Person, text: str) -> str | None:
        for found in await self.store.open_games_of(person.id):
            game = await self.book.load(found.id)
            seat = game.seat_of(person.id)
            if game.status != Status.RUNNING or seat is None:
                continue
            try:
                reply = self.tables.ui(game).typed(self.tables.ctx(game, person.lang), seat, text)
                if reply is None:
                    continue
                if isinstance(reply, Alert):
                    return reply.text
                await self.play.act(game.id, seat, None, reply.action)
            except Refused as refused:
                return word_html(refused, person.lang)
            return None
        return t(person.lang, "I did not understand that. See /help.")

    async def on_migrate(self, update: Update, context: TableContext) -> None:
        message = update.effective_message
        if message.migrate_to_chat_id:
            await self.play.migrate_chat(message.chat.id, message.migrate_to_chat_id)
        elif message.migrate_from_chat_id:
            await self.play.migrate_chat(message.migrate_from_chat_id, message.chat.id)

    # ---- buttons -------------------------------------------------------------------------

    async def _answering(self, update: Update, context: TableContext,
                         route: Callable[[CallbackQuery, Person], Awaitable[Answer]]) -> None:
        """Run ``route`` for a press and answer it exactly once, refusals in the presser's words."""
        query = update.callback_query
        person = context.person
        answer = Answer(t("en", "Something went wrong. Please try again."), alert=True)
        try:
            if person is None:  # a press without a presser: nothing to do but say so
                raise Refused("unknown_button")
            answer = await route(query, person)
        except Refused as refused:
            answer = Answer(word(refused, person.lang if person else "en"), alert=True)
        finally:
            await self.messenger.answer(query.id, answer.text, alert=answer.alert, url=answer.url)

    async def on_menu_press(self, update: Update, context: TableContext) -> None:
        """A button of the game menu (``0:-:n.<game>``) or of /lang (``0:-:l.<lang>``)."""
        await self._answering(update, context, self._menu_press)

    async def _menu_press(self, query: CallbackQuery, person: Person) -> Answer:
        message = query.message
        if message is None:
            raise Refused("bad_button")
        action = _press_of(query).action
        chat = message.chat
        if action.startswith("n."):
            info = registry.find(action[2:])
            if info is None:
                raise Refused("bad_button")
            chat_lang = await self.people.adopt_chat(chat, person)
            thread = message.message_thread_id if message.is_topic_message else 0
            await self.lobby.new(chat_id=chat.id, thread_id=thread or 0, person=person, words=[info.id],
                                 chat_lang=chat_lang, private=chat.type == ChatType.PRIVATE)
            return Answer()
        if action[2:] not in LANGS:
            raise Refused("bad_button")
        return Answer(await self._set_lang(chat.id, person, action[2:]))

    async def on_lobby_press(self, update: Update, context: TableContext) -> None:
        """A lobby button (``<game>:-:!join``…), Rematch under the results, or a seat handed
        to a computer and back (``!back``, ``!away.<seat>``)."""
        async def route(query: CallbackQuery, person: Person) -> Answer:
            press = _press_of(query)
            game = await self._game_of(query, person, press)
            if press.action == "!back":
                return await self._take_back(game, person)
            if press.action == "!rules":
                return await self._rules(game, person)
            if press.action.startswith("!away."):
                try:
                    seat = int(press.action.split(".", 1)[1])
                except ValueError:
                    raise Refused("bad_button") from None
                return await self._hand_over(game, person, seat)
            return await self.lobby.press(game, person, press.action)
        await self._answering(update, context, route)

    async def _rules(self, game, person: Person) -> Answer:
        """📖 Rules: a pop-up with the game in a line for whoever pressed, the full rules in private."""
        info = registry.info(game.kind)
        summary = f"{game_button(info, person.lang)}: {t(person.lang, GAME_BLURBS[info.id][1])}"
        if await self.people.private_ok(person.id):
            await self.messenger.send_text(person.id, adapter_for(info.id).rules(person.lang))
            return Answer(summary + "\n" + t(person.lang, "The full rules are in your private chat with me."),
                          alert=True)
        return Answer(summary + "\n" + t(person.lang, "Open @{bot} and write /rules {game} for the full rules.",
                                         bot=self.bot_username, game=info.id), alert=True)

    async def _take_back(self, game, person: Person) -> Answer:
        seat = game.seat_of(person.id)
        if seat is None or not game.seats[seat].autoplayed:
            raise Refused("no_seat_back")
        await self.play.take_back(game, seat)
        return Answer(t(person.lang, "Welcome back: you play your seat again."))

    async def _hand_over(self, game, person: Person, seat: int) -> Answer:
        """The host or an admin gives an absent player's seat to a computer for the rest of the game."""
        if not 0 <= seat < len(game.seats) or game.seats[seat].is_computer:
            raise Refused("bad_button")
        if person.id != game.seats[seat].user_id and not await self.people.may_manage(game, person.id):
            raise Refused("away_rights", name=game.host_name)
        if game.chat_id < 0 and not any(not s.autoplayed for s in game.seats if s.seat != seat):
            # Computers alone do not play on in a group: the last person leaving ends the game.
            await self.lobby.cancel_game(game, by=person.name)
            return Answer(t(person.lang, "Cancelled."))
        await self.play.hand_over(game, seat)
        return Answer(t(person.lang, "🤖 A computer plays for {name} now.", name=game.seats[seat].name))

    async def on_leave(self, update: Update, context: TableContext) -> None:
        """/leave: out of the lobby here, or, in a running game, a computer plays your seat."""
        person = context.person
        game = await self.book.open_game_at(update.effective_chat.id, _thread(update))
        seat = game.seat_of(person.id) if game is not None else None
        if seat is None:
            await self._reply(update, context, t(context.lang, "You are not playing here."))
            return
        try:
            if game.status == Status.LOBBY:
                answer = await self.lobby.leave(game, person)
            else:
                answer = await self._hand_over(game, person, seat)
        except Refused as refused:
            await self._reply(update, context, word_html(refused, context.lang))
            return
        if game.status == Status.RUNNING:
            await self._reply(update, context, t(
                context.lang, "🤖 A computer plays for {name} now. Tap 🙋 I'm back on the table to take the "
                              "seat back.", name=isolate(person.name)))
        elif answer.text:
            await self._reply(update, context, answer.text)

    async def on_away(self, update: Update, context: TableContext) -> None:
        """/away: the host or an admin gives the seat of the player who keeps everyone waiting to a
        computer for the rest of the game."""
        game = await self.book.open_game_at(update.effective_chat.id, _thread(update))
        state = self.book.state(game.id) if game is not None and game.status == Status.RUNNING else None
        if state is None:
            await self._reply(update, context, t(context.lang, "No game is running here. Start one with /new."))
            return
        seat = registry.engine(game.kind).current_player(state)
        try:
            await self._hand_over(game, context.person, seat)
        except Refused as refused:
            await self._reply(update, context, word_html(refused, context.lang))
            return
        await self._reply(update, context, t(
            context.lang, "🤖 A computer plays for {name} now. Tap 🙋 I'm back on the table to take the "
                          "seat back.", name=isolate(game.seats[seat].name)))

    async def on_game_press(self, update: Update, context: TableContext) -> None:
        """A move or a step of composing one (``<game>:<turn>:…``), or a pop-up (``<game>:-:?…``)."""
        await self._answering(update, context, self._game_press)

    async def on_foreign_press(self, update: Update, context: TableContext) -> None:
        """Callback data that is not ours: garbage, forged, or from another bot."""
        async def route(query: CallbackQuery, person: Person) -> Answer:
            raise Refused("unknown_button")
        await self._answering(update, context, route)

    async def _game_of(self, query: CallbackQuery, person: Person, press: keyboard.Press):
        game = await self.book.load(from_base36(press.game))
        if game is None:
            raise Refused("no_game")
        message = query.message
        if message is not None and message.chat.id not in (game.chat_id, person.id):
            raise Refused("other_chat")
        return game

    async def _game_press(self, query: CallbackQuery, person: Person) -> Answer:
        press = _press_of(query)
        game = await self._game_of(query, person, press)
        if game.status != Status.RUNNING:
            raise Refused("not_started" if game.status == Status.LOBBY else "over")
        seat = game.seat_of(person.id)
        message = query.message
        chat_id = message.chat.id if message is not None else None
        message_id = message.message_id if message is not None else None
        ctx = self.tables.ctx(game, person.lang)
        if chat_id == game.chat_id and message_id == game.table_msg:
            where = "table"
        elif seat is not None and chat_id == person.id and message_id == game.seats[seat].dm_msg:
            where = "private"
        elif message_id is not None and press.turn == ctx.turn and (
                chat_id == game.chat_id and game.table_msg is None
                or seat is not None and chat_id == person.id and game.seats[seat].dm_msg is None):
            where = "table" if chat_id == game.chat_id else "private"
            await self.tables.adopt(game, where, seat, message_id)
        else:
            raise Refused("old_message")
        if seat is not None:
            self.pings.pressed(game, person.id)  # they are looking: no ping for a while
        if press.turn is not None and press.turn != ctx.turn:
            self.tables.redraw(game, where, seat)
            if self._last_press.get(person.id) == query.data:
                return Answer(t(person.lang, "Already done ✓"))
            if self.tables.shows_turn(chat_id, message_id) == press.turn:
                return Answer(t(person.lang, "⏳ The table is catching up: look again in a moment."))
            raise Refused("stale_turn")
        if press.action == "?rules":
            return await self._rules(game, person)
        if seat is not None and game.seats[seat].autoplayed and not press.action.startswith("?"):
            raise Refused("handed_over")
        reply = self.tables.ui(game).press(ctx, seat, where, press.action)
        if isinstance(reply, Alert):
            return Answer(reply.text, alert=reply.popup)
        if seat is None:
            raise Refused("not_playing")
        if isinstance(reply, Nav):
            if where == "table" and seat != ctx.current:
                raise Refused("not_your_turn", name=game.seats[ctx.current].name)
            self.tables.set_path(game, where, seat, reply.path)
            return Answer()
        assert isinstance(reply, Act)
        happened = await self.play.act(game.id, seat, press.turn, reply.action)
        self._last_press[person.id] = query.data
        return Answer(self.tables.toast(game, happened, person.lang))

    # ---- errors --------------------------------------------------------------------------

    async def on_error(self, update: object, context: TableContext) -> None:
        log.error("error while handling an update", exc_info=context.error)
        if isinstance(update, Update) and update.effective_chat and update.message:
            try:
                lang = await self.people.chat_lang(update.effective_chat.id)
                await self.messenger.send_text(update.effective_chat.id,
                                               t(lang, "Something went wrong on my side; nothing was changed."))
            except Exception:  # the error handler itself must never raise
                log.exception("could not report an error to the chat")
