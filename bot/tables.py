"""Keeping every message of a game shown: the lobby, the table, the private messages, the results.

Each message is redrawn by a background job from the latest state (``Coalescer``), so a burst
of moves becomes one edit, and the Messenger paces the writes per group. What a message shows
now is remembered, so an unchanged message is not edited, and an unchanged picture is not
drawn or uploaded again (only its caption is edited).
"""
from __future__ import annotations

import asyncio
import html
import json
import logging
import re
from typing import Any, Awaitable, Callable

from engines import registry
from bot import keyboard
from bot.book import GameBook
from bot.games import adapter_for
from bot.games.base import Ctx, GameUI, View
from bot.i18n import t
from bot.keyboard import Button
from bot.lobby_view import LobbyNote, lobby_message
from bot.messenger import Messenger, Result
from bot.people import People
from bot.rendering import render_picture
from bot.store import Game, GameStore, Status
from bot.turns import TurnPolicy

log = logging.getLogger(__name__)


RETRY_SECONDS = 10.0  # a message Telegram could not be reached for is tried again this much later
# A new message that may or may not have arrived is posted again only this much later, if nobody
# pressed a button on it meanwhile (which tells its id: see ``adopt``).
UNSURE_SECONDS = 30.0


class TryLater(Exception):
    """Telegram could not be reached for this message: run the job again later (an edit is not
    turned into a new message, which would leave the old one behind with live buttons)."""

    def __init__(self, seconds: float = RETRY_SECONDS):
        super().__init__(seconds)
        self.seconds = seconds


class Coalescer:
    """At most one running job per key; a job scheduled while one runs replaces the pending one.
    A job that raises TryLater runs again after a while, unless a newer one took its place."""

    def __init__(self) -> None:
        self._pending: dict[Any, Callable[[], Awaitable[None]]] = {}
        self._tasks: dict[Any, asyncio.Task] = {}
        self._later: dict[Any, asyncio.TimerHandle] = {}
        self._closed = False

    def schedule(self, key: Any, job: Callable[[], Awaitable[None]]) -> None:
        if self._closed:
            return  # shutting down: a restart redraws everything
        later = self._later.pop(key, None)
        if later is not None:
            later.cancel()
        self._pending[key] = job
        task = self._tasks.get(key)
        if task is None or task.done():
            self._tasks[key] = asyncio.get_running_loop().create_task(self._run(key))

    async def _run(self, key: Any) -> None:
        while key in self._pending:
            job = self._pending.pop(key)
            try:
                await job()
            except TryLater as later:
                if key not in self._pending:
                    log.info("%r: not shown yet, trying again in %.0f s", key, later.seconds)
                    self._later[key] = asyncio.get_running_loop().call_later(
                        later.seconds, lambda: self.schedule(key, job))
            except Exception:  # one failed refresh must not stop the next one
                log.exception("background job %r failed", key)
        self._tasks.pop(key, None)

    async def settled(self, key: Any) -> None:
        """Wait until the job of ``key`` (and any replacement of it) has run."""
        while (task := self._tasks.get(key)) is not None and not task.done():
            await asyncio.wait([task])

    async def drain(self, timeout: float = 10.0) -> None:
        tasks = [t for t in self._tasks.values() if not t.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    def close(self) -> None:
        """Forget the retries still waiting and take no new jobs (at shut-down; a restart
        redraws everything)."""
        self._closed = True
        for handle in self._later.values():
            handle.cancel()
        self._later.clear()

    async def cancel(self, timeout: float = 1.0) -> None:
        """Close, cancel the jobs still running and wait until they have stopped (at shut-down,
        after ``drain``: no task is left pending when the event loop closes)."""
        self.close()
        self._pending.clear()
        tasks = [t for t in self._tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    @property
    def busy(self) -> bool:
        return any(not t.done() for t in self._tasks.values())


class Tables:
    def __init__(self, book: GameBook, store: GameStore, messenger: Messenger, people: People, turns: TurnPolicy, *,
                 bot_username: str, render: Callable[[Callable[[], bytes]], Awaitable[bytes]] = render_picture):
        self.book = book
        self.render = render  # draws a picture job off the event loop (bot/rendering.py)
        self.store = store
        self.messenger = messenger
        self.people = people
        self.turns = turns
        self.bot_username = bot_username
        self.jobs = Coalescer()
        # Where each player is in composing a move (a navigation path of the game's adapter).
        self._table_path: dict[int, str] = {}
        self._dm_path: dict[tuple[int, int], str] = {}
        self._lobby_notes: dict[int, LobbyNote] = {}
        # What each message shows now: (text, markup json, image key). Skips no-op edits.
        self._shown: dict[tuple[int, int], tuple[str, str, str | None]] = {}
        self._shown_turn: dict[tuple[int, int], int] = {}  # the turn a table or private message shows
        self._unreachable: set[tuple[int, int]] = set()

    # ---- what a game looks like ----------------------------------------------------------

    @staticmethod
    def ui(game: Game) -> GameUI:
        return adapter_for(game.kind)

    def ctx(self, game: Game, lang: str, state: Any = None) -> Ctx:
        """What an adapter may look at: the game, its engine state (``state`` or the latest)."""
        return Ctx(game=game, eng=registry.engine(game.kind),
                   state=state if state is not None else self.book.state(game.id), lang=lang,
                   bot_username=self.bot_username, seat_user_ids=[s.user_id for s in game.seats])

    # ---- composing a move ----------------------------------------------------------------

    def set_path(self, game: Game, where: str, seat: int | None, path: str) -> None:
        """A player moved on in composing a move; their message shows the new step."""
        if where == "table":
            self._table_path[game.id] = path
            self.schedule_table(game.id)
        elif seat is not None:
            self._dm_path[(game.id, seat)] = path
            self.schedule_private(game.id, seat)

    def clear_paths(self, game: Game) -> None:
        """A move was made: every half-composed move starts again."""
        self._table_path.pop(game.id, None)
        for s in game.seats:
            self._dm_path.pop((game.id, s.seat), None)

    def shows_turn(self, chat_id: int, message_id: int) -> int | None:
        """The turn a game message shows now (None: not known, e.g. after a restart)."""
        return self._shown_turn.get((chat_id, message_id))

    def toast(self, game: Game, events: list[dict], lang: str) -> str | None:
        """What a move did, in a line for the presser's pop-up (public narration only)."""
        lines = self.ui(game).story(self.ctx(game, lang), events)
        if not lines:
            return None
        return "✓ " + " ".join(html.unescape(re.sub(r"<[^>]*>", "", line)).replace("\u2068", "").replace("\u2069", "")
                               for line in lines)

    async def adopt(self, game: Game, where: str, seat: int | None, message_id: int) -> None:
        """A button was pressed on a message of this game the bot lost track of (its post timed
        out but did arrive): that message is the table (or the private message) from now on."""
        if where == "table":
            game.table_msg = message_id
        else:
            game.seats[seat].dm_msg = message_id
        await self.store.save_messages(game)
        self.redraw(game, where, seat)

    def redraw(self, game: Game, where: str, seat: int | None) -> None:
        if where == "table":
            self.schedule_table(game.id)
        elif seat is not None:
            self.schedule_private(game.id, seat)

    # ---- showing one message -------------------------------------------------------------

    @staticmethod
    def _markup_json(markup) -> str:
        return json.dumps(markup.to_dict() if markup is not None else None, sort_keys=True)

    async def _show(self, chat_id: int, message_id: int | None, view: View, markup, *,
                    thread_id: int = 0, force_new: bool = False) -> int | None:
        """Make a message show ``view``: edit it in place, or post it when it is gone.

        Returns the message id now showing the view (None when it could not be shown).
        """
        wanted = (view.text, self._markup_json(markup), view.image_key)
        if message_id is not None and not force_new:
            shown = self._shown.get((chat_id, message_id))
            if shown == wanted:
                return message_id
            if view.image is not None:
                if shown is not None and shown[2] == view.image_key:
                    sent = await self.messenger.edit_caption(chat_id, message_id, view.text, markup)
                else:
                    sent = await self.messenger.edit_photo(chat_id, message_id, lambda: self.render(view.image),
                                                           view.text, markup)
            else:
                sent = await self.messenger.edit_text(chat_id, message_id, view.text, markup)
            if sent.ok:
                self._shown[(chat_id, message_id)] = wanted
                return message_id
            if sent.result in (Result.FORBIDDEN, Result.MIGRATED):
                return None
            if sent.result != Result.MISSING:
                raise TryLater()
            # MISSING: deleted by someone; post a new message below.
            self._forget(chat_id, message_id)
        if view.image is not None:
            sent = await self.messenger.send_photo(chat_id, lambda: self.render(view.image), view.text, markup,
                                                   thread_id=thread_id)
        else:
            sent = await self.messenger.send_text(chat_id, view.text, markup, thread_id=thread_id)
        if sent.message is None:
            if sent.result == Result.FAILED:
                raise TryLater()
            if sent.result == Result.UNSURE:
                raise TryLater(UNSURE_SECONDS)  # not posted twice at once: it may be there
            return None  # forbidden or migrated
        self._shown[(chat_id, sent.message.message_id)] = wanted
        return sent.message.message_id

    def _forget(self, chat_id: int, message_id: int | None) -> None:
        """A message no longer shows the game (deleted, gone, stripped, or its game is over)."""
        self._shown.pop((chat_id, message_id), None)
        self._shown_turn.pop((chat_id, message_id), None)

    async def _strip(self, chat_id: int, message_id: int | None) -> None:
        """Take the buttons off a message that no longer leads anywhere."""
        if message_id is not None:
            await self.messenger.edit_markup(chat_id, message_id, None)
            self._forget(chat_id, message_id)

    # ---- the lobby -----------------------------------------------------------------------

    def set_lobby_note(self, game_id: int, note: LobbyNote | None) -> None:
        if note is None:
            self._lobby_notes.pop(game_id, None)
        else:
            self._lobby_notes[game_id] = note

    def lobby_note(self, game_id: int) -> LobbyNote | None:
        return self._lobby_notes.get(game_id)

    def schedule_lobby(self, game_id: int) -> None:
        """Edit the lobby message (in the background, coalesced and paced)."""
        async def job() -> None:
            game = self.book.cached(game_id)
            if game is None or game.status != Status.LOBBY:
                return
            lang = await self.people.chat_lang(game.chat_id)
            minutes = await self.turns.minutes(game.chat_id)
            view, markup = lobby_message(game, lang, self._lobby_notes.get(game.id), self.bot_username, minutes)
            new_id = await self._show(game.chat_id, game.lobby_msg, view, markup, thread_id=game.thread_id)
            if new_id is not None and new_id != game.lobby_msg:
                game.lobby_msg = new_id
                await self.store.save_messages(game)
        self.jobs.schedule(("lobby", game_id), job)

    def repost_lobby(self, game: Game) -> None:
        """``/board`` during a lobby: the lobby again at the bottom; the old one loses its buttons."""
        old = game.lobby_msg
        game.lobby_msg = None
        self.schedule_lobby(game.id)
        if old is not None:
            self.jobs.schedule(("lobby-old", game.id), lambda: self._strip(game.chat_id, old))

    def close_lobby(self, game: Game, text: str) -> None:
        """Turn the lobby message into a plain record (no buttons)."""
        self._lobby_notes.pop(game.id, None)
        if game.lobby_msg is None:
            return
        chat_id, message_id, thread_id = game.chat_id, game.lobby_msg, game.thread_id

        async def job() -> None:
            await self._show(chat_id, message_id, View(text), None, thread_id=thread_id)
        self.jobs.schedule(("lobby", game.id), job)

    # ---- the table -----------------------------------------------------------------------

    def table_view(self, game: Game, lang: str) -> tuple[View, Any]:
        ctx = self.ctx(game, lang)
        running = game.status == Status.RUNNING
        view = self.ui(game).table(ctx, self._table_path.get(game.id, "") if running else "")
        rows = view.rows if running else []
        if running:
            lost = [s.seat for s in game.seats if (game.id, s.seat) in self._unreachable]
            if lost:
                names = ", ".join(ctx.name(s) for s in lost)
                view.text += "\n" + t(lang, "⚠️ I cannot write to {names} in private: open @{bot} and press START.",
                                      names=names, bot=self.bot_username)
            extra = [Button(t(lang, "📖 Rules"), "?rules", turn_free=True)]
            if any(s.autoplayed and not s.is_computer for s in game.seats):
                extra.insert(0, Button(t(lang, "🙋 I'm back: my seat"), "!back", turn_free=True))
            rows = rows + [extra]
        return view, keyboard.markup(game.short_id, ctx.turn, rows)

    def schedule_table(self, game_id: int) -> None:
        self.jobs.schedule(("table", game_id), lambda: self._refresh_table(game_id))

    async def _refresh_table(self, game_id: int) -> None:
        game = self.book.cached(game_id)
        if game is None or game.state is None:
            return
        lang = await self.people.chat_lang(game.chat_id)
        turn, version = registry.engine(game.kind).turn(self.book.state(game.id)), game.version
        view, markup = self.table_view(game, lang)
        new_id = await self._show(game.chat_id, game.table_msg, view, markup, thread_id=game.thread_id)
        if new_id is None:
            return
        self._shown_turn[(game.chat_id, new_id)] = turn
        if new_id != game.table_msg or version != game.table_version:
            game.table_msg, game.table_version = new_id, version
            await self.store.save_messages(game)

    async def repost_table(self, game: Game) -> None:
        """``/board``: the table again at the bottom of the chat; the old one loses its buttons."""
        lang = await self.people.chat_lang(game.chat_id)
        old = game.table_msg
        view, markup = self.table_view(game, lang)
        new_id = await self._show(game.chat_id, None, view, markup, thread_id=game.thread_id)
        if new_id is None:
            return
        game.table_msg = new_id
        await self.store.save_messages(game)
        await self._strip(game.chat_id, old)

    async def strip_game(self, game: Game) -> None:
        """A closed game: its table and private messages lose their buttons."""
        await self._strip(game.chat_id, game.table_msg)
        for s in game.seats:
            await self._strip(s.user_id, s.dm_msg)

    # ---- private messages ----------------------------------------------------------------

    def schedule_private_all(self, game_id: int, *, bump_current: bool) -> None:
        game = self.book.cached(game_id)
        state = self.book.state(game_id)
        if game is None or state is None:
            return
        current = registry.engine(game.kind).current_player(state) if game.status == Status.RUNNING else None
        for s in game.seats:
            self.schedule_private(game_id, s.seat, bump=bump_current and s.seat == current)

    def schedule_private(self, game_id: int, seat: int, *, bump: bool = False) -> None:
        self.jobs.schedule(("dm", game_id, seat), lambda: self._refresh_private(game_id, seat, bump))

    async def _refresh_private(self, game_id: int, seat: int, bump: bool) -> None:
        game = self.book.cached(game_id)
        if game is None or game.state is None or seat >= len(game.seats):
            return
        entry = game.seats[seat]
        if entry.kind != "human":
            return
        lang = await self.people.user_lang(entry.user_id)
        ctx, version = self.ctx(game, lang), game.version
        running = game.status == Status.RUNNING
        view = self.ui(game).private(ctx, seat, self._dm_path.get((game_id, seat), "") if running else "")
        if view is None:
            return
        markup = keyboard.markup(game.short_id, ctx.turn, view.rows if running else [])
        old = entry.dm_msg
        if bump and old is not None:
            # A new message notifies the player that it is their turn; the old one goes.
            await self.messenger.delete(entry.user_id, old)
            self._forget(entry.user_id, old)
            old = None
        new_id = await self._show(entry.user_id, old, view, markup)
        if new_id is not None:
            self._shown_turn[(entry.user_id, new_id)] = ctx.turn
        self._mark_reachable(game, seat, new_id is not None)
        if new_id is not None and (new_id != entry.dm_msg or version != entry.dm_version):
            entry.dm_msg, entry.dm_version = new_id, version
            await self.store.save_messages(game)

    def _mark_reachable(self, game: Game, seat: int, reachable: bool) -> None:
        """The table warns about a player the bot cannot write to in private."""
        key = (game.id, seat)
        if reachable == (key not in self._unreachable):
            return
        if reachable:
            self._unreachable.discard(key)
        else:
            self._unreachable.add(key)
        self.schedule_table(game.id)

    def set_reachable(self, game: Game, seat: int, reachable: bool) -> None:
        """A player blocked (or unblocked) the bot: the table says so at once; a returning
        player gets their private message again (which clears the warning once it arrives)."""
        if reachable:
            self.schedule_private(game.id, seat, bump=True)
        else:
            self._mark_reachable(game, seat, False)

    # ---- results -------------------------------------------------------------------------

    async def _settled(self, game: Game) -> None:
        """Wait until the game's table and private messages show their last state."""
        await self.jobs.settled(("table", game.id))
        for s in game.seats:
            await self.jobs.settled(("dm", game.id, s.seat))

    def let_go(self, game: Game, then: Callable[[], None]) -> None:
        """A game is over and shown: forget what its messages show, then ``then()`` (the book lets
        go of it too). A finished game's memory is freed; the store keeps everything."""
        async def job() -> None:
            await self._settled(game)
            await self.jobs.settled(("results", game.id))
            ids = {(game.chat_id, game.table_msg), (game.chat_id, game.lobby_msg)}
            ids |= {(s.user_id, s.dm_msg) for s in game.seats}
            for chat_id, message_id in ids:
                self._forget(chat_id, message_id)
            self._table_path.pop(game.id, None)
            self._lobby_notes.pop(game.id, None)
            for s in game.seats:
                self._dm_path.pop((game.id, s.seat), None)
                self._unreachable.discard((game.id, s.seat))
            then()
        self.jobs.schedule(("let-go", game.id), job)

    def schedule_results(self, game: Game, text: str, rows: list[list[keyboard.Button]], *,
                         then: Callable[[], None] | None = None) -> None:
        """Post the results below the final table (after its last edit), once; then ``then()``
        (the next game of a series shows its table below the results)."""
        async def job() -> None:
            await self._settled(game)
            if game.results_msg is None:
                markup = keyboard.markup(game.short_id, None, rows)
                sent = await self.messenger.send_text(game.chat_id, text, markup, thread_id=game.thread_id)
                if sent.message is not None:
                    game.results_msg = sent.message.message_id
                    await self.store.save_messages(game)
            if then is not None:
                then()
        self.jobs.schedule(("results", game.id), job)
