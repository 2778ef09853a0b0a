"""The running games: cache, per-game locks, applying actions, and keeping messages up to date.

SQLite is the source of truth; ``Service.games`` only caches rows and parsed engine states.
An accepted action is committed before any message about it is sent. Messages are refreshed
by background jobs, one per message, that always draw the latest state (so fast sequences of
moves coalesce into fewer edits) and are paced per group by the Messenger.
"""
from __future__ import annotations

import asyncio
import collections
import json
import logging
import random
import time
from dataclasses import replace
from typing import Any, Awaitable, Callable

from engines import registry
from engines.base import GameOver, IllegalAction, NotYourTurn, event_dict, options_from_dict
from bot import keyboard
from bot.games import adapter_for
from bot.games.base import Ctx, GameUI, View
from bot.i18n import normalize_lang, t
from bot.keyboard import Button
from bot.messenger import Messenger, Result
from bot.rendering import render_png
from bot.storage import Game, Seat, StaleVersion, Storage

log = logging.getLogger(__name__)

RECENT_EVENTS = 12


class Coalescer:
    """At most one running job per key; a job scheduled while one runs replaces the pending one."""

    def __init__(self) -> None:
        self._pending: dict[Any, Callable[[], Awaitable[None]]] = {}
        self._tasks: dict[Any, asyncio.Task] = {}

    def schedule(self, key: Any, job: Callable[[], Awaitable[None]]) -> None:
        self._pending[key] = job
        task = self._tasks.get(key)
        if task is None or task.done():
            self._tasks[key] = asyncio.get_running_loop().create_task(self._run(key))

    async def _run(self, key: Any) -> None:
        while key in self._pending:
            job = self._pending.pop(key)
            try:
                await job()
            except Exception:  # one failed refresh must not stop the next one
                log.exception("background job %r failed", key)
        self._tasks.pop(key, None)

    async def drain(self, timeout: float = 10.0) -> None:
        tasks = [t for t in self._tasks.values() if not t.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)

    @property
    def busy(self) -> bool:
        return any(not t.done() for t in self._tasks.values())


class Service:
    def __init__(self, storage: Storage, messenger: Messenger, *, bot_username: str,
                 lobby_timeout_minutes: int = 30):
        self.storage = storage
        self.messenger = messenger
        self.bot_username = bot_username
        self.lobby_timeout_minutes = lobby_timeout_minutes
        self.games: dict[int, Game] = {}
        self.states: dict[int, Any] = {}
        self.locks: dict[int, asyncio.Lock] = collections.defaultdict(asyncio.Lock)
        self.jobs = Coalescer()
        self.table_path: dict[int, str] = {}
        self.dm_path: dict[tuple[int, int], str] = {}
        # What each message shows now: (text, markup json, image key). Skips no-op edits.
        self.shown: dict[tuple[int, int], tuple[str, str, str | None]] = {}
        self.unreachable: set[tuple[int, int]] = set()
        self._admins: dict[tuple[int, int], tuple[float, bool]] = {}
        self.is_admin_fn: Callable[[int, int], Awaitable[bool]] | None = None
        self.timers: Callable[[Game], None] | None = None  # set by the app: (re)schedules lobby timeouts
        self.turn_timers: Callable[[Game], None] | None = None  # set by the app: (re)schedules turn timers

    # ---- loading -----------------------------------------------------------------------

    async def load(self, game_id: int) -> Game | None:
        game = self.games.get(game_id)
        if game is None:
            game = await self.storage.get_game(game_id)
            if game is None:
                return None
            self._cache(game)
        return game

    def _cache(self, game: Game) -> None:
        self.games[game.id] = game
        if game.state is not None:
            self.states[game.id] = registry.engine(game.kind).from_json(game.state)
        else:
            self.states.pop(game.id, None)

    async def reload(self, game_id: int) -> Game | None:
        self.games.pop(game_id, None)
        return await self.load(game_id)

    async def open_game_at(self, chat_id: int, thread_id: int) -> Game | None:
        found = await self.storage.open_game_at(chat_id, thread_id)
        if found is None:
            return None
        return await self.load(found.id)

    def ui(self, game: Game) -> GameUI:
        return adapter_for(game.kind)

    # ---- languages ---------------------------------------------------------------------

    async def chat_lang(self, chat_id: int) -> str:
        if chat_id > 0:
            return await self.user_lang(chat_id)
        row = await self.storage.chat(chat_id)
        return normalize_lang(row["lang"]) if row and row["lang"] else "en"

    async def user_lang(self, user_id: int) -> str:
        row = await self.storage.user(user_id)
        return normalize_lang(row["lang"]) if row else "en"

    def ctx(self, game: Game, lang: str) -> Ctx:
        return Ctx(game=game, eng=registry.engine(game.kind), state=self.states.get(game.id), lang=lang,
                   bot_username=self.bot_username, seat_user_ids=[s.user_id for s in game.seats])

    # ---- permissions -------------------------------------------------------------------

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        if chat_id > 0 or self.is_admin_fn is None:
            return False
        cached = self._admins.get((chat_id, user_id))
        if cached and time.monotonic() - cached[0] < 120:
            return cached[1]
        value = await self.is_admin_fn(chat_id, user_id)
        self._admins[(chat_id, user_id)] = (time.monotonic(), value)
        return value

    async def may_manage(self, game: Game, user_id: int) -> bool:
        return user_id == game.host_id or await self.is_admin(game.chat_id, user_id)

    # ---- starting a game ---------------------------------------------------------------

    def initial_state(self, game: Game) -> Any:
        eng = registry.engine(game.kind)
        opts = options_from_dict(eng.Options, game.options)
        return eng.setup(len(game.seats), opts, game.seed)

    async def begin(self, game: Game, *, shuffle: bool = True) -> None:
        """Seat the players (random order, or as given for series), set up the engine, commit.

        Caller holds the game's lock. Messages follow in ``after_start``.
        """
        # Teams are by lobby order (players 1+3 against 2+4), so a team game keeps its seats.
        if shuffle and len(game.seats) > 1 and not game.options.get("team"):
            order = list(game.seats)
            random.Random(game.seed).shuffle(order)
            game.seats = [Seat(i, s.user_id, s.name, s.kind, None) for i, s in enumerate(order)]
        state = self.initial_state(game)
        eng = registry.engine(game.kind)
        game.state = eng.to_json(state)
        game.status = "running"
        game.last_events = self.ui(game).opening_events(replace(self.ctx(game, "en"), state=state))
        await self.storage.save_game(game, seats_changed=True)
        self.states[game.id] = state
        await self._run_auto_actions(game)

    async def after_start(self, game: Game) -> None:
        """Post the table and every private message; start the turn timer."""
        self.schedule_table(game.id)
        self.schedule_private_all(game.id, bump_current=False)
        if self.turn_timers is not None:
            self.turn_timers(game)

    # ---- actions -----------------------------------------------------------------------

    async def act(self, game_id: int, user_id: int, turn: int | None, action: Any,
                  lang: str, *, timed_out: bool = False) -> str | None:
        """Apply a player's action. Returns None on success, or the reason it was refused.

        ``timed_out``: the bot plays for a player whose time ran out (narrated as such, and
        counted, so that a game nobody plays any more can be closed).
        """
        async with self.locks[game_id]:
            game = await self.load(game_id)
            if game is None:
                return t(lang, "This game no longer exists.")
            if game.status != "running":
                return t(lang, "This game is over.") if game.status in ("finished", "cancelled") \
                    else t(lang, "The game has not started yet.")
            seat = game.seat_of(user_id)
            if seat is None:
                return t(lang, "You are not playing in this game.")
            eng = registry.engine(game.kind)
            state = self.states[game.id]
            if turn is not None and turn != eng.turn(state):
                return t(lang, "This button is from an earlier turn. Use the latest message.")
            before = eng.current_player(state)
            try:
                new_state, events = eng.apply(state, seat, action)
            except NotYourTurn:
                current = eng.current_player(state)
                name = game.seats[current].name if current is not None else "?"
                return t(lang, "It is not your turn: {name} is playing.", name=name)
            except GameOver:
                return t(lang, "This game is over.")
            except IllegalAction:
                return t(lang, "That move is not allowed now.")
            lead = [{"kind": "TimedOut", "seat": seat}] if timed_out else []
            idle_before = game.idle_turns
            game.idle_turns = idle_before + 1 if timed_out else 0
            try:
                await self._commit(game, new_state, events, seat, eng.encode_action(action), lead=lead)
            except StaleVersion:
                game.idle_turns = idle_before
                await self.reload(game.id)
                return t(lang, "Someone moved at the same time. Please try again.")
            await self._run_auto_actions(game)
            after = eng.current_player(self.states[game.id])
        if self.turn_timers is not None:
            self.turn_timers(game)
        self.table_path.pop(game_id, None)
        for s in game.seats:
            self.dm_path.pop((game_id, s.seat), None)
        self.schedule_table(game_id)
        # Moving the private message down notifies the player, where moves are made there.
        bump = self.ui(game).moves_in_private and after is not None and after != before
        self.schedule_private_all(game_id, bump_current=bump)
        return None

    async def _commit(self, game: Game, new_state: Any, events: list, seat: int, code: str, *,
                      lead: list[dict] = ()) -> None:
        """Save the new state and its events (``lead``: the platform's own, such as a timeout)."""
        eng = registry.engine(game.kind)
        old_json = (game.state, game.last_events, game.status, game.outcome)
        game.state = eng.to_json(new_state)
        game.last_events = (game.last_events + list(lead) + [event_dict(e) for e in events])[-RECENT_EVENTS:]
        result = eng.outcome(new_state)
        if result is not None:
            game.status = "finished"
            game.outcome = {"places": list(result.places), "reason": result.reason,
                            "scores": json.loads(json.dumps(list(result.scores)))}
        try:
            await self.storage.save_game(game, action=(seat, code))
        except BaseException:
            game.state, game.last_events, game.status, game.outcome = old_json
            raise
        self.states[game.id] = new_state

    async def _run_auto_actions(self, game: Game) -> None:
        """Apply actions the bot makes for a player (a forced draw) until a real choice is due."""
        eng = registry.engine(game.kind)
        ui = self.ui(game)
        for _ in range(50):
            if game.status != "running":
                return
            ctx = self.ctx(game, "en")
            action = ui.auto_action(ctx)
            if action is None:
                return
            seat = eng.current_player(ctx.state)
            new_state, events = eng.apply(ctx.state, seat, action)
            await self._commit(game, new_state, events, seat, eng.encode_action(action))

    # ---- refreshing messages -----------------------------------------------------------

    def schedule_table(self, game_id: int) -> None:
        self.jobs.schedule(("table", game_id), lambda: self._refresh_table(game_id))

    def schedule_private_all(self, game_id: int, *, bump_current: bool) -> None:
        game = self.games.get(game_id)
        if game is None or game.state is None:
            return
        eng = registry.engine(game.kind)
        current = eng.current_player(self.states[game_id]) if game.status == "running" else None
        for s in game.seats:
            self.schedule_private(game_id, s.seat, bump=bump_current and s.seat == current)

    def schedule_private(self, game_id: int, seat: int, *, bump: bool = False) -> None:
        key = ("dm", game_id, seat)
        self.jobs.schedule(key, lambda: self._refresh_private(game_id, seat, bump))

    @staticmethod
    def _markup_json(markup) -> str:
        return json.dumps(markup.to_dict() if markup is not None else None, sort_keys=True)

    async def _show(self, chat_id: int, message_id: int | None, view: View, markup, *,
                    thread_id: int = 0, force_new: bool = False) -> int | None:
        """Make a message show ``view``: edit it in place, or post it when it is gone.

        Returns the message id now showing the view (None when it could not be shown).
        """
        markup_json = self._markup_json(markup)
        wanted = (view.text, markup_json, view.image_key)
        if message_id is not None and not force_new:
            shown = self.shown.get((chat_id, message_id))
            if shown == wanted:
                return message_id
            if view.image is not None:
                if shown is not None and shown[2] == view.image_key:
                    sent = await self.messenger.edit_caption(chat_id, message_id, view.text, markup)
                else:
                    png = await render_png(view.image)
                    sent = await self.messenger.edit_photo(chat_id, message_id, png, view.text, markup)
            else:
                sent = await self.messenger.edit_text(chat_id, message_id, view.text, markup)
            if sent.ok:
                self.shown[(chat_id, message_id)] = wanted
                return message_id
            if sent.result in (Result.FORBIDDEN, Result.MIGRATED):
                return None
            # MISSING or FAILED: post a new message below.
        if view.image is not None:
            png = await render_png(view.image)
            sent = await self.messenger.send_photo(chat_id, png, view.text, markup, thread_id=thread_id)
        else:
            sent = await self.messenger.send_text(chat_id, view.text, markup, thread_id=thread_id)
        if sent.message is None:
            return None
        self.shown[(chat_id, sent.message.message_id)] = wanted
        return sent.message.message_id

    def table_view(self, game: Game, lang: str) -> tuple[View, Any]:
        ui = self.ui(game)
        ctx = self.ctx(game, lang)
        running = game.status == "running"
        view = ui.table(ctx, self.table_path.get(game.id, "") if running else "")
        rows = view.rows if running else []
        if running:
            lost = [s.seat for s in game.seats if (game.id, s.seat) in self.unreachable]
            if lost:
                names = ", ".join(ctx.name(s) for s in lost)
                view.text += "\n" + t(lang, "⚠️ I cannot write to {names} in private: open @{bot} and press START.",
                                      names=names, bot=self.bot_username)
        markup = keyboard.markup(game.short_id, ctx.turn, rows)
        return view, markup

    async def _refresh_table(self, game_id: int) -> None:
        game = self.games.get(game_id)
        if game is None or game.state is None or game.status == "cancelled":
            return
        lang = await self.chat_lang(game.chat_id)
        view, markup = self.table_view(game, lang)
        new_id = await self._show(game.chat_id, game.table_msg, view, markup, thread_id=game.thread_id)
        if new_id is not None and new_id != game.table_msg:
            game.table_msg = new_id
            await self.storage.save_messages(game)
        if game.status == "finished" and game.results_msg is None:
            await self._post_results(game, lang)

    async def repost_table(self, game: Game) -> None:
        """``/board``: the table again at the bottom of the chat; the old one loses its buttons."""
        lang = await self.chat_lang(game.chat_id)
        old = game.table_msg
        view, markup = self.table_view(game, lang)
        new_id = await self._show(game.chat_id, None, view, markup, thread_id=game.thread_id)
        if new_id is None:
            return
        game.table_msg = new_id
        await self.storage.save_messages(game)
        if old is not None:
            await self.messenger.edit_markup(game.chat_id, old, None)
            self.shown.pop((game.chat_id, old), None)

    async def _refresh_private(self, game_id: int, seat: int, bump: bool) -> None:
        game = self.games.get(game_id)
        if game is None or game.state is None or seat >= len(game.seats):
            return
        entry = game.seats[seat]
        if entry.kind != "human":
            return
        lang = await self.user_lang(entry.user_id)
        ctx = self.ctx(game, lang)
        view = self.ui(game).private(ctx, seat, self.dm_path.get((game_id, seat), "") if game.status == "running" else "")
        if view is None:
            return
        rows = view.rows if game.status == "running" else []
        markup = keyboard.markup(game.short_id, ctx.turn, rows)
        old = entry.dm_msg
        if bump and old is not None:
            # A new message notifies the player that it is their turn; the old one goes.
            await self.messenger.delete(entry.user_id, old)
            self.shown.pop((entry.user_id, old), None)
            old = None
        new_id = await self._show(entry.user_id, old, view, markup)
        if new_id is None:
            if (game_id, seat) not in self.unreachable:
                self.unreachable.add((game_id, seat))
                self.schedule_table(game_id)
            return
        if (game_id, seat) in self.unreachable:
            self.unreachable.discard((game_id, seat))
            self.schedule_table(game_id)
        if new_id != entry.dm_msg:
            entry.dm_msg = new_id
            await self.storage.save_messages(game)

    async def _post_results(self, game: Game, lang: str) -> None:
        ui = self.ui(game)
        ctx = self.ctx(game, lang)
        text = ui.results(ctx)
        rows: list[list[Button]] = [[Button(t(lang, "🔁 Rematch"), "!rematch", turn_free=True)]]
        next_game = None
        if game.series_id is not None:
            series_text, next_game = await self._advance_series(game, lang)
            text += "\n\n" + series_text
            if next_game is not None:
                rows = []
        markup = keyboard.markup(game.short_id, None, rows)
        sent = await self.messenger.send_text(game.chat_id, text, markup, thread_id=game.thread_id)
        if sent.message is not None:
            game.results_msg = sent.message.message_id
            await self.storage.save_messages(game)
        if next_game is not None:
            await self.after_start(next_game)

    # ---- series (lucky) ----------------------------------------------------------------

    async def _advance_series(self, game: Game, lang: str) -> tuple[str, Game | None]:
        series = await self.storage.series(game.series_id)
        if series is None:
            return "", None
        eng = registry.engine(game.kind)
        points = eng.victory_points(self.states[game.id]) if hasattr(eng, "victory_points") \
            else [0] * len(game.seats)
        for s in game.seats:
            key = str(s.user_id)
            series.points[key] = series.points.get(key, 0) + int(points[s.seat])
        series.played += 1
        await self.storage.save_series(series)
        names = {s.user_id: s.name for s in game.seats}
        table = sorted(series.users, key=lambda u: -series.points.get(str(u), 0))
        lines = [t(lang, "<b>Series</b>: game {played} of {total}", played=series.played, total=series.total)]
        for user_id in table:
            from bot.games.base import isolate
            lines.append(f"{isolate(names.get(user_id, '?'))}: {series.points.get(str(user_id), 0)}")
        if series.played >= series.total:
            best = max(series.points.values())
            champs = [isolate(names.get(u, "?")) for u in series.users if series.points.get(str(u), 0) == best]
            lines.append(t(lang, "🏆 Series won by {names}", names=", ".join(champs)))
            return "\n".join(lines), None
        lines.append(t(lang, "The next game starts now."))
        # Rotate the seats so that everyone starts once.
        seats = game.seats[1:] + game.seats[:1]
        nxt = await self.storage.create_game(
            kind=game.kind, chat_id=game.chat_id, thread_id=game.thread_id,
            host=Seat(0, game.host_id, names.get(game.host_id, "?")), options=game.options,
            seed=random.SystemRandom().randrange(1 << 62), series_id=series.id, status="lobby")
        nxt.seats = [Seat(i, s.user_id, s.name, s.kind) for i, s in enumerate(seats)]
        self._cache(nxt)
        async with self.locks[nxt.id]:
            await self.begin(nxt, shuffle=False)
        return "\n".join(lines), nxt

    # ---- chat migration ----------------------------------------------------------------

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        ids = await self.storage.migrate_chat(old_chat_id, new_chat_id)
        for gid in ids:
            game = self.games.get(gid)
            if game is None:
                continue
            game.chat_id = new_chat_id
            game.lobby_msg = game.table_msg = game.results_msg = None
        for gid in ids:
            game = await self.reload(gid)
            if game is None or game.status not in ("lobby", "running"):
                continue
            if game.status == "running":
                self.schedule_table(gid)
            elif self.on_lobby_moved is not None:
                self.on_lobby_moved(game)

    on_lobby_moved: Callable[[Game], None] | None = None

    # ---- users -------------------------------------------------------------------------

    async def set_reachable(self, user_id: int, reachable: bool) -> None:
        """A user blocked (or unblocked) the bot in private: the tables of their games say so
        at once, and an unblocked player gets their private message again."""
        for found in await self.storage.open_games_of(user_id):
            game = await self.load(found.id)
            if game is None or game.status != "running":
                continue
            seat = game.seat_of(user_id)
            if reachable:
                self.schedule_private(game.id, seat, bump=True)  # clears the warning once it arrives
            elif (game.id, seat) not in self.unreachable:
                self.unreachable.add((game.id, seat))
                self.schedule_table(game.id)
