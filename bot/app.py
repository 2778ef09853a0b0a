"""Wiring: the Application, the per-chat ordered update processor, start-up and shut-down."""
from __future__ import annotations

import asyncio
import collections
import logging
import time
from typing import Any, Awaitable, Callable

from telegram import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats, Update
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import (AIORateLimiter, Application, ApplicationBuilder, BaseUpdateProcessor,
                          CallbackQueryHandler, ChatMemberHandler, CommandHandler, ContextTypes,
                          MessageHandler, filters)

from engines import registry
from bot import handlers, keyboard
from bot.config import Config
from bot.games import adapter_for
from bot.games.base import Act, Alert, Nav
from bot.i18n import LANGS, normalize_lang, t
from bot.lobby import MENU, Answer, Lobby, Person
from bot.messenger import Messenger
from bot.service import Service
from bot.storage import Game, Storage, from_base36
from bot.turns import TurnClock

log = logging.getLogger(__name__)


class ChatOrderedProcessor(BaseUpdateProcessor):
    """Updates of one chat run one after another, in order; chats do not wait for each other."""

    def __init__(self, max_concurrent_updates: int = 256):
        super().__init__(max_concurrent_updates)
        self._locks: dict[int, asyncio.Lock] = collections.defaultdict(asyncio.Lock)

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        chat = update.effective_chat if isinstance(update, Update) else None
        if chat is None:
            await coroutine
            return
        lock = self._locks[chat.id]
        async with lock:
            await coroutine

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass


COMMANDS = [
    ("new", "Start a game: /new lucky, cones, genial or trio"),
    ("rules", "The rules of a game"),
    ("board", "Show the table again at the bottom"),
    ("cancel", "Stop the game here (host or admin)"),
    ("lang", "Language"),
    ("help", "How to play with me"),
]


class TableBot:
    """Everything the handlers need, kept in ``application.bot_data["tablebot"]``."""

    def __init__(self, config: Config, application: Application):
        self.config = config
        self.application = application
        self.storage = Storage(config.db_path)
        self.messenger = Messenger(application.bot, writes_per_minute=config.group_writes_per_minute,
                                   fast_spacing=config.group_fast_spacing,
                                   on_migrate=self._migrated, on_forbidden=self._forbidden)
        self.username = ""
        self.service: Service | None = None
        self.lobby: Lobby | None = None
        self.turns: TurnClock | None = None
        self._known: dict[int, tuple[str, str | None, str | None]] = {}

    # ---- life cycle --------------------------------------------------------------------

    async def post_init(self, application: Application) -> None:
        await self.storage.open()
        me = application.bot
        self.username = me.username
        self.service = Service(self.storage, self.messenger, bot_username=self.username,
                               lobby_timeout_minutes=self.config.lobby_timeout_minutes)
        self.service.is_admin_fn = self._is_admin
        self.service.timers = self._schedule_timeout
        self.service.on_lobby_moved = lambda game: asyncio.get_running_loop().create_task(
            self.lobby.refresh(game))
        self.lobby = Lobby(self.service)
        self.turns = TurnClock(self.service, self.lobby, self.config.turn_timeout_minutes)
        self.service.turn_timers = self._schedule_turn
        await self._set_commands()
        await self.restore()

    async def restore(self) -> None:
        """Continue every open game from the database after a (re)start."""
        for game in await self.storage.open_games():
            self.service._cache(game)
            if game.status == "lobby":
                self._schedule_timeout(game)
            else:
                # A crash between commit and edit leaves a stale table: draw it again.
                self.service.schedule_table(game.id)
                self.turns.resume(game.id, time.time())
                self._schedule_turn(game)

    async def post_shutdown(self, application: Application) -> None:
        if self.service is not None:
            await self.service.jobs.drain()
        await self.storage.close()

    async def _set_commands(self) -> None:
        bot = self.application.bot
        for lang in LANGS:
            commands = [BotCommand(name, t(lang, text)) for name, text in COMMANDS]
            code = None if lang == "en" else lang
            for scope in (BotCommandScopeAllGroupChats(), BotCommandScopeAllPrivateChats()):
                try:
                    await bot.set_my_commands(commands, scope=scope, language_code=code)
                except TelegramError as exc:
                    log.warning("could not set the command menu: %s", exc)

    # ---- helpers for handlers ----------------------------------------------------------

    async def person(self, update: Update) -> Person:
        user = update.effective_user
        name = (user.full_name or user.username or str(user.id)).strip()[:64]
        known = self._known.get(user.id)
        current = (name, user.username, user.language_code)
        if known != current:
            await self.storage.touch_user(user.id, name, user.username, user.language_code)
            self._known[user.id] = current
        return Person(user.id, name, await self.service.user_lang(user.id))

    async def ensure_chat(self, chat, person: Person) -> str:
        """The chat's language; a group takes its first language from the person who used it first."""
        if chat.type == ChatType.PRIVATE:
            return person.lang
        row = await self.storage.chat(chat.id)
        if row is None or not row["lang"] or (chat.title and row["title"] != chat.title):
            lang = row["lang"] if row and row["lang"] else person.lang
            await self.storage.set_chat(chat.id, lang=lang, title=chat.title or "")
            return lang
        return normalize_lang(row["lang"])

    async def set_lang(self, chat_id: int, person: Person, lang: str) -> Answer:
        if chat_id > 0:
            await self.storage.set_user_lang(person.id, lang)
            return Answer(t(lang, "Your language is now English."))
        game = await self.service.open_game_at(chat_id, 0)
        is_host = game is not None and game.host_id == person.id
        if not is_host and not await self.service.is_admin(chat_id, person.id):
            return Answer(t(person.lang, "Only a chat admin or the host of the game here can change the language."),
                          alert=True)
        await self.storage.set_chat(chat_id, lang=lang)
        if game is not None:
            if game.status == "lobby":
                await self.lobby.refresh(game)
            else:
                self.service.schedule_table(game.id)
        return Answer(t(lang, "The language of this chat is now English."))

    async def _is_admin(self, chat_id: int, user_id: int) -> bool:
        try:
            member = await self.application.bot.get_chat_member(chat_id, user_id)
        except TelegramError:
            return False
        return member.status in ("creator", "administrator")

    async def _migrated(self, old: int, new: int) -> None:
        await self.service.migrate_chat(old, new)

    async def _forbidden(self, user_id: int) -> None:
        await self.storage.set_private_ok(user_id, False)

    # ---- timers ------------------------------------------------------------------------

    def _schedule_timeout(self, game: Game) -> None:
        """(Re)start the idle timer of a lobby."""
        self._watch("lobby", self.lobby.check_timeout, game.id)

    def _schedule_turn(self, game: Game) -> None:
        """(Re)start the turn timer of a running game."""
        self._watch("turn", self.turns.check, game.id)

    def _watch(self, kind: str, check: Callable[[int, float], Awaitable[float | None]], game_id: int,
               delay: float = 0.0) -> None:
        """Run ``check(game_id, now)`` after ``delay`` seconds, and again whenever it says so (it
        returns when to look next, or None). One watcher per kind and game: a new one replaces it."""
        jq = self.application.job_queue
        if jq is None:
            return
        name = f"{kind}:{game_id}"
        for job in jq.get_jobs_by_name(name):
            job.schedule_removal()

        async def look(context: ContextTypes.DEFAULT_TYPE) -> None:
            again = await check(game_id, time.time())
            if again is not None:
                self._watch(kind, check, game_id, max(0.5, again - time.time()))
        jq.run_once(look, delay, name=name)

    # ---- presses -----------------------------------------------------------------------

    async def press(self, query, person: Person) -> Answer:
        lang = person.lang
        press = keyboard.parse(query.data)
        if press is None:
            return Answer(t(lang, "This button is not from a game I know."), alert=True)
        message = query.message
        chat_id = message.chat.id if message is not None else None
        if press.game == MENU:
            return await self._menu_press(query, person, press.action)
        game = await self.service.load(from_base36(press.game))
        if game is None:
            return Answer(t(lang, "This game no longer exists."), alert=True)
        if chat_id is not None and chat_id not in (game.chat_id, person.id):
            return Answer(t(lang, "This button belongs to a game in another chat."), alert=True)
        if press.action == "!rematch":
            return await self._rematch(game, person)
        if press.action.startswith("!"):
            return await self.lobby.press(game, person, press.action)
        if game.status != "running":
            return Answer(t(lang, "This game is over.") if game.status != "lobby"
                          else t(lang, "The game has not started yet."), alert=True)
        seat = game.seat_of(person.id)
        message_id = message.message_id if message is not None else None
        if chat_id == game.chat_id and message_id == game.table_msg:
            where = "table"
        elif seat is not None and chat_id == person.id and message_id == game.seats[seat].dm_msg:
            where = "private"
        else:
            return Answer(t(lang, "This message is out of date: use the latest one."), alert=True)
        ui = adapter_for(game.kind)
        ctx = self.service.ctx(game, lang)
        if press.turn is not None and press.turn != ctx.turn:
            self._refresh_where(game, where, seat)
            return Answer(t(lang, "This button is from an earlier turn. Use the latest message."), alert=True)
        reply = ui.press(ctx, seat, where, press.action)
        if isinstance(reply, Alert):
            return Answer(reply.text, alert=reply.popup)
        if isinstance(reply, Nav):
            if seat is None:
                return Answer(t(lang, "You are not playing in this game."), alert=True)
            if where == "table":
                if seat != ctx.current:
                    return Answer(t(lang, "It is not your turn: {name} is playing.",
                                    name=game.seats[ctx.current].name), alert=True)
                self.service.table_path[game.id] = reply.path
            else:
                self.service.dm_path[(game.id, seat)] = reply.path
            self._refresh_where(game, where, seat)
            return Answer()
        assert isinstance(reply, Act)
        error = await self.service.act(game.id, person.id, press.turn, reply.action, lang)
        return Answer(error, alert=True) if error else Answer()

    def _refresh_where(self, game: Game, where: str, seat: int | None) -> None:
        if where == "table":
            self.service.schedule_table(game.id)
        elif seat is not None:
            self.service.schedule_private(game.id, seat)

    async def _menu_press(self, query, person: Person, action: str) -> Answer:
        lang = person.lang
        chat = query.message.chat if query.message is not None else None
        if chat is None:
            return Answer(t(lang, "This button is not valid any more."), alert=True)
        if action.startswith("n."):
            info = registry.find(action[2:])
            if info is None:
                return Answer(t(lang, "This button is not valid any more."), alert=True)
            chat_lang = await self.ensure_chat(chat, person)
            private = chat.type == ChatType.PRIVATE
            thread = query.message.message_thread_id if query.message.is_topic_message else 0
            await self.lobby.new(chat_id=chat.id, thread_id=thread or 0, person=person, words=[info.id],
                                 chat_lang=chat_lang, private=private)
            return Answer()
        if action.startswith("l.") and action[2:] in LANGS:
            return await self.set_lang(chat.id, person, action[2:])
        return Answer(t(lang, "This button is not valid any more."), alert=True)

    async def _rematch(self, game: Game, person: Person) -> Answer:
        lang = person.lang
        if game.status not in ("finished", "cancelled"):
            return Answer(t(lang, "This game is not over yet."), alert=True)
        info = registry.info(game.kind)
        chat_lang = await self.service.chat_lang(game.chat_id)
        options = dict(game.options)
        new = await self.lobby.open(chat_id=game.chat_id, thread_id=game.thread_id, person=person, info=info,
                                    options=options, chat_lang=chat_lang,
                                    players=[s for s in game.seats if s.user_id == person.id]
                                    + [s for s in game.seats if s.user_id != person.id])
        if new is None:
            return Answer(t(lang, "A game is already open here."), alert=True)
        return Answer(t(lang, "A new lobby is open: press Start when everyone is ready."))

    async def typed_move(self, person: Person, text: str) -> str | None:
        for found in await self.storage.open_games_of(person.id):
            game = await self.service.load(found.id)
            seat = game.seat_of(person.id)
            if game.status != "running" or seat is None:
                continue
            ui = adapter_for(game.kind)
            ctx = self.service.ctx(game, person.lang)
            reply = ui.typed(ctx, seat, text)
            if reply is None:
                continue
            if isinstance(reply, Alert):
                return reply.text
            if isinstance(reply, Act):
                return await self.service.act(game.id, person.id, None, reply.action, person.lang)
        return t(person.lang, "I did not understand that. See /help.")


def build_application(config: Config) -> Application:
    """The PTB Application with every handler; the bot starts when it is initialised."""
    builder = (ApplicationBuilder().token(config.token).base_url(config.api_url)
               .base_file_url(config.file_url)
               .concurrent_updates(ChatOrderedProcessor(256))
               .get_updates_read_timeout(config.poll_timeout + 10))
    if config.group_writes_per_minute <= 20:
        # A safety net under our own pacing: Telegram's global 30 requests a second.
        builder = builder.rate_limiter(AIORateLimiter(overall_max_rate=30, overall_time_period=1,
                                                      group_max_rate=0, max_retries=0))
    application = builder.build()
    tb = TableBot(config, application)
    application.bot_data["tablebot"] = tb
    application.post_init = tb.post_init
    application.post_shutdown = tb.post_shutdown
    private = filters.ChatType.PRIVATE
    application.add_handler(CommandHandler("new", handlers.on_new))
    application.add_handler(CommandHandler("start", handlers.on_start))
    application.add_handler(CommandHandler("help", handlers.on_help))
    application.add_handler(CommandHandler("rules", handlers.on_rules))
    application.add_handler(CommandHandler("cancel", handlers.on_cancel))
    application.add_handler(CommandHandler("board", handlers.on_board))
    application.add_handler(CommandHandler("lang", handlers.on_lang))
    application.add_handler(CommandHandler("lobbytimeout", handlers.on_lobby_timeout))
    application.add_handler(CommandHandler("turntimer", handlers.on_turn_timer))
    application.add_handler(CallbackQueryHandler(handlers.on_press))
    application.add_handler(ChatMemberHandler(handlers.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, handlers.on_migrate))
    application.add_handler(MessageHandler(filters.COMMAND, handlers.on_unknown_command))
    application.add_handler(MessageHandler(private & filters.TEXT & ~filters.COMMAND, handlers.on_private_text))
    application.add_error_handler(handlers.on_error)
    return application
