"""🎞 under the results: the whole game as an animation, posted in the game's chat.

A press on the results' 🎞 (through the door) asks for it; the frames are rebuilt from the game's
action log (``engines/replay.py``: public views only, so no secret shows before the last frame,
which is the final table with what it reveals), each drawn by the game's own table picture, and
the GIF is made in the drawing process (``render/replay.py``) when the write leaves the group's
pacing queue, like any picture. A person is waiting for it, so it goes out as PERSON.

One replay per game at a time: a press while it is being made, or after it was posted, is told
where it is (the animation answers the results message) and nothing is made twice. The posted
animation's file_id is kept, so a replay asked for again once the first is gone from memory's
"posted" list (it was a while ago) is sent again without being drawn again. This is memory only:
after a restart a press makes the replay anew, which costs a second of drawing, nothing else.
"""
from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from functools import partial
from typing import Awaitable, Callable

from engines import registry
from engines.replay import public_views
from render.replay import LABELS, animation, seconds
from bot.table.background import Background
from bot.table.book import Match
from bot.words.i18n import labels, nt, t
from bot.outgoing.keyboard import Answer
from bot.logs import ids
from bot.outgoing.messenger import Messenger, Result
from bot.words.names import clean, in_text
from bot.outgoing.pacing import PERSON
from bot.table.people import People, Person
from bot.words.refusals import Refused
from bot.storage.store import GameStore, Status
from bot.words.texts import game_name

log = logging.getLogger(__name__)

# A replay posted less than this long ago is pointed at; after that a press posts it again (by its
# file_id: it is not drawn again), since the first one has scrolled far up the chat.
FRESH_SECONDS = 15 * 60
KEPT = 1000  # posted replays remembered (the oldest forgotten first: a press then makes it anew)


@dataclass
class _Posted:
    message_id: int
    file_id: str | None
    when: float


class Replays:
    def __init__(self, store: GameStore, messenger: Messenger, people: People, background: Background, *,
                 render: Callable[[Callable[[], bytes]], Awaitable[bytes]],
                 clock: Callable[[], float] = time.monotonic):
        self.store = store
        self.messenger = messenger
        self.people = people
        self.background = background
        self.render = render
        self.clock = clock
        self._making: set[int] = set()  # games whose replay is being made or waits for the pace
        self._posted: dict[int, _Posted] = {}

    async def press(self, match: Match, person: Person, chat_id: int | None, message_id: int | None) -> Answer:
        """🎞 pressed on ``message_id`` of ``chat_id``: it must be the game's results message.
        Anyone in the chat may ask: the replay is posted there, for everyone."""
        game, lang = match.game, person.lang
        if game.status != Status.FINISHED:
            raise Refused("not_over" if game.is_open else "bad_button")
        if game.inline:
            return await self._to_private(match, person)
        if chat_id != game.chat_id or message_id is None or message_id != game.results_msg:
            raise Refused("old_message")
        if game.id in self._making:
            return Answer(t(lang, "🎞 The replay is on its way: it will answer the results in a moment."))
        posted = self._posted.get(game.id)
        if posted is not None and self.clock() - posted.when < FRESH_SECONDS:
            return Answer(t(lang, "🎞 The replay is already in the chat: it answers these results."))
        actions = await self.store.actions(game.id) if posted is None else None  # read once: _post uses them
        if actions is not None and not actions:  # pruned (TABLEBOT_KEEP_ACTIONS_DAYS)
            return Answer(t(lang, "🎞 The moves of this game are no longer kept, so there is no replay."), alert=True)
        self._making.add(game.id)
        self.background.schedule(("replay", game.id), lambda: self._post(match, posted, actions))
        return Answer(t(lang, "🎞 Making the replay of the whole game: it will answer the results."))

    async def _post(self, match: Match, before: _Posted | None,
                    actions: list[tuple[int, int, str]] | None = None) -> None:
        """``actions``: the game's log as the press read it (None: read it here)."""
        game = match.game
        try:
            lang = await self.people.chat_lang(game.chat_id)
            if actions is None:
                actions = await self.store.actions(game.id)
            log_ = [(seat, code) for _, seat, code in actions]
            caption = self.caption(match, lang, len(log_))
            if before is not None and before.file_id is not None:
                gif: object = before.file_id
            else:
                gif = partial(self.draw, match, lang, log_)
            sent = await self.messenger.send_animation(game.chat_id, gif, caption, thread_id=game.thread_id,
                                                       reply_to=game.results_msg, priority=PERSON)
            if sent.message is not None:
                self._posted.pop(game.id, None)
                self._posted[game.id] = _Posted(sent.message.message_id, sent.message.file_id, self.clock())
                if len(self._posted) > KEPT:
                    self._posted.pop(next(iter(self._posted)))
            elif sent.result != Result.UNSURE:
                log.warning("the replay of game %s was not posted: %s", game.id, sent.result.value, extra=ids(game))
        finally:
            self._making.discard(game.id)

    async def _to_private(self, match: Match, person: Person) -> Answer:
        """A game played via inline mode: its replay goes to whoever asks, in their private chat
        with the bot (the bot cannot write in the chat the game was played in)."""
        if not await self.people.private_ok(person.id):
            raise Refused("no_private_chat_self", bot=self.messenger.bot.username)
        game, lang = match.game, person.lang

        async def job() -> None:
            log_ = [(seat, code) for _, seat, code in await self.store.actions(game.id)]
            await self.messenger.send_animation(person.id, partial(self.draw, match, lang, log_),
                                                self.caption(match, lang, len(log_)), priority=PERSON)
        self.background.schedule(("replay", game.id, person.id), job)
        return Answer(t(lang, "🎞 Making the replay of the whole game: it comes to our private chat."))

    async def draw(self, match: Match, lang: str, log_: list[tuple[int, str]]) -> bytes:
        """The GIF: the positions rebuilt (a thread: a long game is a few dozen ms of engine
        work), then drawn and encoded in the drawing process."""
        game = match.game
        steps = await asyncio.to_thread(public_views, game.kind, len(game.seats), game.options, game.seed, log_)
        names = [clean(s.name) or t(lang, "a player") for s in game.seats]  # '' after /forgetme
        frames = [match.ui.table_picture(step.view, names, lang, step.events) for step in steps]
        return await self.render(partial(animation, frames, words=labels(lang, "picture", LABELS)))

    @staticmethod
    def caption(match: Match, lang: str, moves: int) -> str:
        """"🎞 Cones, the whole game: 45 moves · lasts 38 s · Anna, Boris" (how long the
        animation runs before it starts again: render.replay.seconds)."""
        game = match.game
        title = game_name(registry.info(game.kind), lang)
        names = ", ".join(in_text(s.name) if clean(s.name) else t(lang, "a player") for s in game.seats)
        return t(lang, "🎞 <b>{game}</b>, the whole game: {moves} · lasts {seconds} s · {names}", game=title,
                 moves=nt(lang, "{n} move", "{n} moves", moves), seconds=seconds(moves + 1), names=names)
