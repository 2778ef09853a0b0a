"""The game loop: a move is checked, applied, committed, then shown.

Every change to a running game goes through here: a person's move, a forced move (trio's
draw), a computer player's move, the move the bot makes for an absent player, handing a seat
to a computer and taking it back, closing a game. An accepted move is committed to the store
before any message about it goes out; then the table and the private messages are redrawn in
the background, the turn timer is re-armed, the next player is pinged or, if a computer plays
that seat, its move is made after the table has shown the last one, and a finished game gets
its results (and the next game of its series).
"""
from __future__ import annotations

import asyncio
import json
import logging
import math
import random
import time
from typing import Any

from engines import registry
from engines.base import GameOver, IllegalAction, NotYourTurn, event_dict, options_from_dict
from bot import keyboard
from bot.book import GameBook
from bot.games.base import isolate
from bot.i18n import t
from bot.keyboard import Button
from bot.messenger import Messenger
from bot.people import People
from bot.pings import Pings
from bot.players import ABSENT_LEVEL, computer_move, forced_move
from bot.refusals import Refused
from bot.results import Results
from bot.store import Game, GameStore, PlaceTaken, Seat, StaleVersion, Status
from bot.tables import Tables
from bot.texts import game_name
from bot.timers import Timers
from bot.turns import PlayFor, Remind, TurnPolicy, Wait

log = logging.getLogger(__name__)

RECENT_EVENTS = 12  # engine events kept with the game for captions
# A computer's move shows on the table this long before its next move (plus the group's pace),
# so that people can follow a run of computer moves instead of seeing one jump.
COMPUTER_PAUSE = 1.5


class Play:
    def __init__(self, book: GameBook, store: GameStore, tables: Tables, timers: Timers, turns: TurnPolicy,
                 results: Results, people: People, messenger: Messenger, pings: Pings, *,
                 computer_pause: float = COMPUTER_PAUSE):
        self.book = book
        self.store = store
        self.tables = tables
        self.timers = timers
        self.turns = turns
        self.results = results
        self.people = people
        self.messenger = messenger
        self.pings = pings
        self.computer_pause = computer_pause

    # ---- starting ------------------------------------------------------------------------

    async def begin(self, game: Game, *, shuffle: bool = True) -> None:
        """Seat the players (random order, or as given for a series), set up the engine, commit.

        The caller holds the game's lock; messages follow in ``after_start``.
        """
        # Teams are by lobby order (players 1+3 against 2+4), so a team game keeps its seats.
        if shuffle and len(game.seats) > 1 and not game.options.get("team"):
            order = list(game.seats)
            random.Random(game.seed).shuffle(order)
            game.seats = [s.moved_to(i) for i, s in enumerate(order)]
        eng = registry.engine(game.kind)
        state = eng.setup(len(game.seats), options_from_dict(eng.Options, game.options), game.seed)
        game.state = eng.to_json(state)
        game.status = Status.RUNNING
        game.last_events = self.tables.ui(game).opening_events(self.tables.ctx(game, "en", state))
        await self.store.save_game(game, seats_changed=True)
        self.book.set_state(game.id, state)
        await self._run_forced_moves(game)

    def after_start(self, game: Game) -> None:
        """Post the table and every private message; start the turn timer (or the computer)."""
        self.tables.schedule_table(game.id)
        self.tables.schedule_private_all(game.id, bump_current=False)
        self.arm_turn_timer(game)
        self._computer_if_due(game)

    # ---- moves ---------------------------------------------------------------------------

    async def act(self, game_id: int, seat: int, turn: int | None, action: Any, *,
                  by: str = "person") -> list[dict]:
        """Apply ``seat``'s action (``turn``: the turn its button was drawn for, None for typed
        moves) or raise :class:`Refused`; return the events it caused (forced moves included).
        ``by``: "person"; "computer" (a computer seat, or a seat handed over); "timeout" (the bot
        plays for a player whose time ran out: narrated as such, and counted, so that a game
        nobody plays any more can be closed)."""
        async with self.book.lock(game_id):
            game = await self.book.load(game_id)
            if game is None:
                raise Refused("no_game")
            if game.status != Status.RUNNING:
                raise Refused("not_started" if game.status == Status.LOBBY else "over")
            eng = registry.engine(game.kind)
            state = self.book.state(game.id)
            if turn is not None and turn != eng.turn(state):
                raise Refused("stale_turn")
            before = eng.current_player(state)
            try:
                new_state, events = eng.apply(state, seat, action)
            except NotYourTurn:
                raise Refused("not_your_turn", name=game.seats[before].name if before is not None else "?") from None
            except GameOver:
                raise Refused("over") from None
            except IllegalAction:
                raise Refused("illegal") from None
            lead = [{"kind": "TimedOut", "seat": seat}] if by == "timeout" else []
            idle_before = game.idle_turns
            # Moves not made by people: a game only computers and timeouts play is abandoned.
            game.idle_turns = idle_before + 1 if by == "timeout" else 0 if by == "person" else idle_before
            try:
                happened = await self._commit(game, new_state, events, seat, eng.encode_action(action), lead=lead)
            except StaleVersion:
                game.idle_turns = idle_before
                await self.book.reload(game.id)
                raise Refused("concurrent") from None
            happened += await self._run_forced_moves(game)
            after = eng.current_player(self.book.state(game.id))
            if game.status == Status.FINISHED:
                await self._finished(game)
        self.arm_turn_timer(game)
        self.tables.clear_paths(game)
        self.tables.schedule_table(game_id)
        # Moving the private message down notifies the player, where moves are made there.
        passed = after is not None and after != before
        bump = self.tables.ui(game).moves_in_private and passed
        self.tables.schedule_private_all(game_id, bump_current=bump)
        if passed and game.status == Status.RUNNING:
            self.pings.turn_passed(game, after)
        self._computer_if_due(game)
        return happened

    # ---- computer players ----------------------------------------------------------------

    def _computer_if_due(self, game: Game) -> None:
        """If a computer plays the seat to act, let it move (after the table shows the last move)."""
        state = self.book.state(game.id)
        if game.status != Status.RUNNING or state is None:
            return
        eng = registry.engine(game.kind)
        seat = eng.current_player(state)
        if seat is None or not game.seats[seat].autoplayed:
            return
        turn = eng.turn(state)

        async def job() -> None:
            await self.tables.jobs.settled(("table", game.id))
            await asyncio.sleep(self.computer_pause)
            current = self.book.state(game.id)
            entry = game.seats[seat]
            if game.status != Status.RUNNING or eng.turn(current) != turn or not entry.autoplayed:
                return  # someone moved, or the person took the seat back
            action = await computer_move(game, current, seat, entry.level)
            try:
                await self.act(game.id, seat, turn, action, by="computer")
            except Refused as refused:
                log.info("computer move in game %s: %s", game.id, refused)
        self.tables.jobs.schedule(("computer", game.id), job)

    async def hand_over(self, game: Game, seat: int, level: str = ABSENT_LEVEL) -> None:
        """A computer plays this person's seat from now on (they left, or were away)."""
        async with self.book.lock(game.id):
            if game.status != Status.RUNNING:
                raise Refused("over")
            entry = game.seats[seat]
            if entry.autoplayed:
                return
            entry.level = level
            await self.store.save_game(game, seats_changed=True)
        self.tables.schedule_table(game.id)
        self.tables.schedule_private(game.id, seat)
        self._computer_if_due(game)

    async def take_back(self, game: Game, seat: int) -> None:
        """The person is back: they play their own seat again."""
        async with self.book.lock(game.id):
            if game.status != Status.RUNNING:
                raise Refused("over")
            entry = game.seats[seat]
            if entry.is_computer or not entry.autoplayed:
                return
            entry.level = None
            await self.store.save_game(game, seats_changed=True)
        self.tables.schedule_table(game.id)
        self.tables.schedule_private(game.id, seat, bump=True)
        self.arm_turn_timer(game)

    async def _commit(self, game: Game, new_state: Any, events: list, seat: int, code: str, *,
                      lead: list[dict] = ()) -> list[dict]:
        """Save the new state and its events (``lead``: the platform's own, such as a timeout);
        return those events as stored."""
        eng = registry.engine(game.kind)
        old = (game.state, game.last_events, game.status, game.outcome)
        game.state = eng.to_json(new_state)
        happened = list(lead) + [event_dict(e) for e in events]
        game.last_events = (game.last_events + happened)[-RECENT_EVENTS:]
        result = eng.outcome(new_state)
        if result is not None:
            game.status = Status.FINISHED
            game.outcome = {"places": list(result.places), "reason": result.reason,
                            "scores": json.loads(json.dumps(list(result.scores)))}
        try:
            await self.store.save_game(game, action=(seat, code))
        except BaseException:
            game.state, game.last_events, game.status, game.outcome = old
            raise
        self.book.set_state(game.id, new_state)
        return happened

    async def _run_forced_moves(self, game: Game) -> list[dict]:
        """Apply the moves nobody has a choice about (a forced draw) until a real choice is due."""
        eng = registry.engine(game.kind)
        happened: list[dict] = []
        for _ in range(50):
            if game.status != Status.RUNNING:
                break
            state = self.book.state(game.id)
            action = forced_move(game.kind, state)
            if action is None:
                break
            seat = eng.current_player(state)
            new_state, events = eng.apply(state, seat, action)
            happened += await self._commit(game, new_state, events, seat, eng.encode_action(action))
        return happened

    # ---- the end of a game ---------------------------------------------------------------

    async def _finished(self, game: Game) -> None:
        """Post the results below the final table; a series goes on with its next game."""
        lang = await self.people.chat_lang(game.chat_id)
        text = self.tables.ui(game).results(self.tables.ctx(game, lang))
        rows: list[list[Button]] = [[Button(t(lang, "🔁 Rematch"), "!rematch", turn_free=True)]]
        news = await self.results.record(game, self.book.state(game.id))
        next_game = None
        if news is not None:
            text += "\n\n" + news.text(lang)
            if news.next_seats is not None:
                rows = []
                next_game = await self._next_in_series(game, news.next_seats)
        self.pings.game_over(game)
        self.tables.schedule_results(game, text, rows,
                                     then=(lambda: self.after_start(next_game)) if next_game else None)
        self._let_go(game)

    def _let_go(self, game: Game) -> None:
        """Once its end is shown, a finished or cancelled game leaves memory (the store keeps it)."""
        def forget() -> None:
            self.turns.forget(game.id)
            self.book.forget(game.id)
        self.timers.stop("turn", game.id)
        self.tables.let_go(game, forget)

    async def _next_in_series(self, game: Game, seats: list[Seat]) -> Game | None:
        try:
            nxt = await self.store.create_game(
                kind=game.kind, chat_id=game.chat_id, thread_id=game.thread_id,
                host=Seat(0, game.host_id, game.host_name), options=game.options,
                seed=random.SystemRandom().randrange(1 << 62), series_id=game.series_id)
        except PlaceTaken:
            # Started already (the bot stopped before posting these results), or the group
            # opened another game meanwhile: either way, not a second one.
            return None
        nxt.seats = seats
        self.book.put(nxt)
        async with self.book.lock(nxt.id):
            await self.begin(nxt, shuffle=False)
        return nxt

    # ---- the turn timer ------------------------------------------------------------------

    def arm_turn_timer(self, game: Game) -> None:
        """(Re)start the turn timer of a running game (after each move, or a new setting)."""
        self.timers.watch("turn", game.id, self.check_turn)

    async def check_turn(self, game_id: int, now: float) -> float | None:
        """Remind or play for the player to act, as the policy says; return when to look again."""
        game = await self.book.load(game_id)
        if game is None or game.status != Status.RUNNING:
            return None
        eng = registry.engine(game.kind)
        seat = eng.current_player(self.book.state(game.id))
        if seat is None or game.seats[seat].autoplayed:
            return None  # over, or a computer moves (and re-arms the timer for the next person)
        decision = await self.turns.decide(game, now)
        if decision is None:
            return None
        if isinstance(decision, Wait):
            return decision.until
        if isinstance(decision, Remind):
            await self._remind(game, seat, decision.left)
            return decision.until
        assert isinstance(decision, PlayFor)
        await self._play_for(game, seat)
        return None  # the move re-armed the timer

    async def _remind(self, game: Game, seat: int, left: float) -> None:
        user_id = game.seats[seat].user_id
        minutes_left = max(1, math.ceil(left / 60))
        info = registry.info(game.kind)
        if self.tables.ui(game).moves_in_private:
            lang = await self.people.user_lang(user_id)
            text = t(lang, "⏰ Your move in {game}: {n} min left, then I will move for you.",
                     game=game_name(info, lang), n=minutes_left)
            sent = await self.messenger.send_text(user_id, text)
            if sent.message is not None:
                return
        lang = await self.people.chat_lang(game.chat_id)
        text = t(lang, "⏰ {name}, your move: {n} min left, then I will move for you.",
                 name=self.tables.ctx(game, lang).mention(seat), n=minutes_left)
        # The host or an admin may give the seat to a computer for the rest of the game.
        away = keyboard.markup(game.short_id, None, [[Button(
            t(lang, "🤖 Let a computer play for {name}", name=game.seats[seat].name), f"!away.{seat}",
            turn_free=True)]])
        await self.messenger.send_text(game.chat_id, text, away, thread_id=game.thread_id)

    async def _play_for(self, game: Game, seat: int) -> None:
        eng = registry.engine(game.kind)
        state = self.book.state(game.id)
        action = await computer_move(game, state, seat, ABSENT_LEVEL)
        try:
            await self.act(game.id, seat, eng.turn(state), action, by="timeout")
        except Refused as refused:  # someone moved in the meantime: their move re-armed the timer
            log.info("turn timer of game %s: %s", game.id, refused)
            return
        if game.status == Status.RUNNING and self.turns.nobody_plays(game):
            lang = await self.people.chat_lang(game.chat_id)
            info = registry.info(game.kind)
            names = ", ".join(isolate(s.name) for s in game.seats)
            await self.close(game, t(lang, "Nobody has moved in {game} for two rounds ({names}): the game is closed.",
                                     game=game_name(info, lang), names=names))

    # ---- closing and moving games --------------------------------------------------------

    async def close(self, game: Game, text: str | None) -> bool:
        """Cancel a running game: ``text`` tells the group why (None: say nothing, the group is
        gone); its messages lose their buttons. False when it was not running."""
        async with self.book.lock(game.id):
            if game.status != Status.RUNNING:
                return False
            game.status = Status.CANCELLED
            await self.store.save_game(game)
        self.timers.stop("turn", game.id)
        self.pings.game_over(game)
        if text is not None:
            await self.messenger.send_text(game.chat_id, text, thread_id=game.thread_id)
            await self.tables.strip_game(game)
            self.tables.schedule_table(game.id)  # the table says the game was cancelled
        self._let_go(game)
        return True

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its games move along and their messages are posted anew."""
        ids = await self.store.migrate_chat(old_chat_id, new_chat_id)
        for gid in ids:
            game = await self.book.reload(gid)
            if game is None or not game.is_open:
                continue
            if game.status == Status.RUNNING:
                self.tables.schedule_table(gid)
            else:
                self.tables.schedule_lobby(gid)

    async def set_reachable(self, user_id: int, reachable: bool) -> None:
        """A player blocked (or unblocked) the bot in private: their tables say so at once."""
        for found in await self.store.open_games_of(user_id):
            game = await self.book.load(found.id)
            if game is not None and game.status == Status.RUNNING:
                self.tables.set_reachable(game, game.seat_of(user_id), reachable)

    def resume(self, game: Game) -> None:
        """The bot (re)started with this game running: redraw its table (a message deleted
        meanwhile comes back) and every private message that shows less than the store holds
        (a crash between commit and edit); restart its timer, not counting the time it was down."""
        self.tables.schedule_table(game.id)
        for s in game.seats:
            if s.needs_redraw(game.version):
                self.tables.schedule_private(game.id, s.seat)
        self.turns.resume(game.id, time.time())
        self.arm_turn_timer(game)
        self._computer_if_due(game)

    async def catch_up(self, game: Game) -> None:
        """The bot stopped right after a game's last move: show its end now, once (the final
        table, the private messages, the results and the next game of a series)."""
        if game.table_lags:
            self.tables.schedule_table(game.id)
        for s in game.seats:
            if s.needs_redraw(game.version):
                self.tables.schedule_private(game.id, s.seat)
        async with self.book.lock(game.id):
            await self._finished(game)
