"""Turn timers: an absent player must not stall a table.

At half time the player to act gets a reminder (in private where that game's moves are made,
otherwise a mention in the group). When the time is up the bot plays for them: the cautious
legal move their game's adapter names (bank, keep the rack) or the first legal one, narrated
on the table. When the bot has played two whole rounds in a row for everybody, nobody is
playing any more and the game is closed.

The clock of a turn starts at the game's last save (``Game.updated``), or when the bot last
started, whichever is later: time the bot was down does not count against anybody. Each group
sets its minutes with /turntimer (0 = off).
"""
from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING

from engines import registry
from bot.games.base import isolate
from bot.i18n import t
from bot.texts import game_name

if TYPE_CHECKING:
    from bot.lobby import Lobby
    from bot.service import Service
    from bot.storage import Game

log = logging.getLogger(__name__)

MIN_MINUTES, MAX_MINUTES = 1, 1440
ROUNDS_BEFORE_CLOSING = 2


class TurnClock:
    def __init__(self, service: "Service", lobby: "Lobby", default_minutes: float):
        self.s = service
        self.lobby = lobby
        self.default_minutes = default_minutes
        self._reminded: set[tuple[int, int]] = set()  # (game id, version) already reminded
        self._resumed: dict[int, float] = {}  # game id -> when this process took the game over

    def resume(self, game_id: int, now: float) -> None:
        """The bot (re)started with this game running: time it was down does not count."""
        self._resumed[game_id] = now

    async def minutes(self, chat_id: int) -> float:
        """This chat's turn time in minutes; 0 when the timer is off."""
        if chat_id > 0:
            return self.default_minutes
        row = await self.s.storage.chat(chat_id)
        value = (row or {}).get("settings", {}).get("turn_timeout") if row else None
        return float(value) if value is not None else self.default_minutes

    async def check(self, game_id: int, now: float) -> float | None:
        """Remind or play for the player to act, as the time says; return when to look again
        (epoch seconds) or None when this game needs no timer now."""
        game = await self.s.load(game_id)
        if game is None or game.status != "running" or len(game.seats) < 2:
            return None
        minutes = await self.minutes(game.chat_id)
        if minutes <= 0:
            return None
        eng = registry.engine(game.kind)
        seat = eng.current_player(self.s.states[game.id])
        if seat is None:
            return None
        self._reminded = {k for k in self._reminded if k[0] != game.id or k[1] == game.version}
        since = max(game.updated, self._resumed.get(game.id, 0.0))
        remind_at = since + minutes * 30
        due = since + minutes * 60
        if now < remind_at:
            return remind_at
        if now < due:
            if (game.id, game.version) not in self._reminded:
                self._reminded.add((game.id, game.version))
                await self._remind(game, seat, due - now)
            return due
        await self._play_for(game, seat)
        return None  # a move reschedules the timer itself

    async def _remind(self, game: "Game", seat: int, left: float) -> None:
        ui = self.s.ui(game)
        user_id = game.seats[seat].user_id
        minutes_left = max(1, math.ceil(left / 60))
        if ui.moves_in_private:
            lang = await self.s.user_lang(user_id)
            info = registry.info(game.kind)
            text = t(lang, "⏰ Your move in {game}: {n} min left, then I will move for you.",
                     game=game_name(info, lang), n=minutes_left)
            sent = await self.s.messenger.send_text(user_id, text)
            if sent.message is not None:
                return
        lang = await self.s.chat_lang(game.chat_id)
        ctx = self.s.ctx(game, lang)
        text = t(lang, "⏰ {name}, your move: {n} min left, then I will move for you.",
                 name=ctx.mention(seat), n=minutes_left)
        await self.s.messenger.send_text(game.chat_id, text, thread_id=game.thread_id)

    async def _play_for(self, game: "Game", seat: int) -> None:
        ui = self.s.ui(game)
        action = ui.timeout_action(self.s.ctx(game, "en"), seat)
        if action is None:
            return
        eng = registry.engine(game.kind)
        refused = await self.s.act(game.id, game.seats[seat].user_id, eng.turn(self.s.states[game.id]),
                                   action, "en", timed_out=True)
        if refused is not None:  # someone moved in the meantime: their move rescheduled the timer
            log.info("turn timer of game %s: %s", game.id, refused)
            return
        if game.status == "running" and game.idle_turns >= ROUNDS_BEFORE_CLOSING * len(game.seats):
            lang = await self.s.chat_lang(game.chat_id)
            info = registry.info(game.kind)
            names = ", ".join(isolate(s.name) for s in game.seats)
            text = t(lang, "Nobody has moved in {game} for two rounds ({names}): the game is closed.",
                     game=game_name(info, lang), names=names)
            await self.lobby.cancel_game(game, by=None, text=text)
