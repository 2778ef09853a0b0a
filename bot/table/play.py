"""The game loop: a move is applied, committed, then announced.

Every change to a running game goes through here: a person's move (checked by the door,
``bot/updates/door.py``), a forced move (trio's draw), a computer player's move, the move the bot makes
for an absent player, handing a seat to a computer and taking it back, closing a game. An
accepted move is committed to the store before anything about it is announced; then the change
is published (``bot/table/changes.py``) to whoever shows the game. The loop itself re-arms the turn
timer, lets a computer move once the table shows the last move, and says when a game is over
(its end is shown by ``bot/ending``, which also asks here for the next game of a series).
"""
from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from typing import Any

from engines.base import GameOver, IllegalAction, NotYourTurn, event_dict, options_from_dict
from bot.table.background import Background
from bot.table.book import GameBook, Match
from bot.table.changes import Changes, Closed, Due, Finished, Moved, Outdated, SeatChanged, Shown, Started
from bot.logs import ids
from bot.table.players import ABSENT_LEVEL, computer_move
from bot.words.refusals import Refused
from bot.storage.store import GameStore, PlaceTaken, Seat, StaleVersion, Status
from bot.table.timers import Timers
from bot.table.turns import PlayFor, Remind, TurnPolicy, Wait

log = logging.getLogger(__name__)

RECENT_EVENTS = 12  # engine events kept with the game for captions
# A computer's move shows on the table this long before its next move (plus the group's pace),
# so that people can follow a run of computer moves instead of seeing one jump.
COMPUTER_PAUSE = 1.5


class Play:
    def __init__(self, book: GameBook, store: GameStore, changes: Changes, background: Background,
                 timers: Timers, turns: TurnPolicy, *, computer_pause: float = COMPUTER_PAUSE):
        self.book = book
        self.store = store
        self.changes = changes
        self.background = background
        self.timers = timers
        self.turns = turns
        self.computer_pause = computer_pause

    # ---- starting ------------------------------------------------------------------------

    async def begin(self, match: Match, *, shuffle: bool = True) -> None:
        """Seat the players (random order, or as given for a series), set up the engine, commit.

        The caller holds the game's lock; the table follows in ``after_start``.
        """
        game, eng = match.game, match.eng
        # Teams are by lobby order (players 1+3 against 2+4), so a team game keeps its seats.
        if shuffle and len(game.seats) > 1 and not game.options.get("team"):
            order = list(game.seats)
            random.Random(game.seed).shuffle(order)
            game.seats = [s.moved_to(i) for i, s in enumerate(order)]
        state = eng.setup(len(game.seats), options_from_dict(eng.Options, game.options), game.seed)
        game.state = eng.to_json(state)
        game.status = Status.RUNNING
        game.last_events = match.ui.opening_events(match.ctx("en", state))
        await self.store.save_game(game, seats_changed=True)
        match.state = state
        log.info("game %s of %s started: %d seats", game.id, game.kind, len(game.seats), extra=ids(game))
        await self._run_forced_moves(match)

    def after_start(self, match: Match) -> None:
        """Show the new game; start its turn timer (or the computer)."""
        self.changes.publish(Started(match))
        self.arm_turn_timer(match)
        self._computer_if_due(match)

    # ---- moves ---------------------------------------------------------------------------

    async def act(self, game_id: int, seat: int, turn: int | None, action: Any, *,
                  by: str = "person") -> list[dict]:
        """A move made without a press (``by``: "computer"; "timeout" when the player's time ran
        out): applied if the game still waits for it on ``turn`` (None: any), else
        :class:`Refused`. Presses come through the door, which checks them and calls :meth:`apply`."""
        async with self.book.lock(game_id):
            match = await self.book.load(game_id)
            if match is None or not match.running:
                raise Refused("over")
            if turn is not None and turn != match.turn:
                raise Refused("stale_turn")
            return await self.apply(match, seat, action, by=by)

    async def apply(self, match: Match, seat: int, action: Any, *, by: str = "person") -> list[dict]:
        """Apply ``seat``'s action to a running game, commit it, announce it; return the events
        it caused (forced moves included). The caller holds the game's lock and has checked the
        turn. ``by``: "person"; "computer" (a computer seat, or a seat handed over); "timeout"
        (narrated as such, and counted, so that a game nobody plays any more can be closed)."""
        game, eng = match.game, match.eng
        before = match.current
        try:
            new_state, events = eng.apply(match.state, seat, action)
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
            # Kept with the move, so that the records can tell who really played a seat.
            by_computer = by == "timeout" or game.seats[seat].autoplayed
            happened = await self._commit(match, new_state, events, seat, eng.encode_action(action), lead=lead,
                                          by_computer=by_computer)
        except StaleVersion:
            game.idle_turns = idle_before
            await self.book.reload(game.id)
            raise Refused("concurrent") from None
        log.debug("game %s: seat %d moved (%s)", game.id, seat, by, extra=ids(game))
        happened += await self._run_forced_moves(match)
        self.changes.publish(Moved(match, seat, before, match.current, happened))
        if game.status == Status.FINISHED:
            self._finished(match)
        else:
            self.arm_turn_timer(match)
            self._computer_if_due(match)
        return happened

    async def _commit(self, match: Match, new_state: Any, events: list, seat: int, code: str, *,
                      lead: list[dict] = (), by_computer: bool = False) -> list[dict]:
        """Save the new state and its events (``lead``: the platform's own, such as a timeout);
        return those events as stored."""
        game, eng = match.game, match.eng
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
            await self.store.save_game(game, action=(seat, code), by_computer=by_computer)
        except BaseException:
            game.state, game.last_events, game.status, game.outcome = old
            raise
        match.state = new_state
        return happened

    async def _run_forced_moves(self, match: Match) -> list[dict]:
        """Apply the moves nobody has a choice about (a forced draw) until a real choice is due."""
        happened: list[dict] = []
        for _ in range(50):
            if match.game.status != Status.RUNNING:
                break
            action = match.ui.forced_move(match.state)
            if action is None:
                break
            seat = match.current
            new_state, events = match.eng.apply(match.state, seat, action)
            # A forced move counts as its seat's player's (a computer's only if one plays the seat).
            happened += await self._commit(match, new_state, events, seat, match.eng.encode_action(action),
                                           by_computer=match.game.seats[seat].autoplayed)
        return happened

    # ---- computer players ----------------------------------------------------------------

    def _computer_if_due(self, match: Match) -> None:
        """If a computer plays the seat to act, let it move (after the table shows the last move)."""
        seat = match.current
        if seat is None or not match.game.seats[seat].autoplayed:
            return
        turn = match.turn

        async def job() -> None:
            await match.stages.table.caught_up()  # the table shows the last move first
            await asyncio.sleep(self.computer_pause)
            entry = match.game.seats[seat]
            if match.gone or match.current != seat or match.turn != turn or not entry.autoplayed:
                return  # someone moved, the person took the seat back, or the game is gone
            action = await computer_move(match, seat, entry.level)
            try:
                await self.act(match.id, seat, turn, action, by="computer")
            except Refused as refused:
                log.info("computer move in game %s: %s", match.id, refused, extra=ids(match.game))
        self.background.schedule(("computer", match.id), job)

    async def hand_over(self, match: Match, seat: int, level: str = ABSENT_LEVEL) -> None:
        """A computer plays this person's seat from now on (they left, or were away)."""
        async with self.book.lock(match.id):
            if match.game.status != Status.RUNNING:
                raise Refused("over")
            entry = match.game.seats[seat]
            if entry.autoplayed:
                return
            entry.level = level
            await self.store.save_game(match.game, seats_changed=True)
        self.changes.publish(SeatChanged(match, seat, back=False))
        self._computer_if_due(match)

    async def take_back(self, match: Match, seat: int) -> None:
        """The person is back: they play their own seat again."""
        async with self.book.lock(match.id):
            if match.game.status != Status.RUNNING:
                raise Refused("over")
            entry = match.game.seats[seat]
            if entry.is_computer or not entry.autoplayed:
                return
            entry.level = None
            await self.store.save_game(match.game, seats_changed=True)
        self.changes.publish(SeatChanged(match, seat, back=True))
        self.arm_turn_timer(match)

    # ---- the end of a game ---------------------------------------------------------------

    def _finished(self, match: Match) -> None:
        """The game is over: no more timers; whoever shows its end hears of it."""
        log.info("game %s of %s is over", match.id, match.game.kind, extra=ids(match.game))
        self._stop_watching(match)
        self.changes.publish(Finished(match))

    def _stop_watching(self, match: Match) -> None:
        self.timers.stop("turn", match.id)

    async def next_in_series(self, match: Match, seats: list[Seat]) -> Match | None:
        """The next game of ``match``'s series, begun with these seats (shown once ``after_start``
        is called); None when the group has another game open now, or when it was begun already
        (the bot stopped before the end of ``match`` was shown)."""
        game = match.game
        try:
            created = await self.store.create_game(
                kind=game.kind, chat_id=game.chat_id, thread_id=game.thread_id,
                host=Seat(0, game.host_id, game.host_name), options=game.options,
                seed=random.SystemRandom().randrange(1 << 62), series_id=game.series_id)
        except PlaceTaken:
            return None
        created.seats = seats
        nxt = self.book.put(created)
        async with self.book.lock(nxt.id):
            await self.begin(nxt, shuffle=False)
        return nxt

    # ---- the turn timer ------------------------------------------------------------------

    def arm_turn_timer(self, match: Match) -> None:
        """(Re)start the turn timer of a running game (after each move, or a new setting)."""
        self.timers.watch("turn", match.id, self.check_turn)

    async def check_turn(self, game_id: int, now: float) -> float | None:
        """Remind or play for the player to act, as the policy says; return when to look again."""
        match = await self.book.load(game_id)
        seat = match.current if match is not None else None
        if seat is None or match.game.seats[seat].autoplayed:
            return None  # over, or a computer moves (and re-arms the timer for the next person)
        decision = await self.turns.decide(match, now)
        if decision is None:
            return None
        if isinstance(decision, Wait):
            return decision.until
        if isinstance(decision, Remind):
            self.changes.publish(Due(match, seat, decision.left))
            return decision.until
        assert isinstance(decision, PlayFor)
        await self._play_for(match, seat)
        return None  # the move re-armed the timer

    async def _play_for(self, match: Match, seat: int) -> None:
        turn = match.turn
        action = await computer_move(match, seat, ABSENT_LEVEL)
        try:
            await self.act(match.id, seat, turn, action, by="timeout")
        except Refused as refused:  # someone moved in the meantime: their move re-armed the timer
            log.info("turn timer of game %s: %s", match.id, refused, extra=ids(match.game))
            return
        if match.game.status == Status.RUNNING and self.turns.nobody_plays(match.game):
            await self.close(match, "abandoned")

    async def adopt(self, match: Match, where: str, seat: int | None, message_id: int) -> None:
        """A button was pressed on a message of this game the bot lost track of (its post timed
        out but did arrive): that message is the table (or the seat's private message) from now
        on, and shows the game again."""
        if where == "table":
            match.game.table_msg = message_id
        else:
            match.game.seats[seat].dm_msg = message_id
        await self.store.save_messages(match.game)
        self.changes.publish(Outdated(match, where, seat))

    # ---- closing and moving games --------------------------------------------------------

    async def close(self, match: Match, why: str | None, by: str | None = None) -> bool:
        """Cancel a running game. ``why``: "cancelled" (``by`` names who), "abandoned" (nobody
        moves any more), or None when the group is gone (nothing is said there). False when it
        was not running."""
        async with self.book.lock(match.id):
            if match.game.status != Status.RUNNING:
                return False
            match.game.status = Status.CANCELLED
            # Why, kept: a restart before it was said still says it (bot/ending/finisher.py).
            match.game.outcome = {"closed": why, "by": by}
            await self.store.save_game(match.game)
        log.info("game %s of %s closed: %s", match.id, match.game.kind, why or "the group is gone",
                 extra=ids(match.game))
        self._stop_watching(match)
        self.changes.publish(Closed(match, why, by))
        return True

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its games move along and their messages are posted anew."""
        for game_id in await self.store.migrate_chat(old_chat_id, new_chat_id):
            match = await self.book.reload(game_id)
            if match is not None and match.game.is_open:
                self.changes.publish(Shown(match))

    def resume(self, match: Match) -> None:
        """The bot (re)started with this game running: every message shows what the store holds
        (a message deleted meanwhile comes back; a crash between commit and edit is redrawn);
        its timer restarts, not counting the time it was down."""
        self.changes.publish(Shown(match))
        self.turns.resume(match, time.time())
        self.arm_turn_timer(match)
        self._computer_if_due(match)

    def show_end(self, match: Match) -> None:
        """The bot stopped after a game ended (its last move, or it was cancelled) before its end
        was all shown: every message of the game shows what the store holds, then the rest of
        its end is shown (once)."""
        self.changes.publish(Shown(match))
        if match.game.status == Status.FINISHED:
            self.changes.publish(Finished(match))
        else:
            closed = match.game.outcome or {}
            self.changes.publish(Closed(match, closed.get("closed"), closed.get("by")))
