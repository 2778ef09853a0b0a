"""Turn-timer policy: an absent player must not stall a table.

``decide`` says what is due for the player to act, and the game loop (bot/table/play.py) does it:
at half time a reminder (in private where that game's moves are made, otherwise a mention in
the group); when the time is up the bot plays for them; when the bot has played two whole
rounds in a row for everybody, nobody is playing any more and the game is closed.

The clock of a turn starts at the game's last save (``Game.updated``), or when the bot last
started, whichever is later: time the bot was down does not count against anybody. Each group
sets its minutes with /turntimer (0 = off).
"""
from __future__ import annotations

from dataclasses import dataclass

from bot.storage.store import Game, GameStore
from bot.table.book import Match

MIN_MINUTES, MAX_MINUTES = 1, 1440
ROUNDS_BEFORE_CLOSING = 2


@dataclass(frozen=True)
class Wait:
    """Nothing to do before ``until`` (epoch seconds)."""

    until: float


@dataclass(frozen=True)
class Remind:
    """Remind the player to act that ``left`` seconds remain; look again at ``until``."""

    left: float
    until: float


@dataclass(frozen=True)
class PlayFor:
    """Time is up: the bot moves for the player to act."""


Decision = Wait | Remind | PlayFor


class TurnPolicy:
    def __init__(self, store: GameStore, default_minutes: float):
        self.store = store
        self.default_minutes = default_minutes

    @staticmethod
    def resume(match: Match, now: float) -> None:
        """The bot (re)started with this game running: time it was down does not count."""
        match.scratch.resumed = now

    async def minutes(self, chat_id: int) -> float:
        """This chat's turn time in minutes; 0 when the timer is off."""
        if chat_id > 0:
            return self.default_minutes
        row = await self.store.chat(chat_id)
        value = row.settings.get("turn_timeout") if row else None
        return float(value) if value is not None else self.default_minutes

    async def decide(self, match: Match, now: float) -> Decision | None:
        """What is due for the player to act in a running game; None when it needs no timer."""
        game, scratch = match.game, match.scratch
        minutes = await self.minutes(game.chat_id)
        if minutes <= 0 or len(game.seats) < 2:
            return None  # off, or a solo game: nobody waits for the player
        since = max(game.updated, scratch.resumed)
        remind_at = since + minutes * 30
        due = since + minutes * 60
        if now < remind_at:
            return Wait(remind_at)
        if now < due:
            if scratch.reminded == game.version:
                return Wait(due)
            scratch.reminded = game.version
            return Remind(due - now, due)
        return PlayFor()

    @staticmethod
    def nobody_plays(game: Game) -> bool:
        """The bot has moved for every person for whole rounds (computers play on regardless):
        the game is abandoned."""
        people = sum(1 for s in game.seats if not s.autoplayed)
        return game.idle_turns >= ROUNDS_BEFORE_CLOSING * max(1, people)
