"""The bot: python-telegram-bot's Application around the game platform (``bot/wiring.py``).

``Tablebot`` builds the Application, the store, the messenger, the metrics and the web server;
when the Application starts (``post_init``: the bot knows its own name and the store is open)
``build_core`` wires every other object, the handlers are registered, the command menu is set,
every open game continues and the web server starts listening. Nothing is assigned onto an object after it is built; the only calls back up are
the two closures the Messenger takes (a migrated chat, a user who blocked the bot).
"""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Awaitable

from telegram import BotCommandScopeChat, Update
from telegram.ext import Application, ApplicationBuilder, BaseUpdateProcessor, ContextTypes

from bot.ops import health
from bot.updates import webhook
from bot.ops.config import Config
from bot.wiring import Core, build_core
from bot.updates import router
from bot.updates.context import TableContext
from bot.words.i18n import LANGS, t
from bot.outgoing.inflight import InFlightLimit
from bot.outgoing.http import AiohttpRequest
from bot.outgoing.lanes import LanedRequest
from bot.outgoing.messenger import Messenger
from bot.outgoing.pace import BotPace
from bot.outgoing.pacing import Pacer
from bot.logs import ErrorCount
from bot.ops.owner import database_kind
from bot.ops.metrics import ArrivalQueue, CountingRequest, Metrics
from bot.workers.pool import render_picture
from bot.storage.store import GameStore, Status
from bot.storage.choose import make_store
from bot.table.timers import Timers
from bot.ops.web import WebServer
from bot.webapp import PREFIX as PAGE_PREFIX, build as build_page, group_link, page_url

if TYPE_CHECKING:
    from bot.ops.standby import Standby  # imports asyncpg: only with PostgreSQL

log = logging.getLogger(__name__)


class ChatOrderedProcessor(BaseUpdateProcessor):
    """Updates of one chat run one after another, in order; chats do not wait for each other."""

    def __init__(self, max_concurrent_updates: int = 256):
        super().__init__(max_concurrent_updates)
        # A lock per chat with updates in hand, and how many: it goes with the chat's last update.
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        chat = update.effective_chat if isinstance(update, Update) else None
        if chat is None:
            await coroutine
            return
        lock, users = self._locks.get(chat.id) or (asyncio.Lock(), 0)
        self._locks[chat.id] = (lock, users + 1)
        try:
            async with lock:
                await coroutine
        finally:
            lock, users = self._locks[chat.id]
            if users > 1:
                self._locks[chat.id] = (lock, users - 1)
            else:
                del self._locks[chat.id]

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass


MENU_RETRY_SECONDS = 5.0  # the command menu is tried again this much later, then twice as long …
MENU_ATTEMPTS = 4
MENU_START_SECONDS = 3.0  # the start waits this long at most for the first attempt at the menu
# At shut-down, pending edits get 3 s to go out, or as long as a group's next paced write may
# wait (3.5 s at 20 writes a minute), so that every group gets one more; never more than 4 s.
STOP_DRAIN_SECONDS = 3.0
STOP_DRAIN_MAX_SECONDS = 4.0

# Connections to the Bot API (aiohttp: bot/outgoing/http.py), in two lanes
# (bot/outgoing/lanes.py): the answers to presses (and the questions a press asks, e.g.
# getChatMember) on their own, so that they never wait behind a write; the writes, of which the
# pacer lets no more out than Telegram answers promptly (bot/outgoing/inflight.py: at most
# WRITES_IN_FLIGHT). Answers: enough for a burst of presses at once, or 250 presses a second
# while Telegram takes 1.5 s to answer each. Writes: a thousand busy groups want about 140 a
# second, each holding its place while its picture is drawn and Telegram answers (0.3 s on a
# busy machine): 64 places (a quarter of them kept for people) let only 117 a second out, and
# the tables fell seconds behind (bench load: press → shown p50 4.8 s; with 128, 2.5 s).
ANSWER_CONNECTIONS = 512
WRITES_IN_FLIGHT = 128


def _bot_api_request(metrics: Metrics) -> LanedRequest:
    return LanedRequest(answers=CountingRequest(metrics, ANSWER_CONNECTIONS), answer_connections=ANSWER_CONNECTIONS,
                        writes=CountingRequest(metrics, WRITES_IN_FLIGHT), write_connections=WRITES_IN_FLIGHT)


class Tablebot:
    """The whole bot: python-telegram-bot's Application and, once it starts, every object."""

    def __init__(self, config: Config, standby: Standby | None = None):
        self.config = config
        # The whole bot's writes a second: learnt, or the operator's figure (start and cap).
        pace = BotPace() if config.bot_writes_per_second is None else BotPace(
            start=config.bot_writes_per_second, most=config.bot_writes_per_second)
        pacer = Pacer(config.group_writes_per_minute, config.group_fast_spacing, config.group_window_seconds,
                      pace=pace, in_flight=InFlightLimit(most=WRITES_IN_FLIGHT), paid_broadcasts=config.paid_broadcast)
        self.metrics = Metrics(pacer)
        self.standby = standby  # PostgreSQL: the lock that makes this process the active one
        builder = (ApplicationBuilder().token(config.token).base_url(config.api_url)
                   .base_file_url(config.file_url).request(_bot_api_request(self.metrics))
                   .update_queue(ArrivalQueue(self.metrics, self._press_kind))
                   .get_updates_request(AiohttpRequest(1, read_timeout=config.poll_timeout + 10))
                   .concurrent_updates(ChatOrderedProcessor(256))
                   .context_types(ContextTypes(context=TableContext))
                   .post_init(self.post_init).post_stop(self.post_stop).post_shutdown(self.post_shutdown))
        self.application = builder.build()
        # The database TABLEBOT_DB names (an SQLite file or a PostgreSQL URL: bot/storage/choose.py).
        self.store: GameStore = make_store(config.db_path)
        self.messenger = Messenger(self.application.bot, pacer,
                                   on_migrate=lambda old, new: self.core.play.migrate_chat(old, new),
                                   on_forbidden=self._forbidden)
        self.core: Core | None = None  # built in post_init, when the bot knows its username
        self.errors = ErrorCount()  # the ERROR records logged while it runs (the owner's /botstats)
        # The one web server (bot/ops/web.py): routes and sub-applications are added before post_init
        # ends, when it starts listening.
        self.web = WebServer(port=config.port, metrics_port=config.metrics_port)
        self.web.add_routes(health.routes(self.store, self.metrics, self._not_serving), private=True)
        if config.webhook:
            self.web.add_routes(webhook.routes(self.application, config.token))
        self.webhook_set = False  # Telegram took our webhook (``set_webhook``)

    # The platform's objects, for the tests that drive the bot from outside.
    book = property(lambda self: self.core.book)
    play = property(lambda self: self.core.play)
    lobby = property(lambda self: self.core.lobby)
    tables = property(lambda self: self.core.tables)
    background = property(lambda self: self.core.background)
    turns = property(lambda self: self.core.turns)
    door = property(lambda self: self.core.door)

    # ---- start-up and shut-down ----------------------------------------------------------

    async def post_init(self, application: Application) -> None:
        if self.standby is not None:
            self.standby.watch()  # from now on, losing the lock stops the process at once
        await self.store.open()
        logging.getLogger().addHandler(self.errors)
        config = self.config
        self.core = build_core(self.store, self.messenger, Timers(application.job_queue),
                               bot_username=application.bot.username,
                               turn_minutes=config.turn_timeout_minutes, lobby_minutes=config.lobby_timeout_minutes,
                               ping_quiet_seconds=config.ping_quiet_seconds, computer_pause=config.computer_pause,
                               keep_actions_days=config.keep_actions_days, owner_id=config.owner_id,
                               errors=lambda: self.errors.count, database=database_kind(config.db_path),
                               render=self.metrics.timed_drawing(render_picture),
                               webapp_url=page_url(config.webapp_url) if config.webapp_url else "",
                               group_link=group_link(application.bot.username, config.webapp_short_name, config.token)
                               if config.webapp_short_name else None, season=config.season)
        if config.webapp_url:
            self.web.mount(PAGE_PREFIX, build_page(self.core, config.token))
        updates = self.core.updates
        router.register(application, updates.prepare, updates.features, updates.presses)
        if not application.bot.supports_inline_queries:
            log.info("inline mode is off (@BotFather: /setinline): games start in groups and private chats only, "
                     "not with @%s in any chat", application.bot.username)
        # The command menu: its first attempt is waited for a moment, what fails is tried again
        # in the background; it never holds up the start.
        first = asyncio.get_running_loop().create_future()
        self._menu_task = asyncio.get_running_loop().create_task(self._set_commands(first))
        await asyncio.wait([first, self._menu_task], timeout=MENU_START_SECONDS,
                           return_when=asyncio.FIRST_COMPLETED)
        await self.restore()
        await self.web.start()
        self.metrics.set_active(True)

    async def set_webhook(self, allowed_updates: list[str]) -> None:
        """Have Telegram deliver to our webhook route (tried again until it takes it)."""
        await webhook.register(self.application.bot, self.config.webhook_url, self.config.token, allowed_updates)
        self.webhook_set = True

    def _not_serving(self) -> str | None:
        """Why the bot does not take updates now (for /healthz), or None when it does."""
        app = self.application
        if not app.running:
            return "not running (starting or stopping)"
        if self.config.webhook:
            return None if self.webhook_set else "the webhook is not set yet"
        return None if app.updater is not None and app.updater.running else "not polling"

    def _press_kind(self, data: str | None) -> str:
        return router.press_kind(data, self.core.book.cached) if self.core is not None else "other"

    async def restore(self) -> None:
        """Continue every open game from the store after a (re)start, finish showing the end of
        any game that ended just before the bot stopped, and watch the season's end."""
        core = self.core
        await core.records.catch_up()  # before the results: they show the ratings each game moved
        await core.seasons.catch_up()  # the season's games in order, before any end is followed again
        core.background.schedule(("seasons", "catch up"), core.seasons.catch_up_past)
        core.season_end.watch()  # a season that ended while the bot was away ends now
        core.background.schedule(("achievements", "catch up"), core.achievements.catch_up)  # a new catalogue
        for game in await self.store.unshown_ends():
            core.play.show_end(core.book.put(game))
        for game in await self.store.open_games():
            if core.book.cached(game.id) is not None:
                continue  # the next game of a series just started by catch_up
            match = core.book.put(game)
            if game.status == Status.LOBBY:
                core.lobby.arm_timeout(match)
            else:
                core.play.resume(match)

    async def post_stop(self, application: Application) -> None:
        """Finish the pending edits while the connection to Telegram is still open, for a few
        seconds at most (every move is committed already; a restart redraws what is left), then
        cancel and await every task still running, so that none is left pending."""
        await self.web.stop()
        loop = asyncio.get_running_loop()
        next_write = 1.0 / self.messenger.pacer.rate + 0.3  # the longest wait for a group's next write
        deadline = loop.time() + min(STOP_DRAIN_MAX_SECONDS, max(STOP_DRAIN_SECONDS, next_write))
        menu = getattr(self, "_menu_task", None)
        if menu is not None:
            menu.cancel()
        background = self.core.background if self.core is not None else None
        if background is not None:
            background.close()
            await background.drain(timeout=max(0.0, deadline - loop.time()))
        await self.messenger.drain(timeout=max(0.0, deadline - loop.time()))
        if background is not None:
            await background.cancel()
        await self.messenger.close()
        if menu is not None:
            await asyncio.wait([menu], timeout=1.0)

    async def post_shutdown(self, application: Application) -> None:
        await self.web.stop()  # when the start failed half-way (post_stop runs only after a start)
        logging.getLogger().removeHandler(self.errors)
        await self.store.close()
        if self.standby is not None:
            await self.standby.close()  # the lock goes last: a standby takes over

    async def _set_commands(self, first: asyncio.Future | None = None) -> None:
        """The command menu in every language and scope (``first`` is resolved after the first
        attempt). What fails is tried again a few times, MENU_RETRY_SECONDS later and then twice
        as long each time; then not until the next start."""
        # The owner's menu last: Telegram refuses it until the owner has opened the private chat.
        wanted = [(lang, scope, menu) for lang in LANGS for scope, menu in router.menus(self.config.owner_id)]
        wanted.sort(key=lambda w: isinstance(w[1], BotCommandScopeChat))  # the owner's last: see router.menus
        pause = MENU_RETRY_SECONDS
        for attempt in range(1, MENU_ATTEMPTS + 1):
            while wanted:
                lang, scope, menu = wanted[0]
                commands = [(name, t(lang, text, **router.menu_words())) for name, text in menu]
                if not await self.messenger.set_commands(commands, scope=scope,
                                                         language_code=None if lang == "en" else lang):
                    break  # Telegram is not taking it now: the rest waits for the next attempt
                wanted.pop(0)
            if first is not None and not first.done():
                first.set_result(not wanted)
            if not wanted:
                return
            if attempt < MENU_ATTEMPTS:
                log.info("the command menu is tried again in %.0f s", pause)
                await asyncio.sleep(pause)
                pause *= 2
        log.warning("the command menu could not be set; it is tried again at the next start")

    async def _forbidden(self, user_id: int) -> None:
        await self.core.people.set_private_ok(user_id, False)
