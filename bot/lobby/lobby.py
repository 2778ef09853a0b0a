"""A lobby: opened, Join / Leave / Start / Cancel, option toggles, computer players, /cancel, idle
lobbies closing. (``/new``'s words are read in ``new.py``, the deep links in ``links.py``; a
rematch opens a lobby from ``bot/ending/rematch.py``.) Refusals are raised as
:class:`bot.words.refusals.Refused`; whoever routed the press words them. What changes is
published on the change bus; whoever shows a lobby listens.

Lobby buttons do not depend on the turn: Join and Leave are idempotent, option buttons carry
the value they set (two quick presses cannot undo each other), Start and Cancel check status.
"""
from __future__ import annotations

import logging
import random

from engines import registry
from engines.ai import DEFAULT_LEVEL
from engines.base import GameInfo
from bot.lobby.menu import LobbyNote, join_link
from bot.lobby.options import TURN_MINUTES, option_problem
from bot.logs import ids
from bot.outgoing.actions import (ADD_COMPUTER, CANCEL, COMPUTER_LEVEL, JOIN, LEAVE, OPTION, REMOVE_COMPUTER,
                                   START, TURN_TIMER)
from bot.outgoing.keyboard import Answer
from bot.outgoing.messenger import Messenger
from bot.outgoing.pacing import PERSON
from bot.table.timers import Timers
from bot.storage.store import Game, GameStore, PlaceTaken, Seat, Status
from bot.table.book import GameBook, Match
from bot.table.changes import Changes, LobbyChanged, LobbyClosed, LobbyOpened
from bot.table.people import People, Person
from bot.table.players import computer_seat, name_seats, next_level
from bot.table.play import Play
from bot.words.i18n import t
from bot.words.names import in_text
from bot.words.numbers import ascii_int
from bot.words.refusals import Refused
from bot.games import game_sign
from bot.words.texts import game_name, option_label, option_value_text

log = logging.getLogger(__name__)


class Lobby:
    def __init__(self, book: GameBook, store: GameStore, play: Play, changes: Changes, people: People,
                 timers: Timers, messenger: Messenger, *, timeout_minutes: int):
        self.book = book
        self.store = store
        self.play = play
        self.changes = changes
        self.people = people
        self.timers = timers
        self.messenger = messenger
        self.bot_username = book.bot_username
        self.default_timeout_minutes = timeout_minutes

    # ---- telling the display (through the change bus, as the game loop does) ---------------

    @staticmethod
    def _set_note(match: Match, note: LobbyNote | None) -> None:
        """The line under the lobby's players (who joined from the private chat, whom Start waits
        for), kept with the match."""
        match.scratch.lobby_note = note

    def _show(self, match: Match) -> None:
        """The lobby message shows the lobby as it is now, with its note."""
        self.changes.publish(LobbyChanged(match))

    def note(self, game_id: int) -> LobbyNote | None:
        match = self.book.cached(game_id)
        return match.scratch.lobby_note if match is not None else None

    def clear_note(self, match: Match) -> None:
        """The lobby's note no longer holds (who joined, whom Start waited for)."""
        self._set_note(match, None)
        self._show(match)

    def _close(self, match: Match, text: str | None) -> None:
        """The lobby is over (started, cancelled, left): its message says ``text`` without buttons
        (None: nothing more is said, the group is gone)."""
        self._set_note(match, None)
        self.changes.publish(LobbyClosed(match, text))

    async def open(self, *, chat_id: int, thread_id: int, person: Person, info: GameInfo, options: dict,
                   chat_lang: str, start_now: bool = False, players: list[Seat] | None = None,
                   computers: list[str] = (), note: LobbyNote | None = None,
                   inline_msg: str | None = None) -> Match | None:
        """A new lobby here (None, after pointing to it, when a game is open here already);
        ``note``: a line its message shows from the start; ``inline_msg``: its message was posted
        via the bot in a chat the bot is not in (then nothing is pointed to: it cannot write there)."""
        existing = await self.book.open_at(chat_id, thread_id)
        if existing is not None:
            if inline_msg is None:
                await self.point_to(existing, chat_lang)
            return None
        host = Seat(0, person.id, person.seat_name)
        name_seats([host], chat_lang)
        try:
            game = await self.store.create_game(
                kind=info.id, chat_id=chat_id, thread_id=thread_id, host=host,
                options=options, seed=random.SystemRandom().randrange(1 << 62), inline_msg=inline_msg)
        except PlaceTaken as taken:
            other = await self.book.load(taken.game_id) if taken.game_id and inline_msg is None else None
            if other is not None:
                await self.point_to(other, chat_lang)
            return None
        match = self.book.put(game)
        log.info("lobby of %s opened: game %s", info.id, game.id, extra=ids(game))
        await self.people.remember(person)
        if players or computers:
            async with self.book.lock(game.id):
                seats = [p.moved_to(i) for i, p in enumerate(players or game.seats)]
                for level in computers:
                    seats.append(computer_seat(seats, level))
                game.seats = seats[: info.max_players]
                name_seats(game.seats, chat_lang)
                await self.store.save_game(game, seats_changed=True)
        if start_now:
            async with self.book.lock(game.id):
                await self.play.begin(match)
            self.play.after_start(match)
            return match
        self._set_note(match, note)
        self._show(match)
        self.arm_timeout(match)
        self.changes.publish(LobbyOpened(match))  # those who asked with /nextgame hear of it in private
        return match

    async def point_to(self, match: Match, lang: str) -> None:
        game = match.game
        info = registry.info(game.kind)
        target = game.table_msg if game.status == Status.RUNNING else game.lobby_msg
        text = t(lang, "A game of {game} is already open here. Finish it or /cancel it first.",
                 game=game_name(info, lang))
        self.messenger.post(game.chat_id, text, thread_id=game.thread_id, reply_to=target)

    # ---- buttons -------------------------------------------------------------------------

    async def press(self, match: Match, person: Person, action: str) -> Answer:
        """A lobby button (``!join``…)."""
        game = match.game
        if game.status != Status.LOBBY:
            raise Refused("started" if game.status == Status.RUNNING else "over")
        if JOIN.read(action) is not None:
            return await self.join(match, person)
        if LEAVE.read(action) is not None:
            return await self.leave(match, person)
        if START.read(action) is not None:
            return await self.start(match, person)
        if CANCEL.read(action) is not None:
            return await self.cancel(match, person)
        if (option := OPTION.read(action)) is not None:
            return await self.set_option(match, person, *option)
        if any(kind.read(action) is not None for kind in (ADD_COMPUTER, REMOVE_COMPUTER, COMPUTER_LEVEL)):
            return await self.change_computers(match, person, action)
        if (minutes := TURN_TIMER.read(action)) is not None:
            return await self.set_turn_timer(match, person, *minutes)
        raise Refused("bad_button")

    async def set_turn_timer(self, match: Match, person: Person, raw: str) -> Answer:
        """The lobby's ⏰ button: the host or an admin sets this group's time for a move."""
        game = match.game
        if not await self.people.may_manage(game, person.id):
            raise Refused("options_host_only")
        minutes = ascii_int(raw)
        if minutes is None or minutes not in TURN_MINUTES or game.chat_id > 0:
            raise Refused("bad_button")
        await self.people.set_chat_setting(game.chat_id, "turn_timeout", minutes)
        self._show(match)
        self.arm_timeout(match)
        return Answer(t(person.lang, "A move may now take {n} minutes.", n=minutes) if minutes else
                      t(person.lang, "The turn timer is off: players take as long as they like."))

    async def change_computers(self, match: Match, person: Person, action: str) -> Answer:
        """The host adds a computer player (``ADD_COMPUTER``), removes one (``REMOVE_COMPUTER``) or
        changes its level (``COMPUTER_LEVEL``: easy → normal → hard)."""
        game = match.game
        if not await self.people.may_manage(game, person.id):
            raise Refused("computers_rights", name=game.host_name)
        info = registry.info(game.kind)
        chat_lang = await self.people.chat_lang(game.chat_id)
        async with self.book.lock(game.id):
            if game.status != Status.LOBBY:
                raise Refused("started")
            seats = list(game.seats)
            if ADD_COMPUTER.read(action) is not None:
                if len(seats) >= info.max_players:
                    raise Refused("full", n=info.max_players)
                seats.append(computer_seat(seats, DEFAULT_LEVEL))
            else:
                index = REMOVE_COMPUTER.number(action)
                if index is None:
                    index = COMPUTER_LEVEL.number(action)
                if index is None or index >= len(seats):
                    raise Refused("bad_button")
                target = seats[index]
                if not target.is_computer:
                    raise Refused("bad_button")
                if REMOVE_COMPUTER.read(action) is not None:
                    seats.remove(target)
                else:
                    target.level = next_level(target.level)
            game.seats = [s.moved_to(i) for i, s in enumerate(seats)]
            name_seats(game.seats, chat_lang)
            await self.store.save_game(game, seats_changed=True)
            self._set_note(match, None)
        self._show(match)
        self.arm_timeout(match)
        return Answer()

    async def join(self, match: Match, person: Person, *, via_private: bool = False) -> Answer:
        game = match.game
        lang = person.lang
        info = registry.info(game.kind)
        async with self.book.lock(game.id):
            if game.status != Status.LOBBY:
                raise Refused("started")
            if game.seat_of(person.id) is not None:
                return Answer(t(lang, "You are already in."), outcome="already")
            if len(game.seats) >= info.max_players:
                raise Refused("full", n=info.max_players)
            if info.hidden_info and not via_private and not await self.reachable(person, game):
                return Answer(t(lang, "Open the private chat with me and press START: then you are in."),
                              url=join_link(self.bot_username, game))
            game.seats.append(Seat(len(game.seats), person.id, person.seat_name))
            name_seats(game.seats, await self.people.chat_lang(game.chat_id))
            await self.store.save_game(game, seats_changed=True)
            await self.people.remember(person)
            joined = LobbyNote("joined", {"name": game.seats[-1].name})  # as the table calls them
            self._set_note(match, joined if via_private else None)
        self._show(match)
        self.arm_timeout(match)
        return Answer(t(lang, "You joined the game."), outcome="joined")

    async def reachable(self, person: Person, game: Game) -> bool:
        """Whether a private message reaches the person (probed with a short hello)."""
        if await self.people.private_ok(person.id):
            return True
        chat = await self.store.chat(game.chat_id)
        title = in_text(chat.title) if chat and chat.title else ""
        info = registry.info(game.kind)
        sent = await self.messenger.send_text(  # one try, first in the bot's budget: the press waits for it
            person.id, t(person.lang, "You are joining {game} in {chat}. Your secrets will come here.",
                         game=game_name(info, person.lang), chat=title or "—"), retries=1, priority=PERSON)
        ok = sent.message is not None
        await self.people.set_private_ok(person.id, ok)
        return ok

    async def leave(self, match: Match, person: Person) -> Answer:
        game = match.game
        lang = person.lang
        async with self.book.lock(game.id):
            if game.seat_of(person.id) is None:
                return Answer(t(lang, "You are not in this lobby."))
            remaining = [s for s in game.seats if s.user_id != person.id]
            closed = not any(not s.is_computer for s in remaining)  # computers alone do not play
            if closed:
                game.status = Status.CANCELLED
                await self.store.save_game(game)
            else:
                game.seats = [s.moved_to(i) for i, s in enumerate(remaining)]
                if game.host_id == person.id:
                    game.host_id = next(s.user_id for s in remaining if not s.is_computer)
                await self.store.save_game(game, seats_changed=True)
            self._set_note(match, None)
        if closed:
            lang_chat = await self.people.chat_lang(game.chat_id)
            self.timers.stop("lobby", game.id)
            self._close(match, t(lang_chat, "The lobby closed: everyone left."))
        else:
            self._show(match)
        return Answer(t(lang, "You left the lobby."))

    async def set_option(self, match: Match, person: Person, key: str, raw: str) -> Answer:
        game = match.game
        lang = person.lang
        if person.id != game.host_id:
            raise Refused("options_host_only")
        info = registry.info(game.kind)
        try:
            opt = info.option(key)
            number = ascii_int(raw)
            if number is None:
                raise ValueError(raw)
            value: object = bool(number) if opt.kind == "bool" else number
            if opt.kind == "int" and not opt.minimum <= value <= opt.maximum:
                raise ValueError(raw)
        except (KeyError, ValueError):
            raise Refused("bad_button") from None
        async with self.book.lock(game.id):
            if game.status != Status.LOBBY:
                raise Refused("started")
            if game.options.get(key) == value:
                return Answer()
            game.options = {**game.options, key: value}
            await self.store.save_game(game)
        self._show(match)
        self.arm_timeout(match)
        return Answer(f"{option_label(key, lang)}: {option_value_text(opt, value, lang)}")

    async def start(self, match: Match, person: Person) -> Answer:
        game = match.game
        info = registry.info(game.kind)
        if not await self.people.may_manage(game, person.id):
            raise Refused("start_rights", name=game.host_name)
        async with self.book.lock(game.id):
            if game.status != Status.LOBBY:
                raise Refused("started")
            if len(game.seats) < info.min_players:
                raise Refused("too_few", n=info.min_players)
            if len(game.seats) == 1 and game.chat_id < 0:
                # Alone in a group: friends could still come. Solo only when the host insists.
                note = match.scratch.lobby_note
                if note is None or note.code != "solo":
                    self._set_note(match, LobbyNote("solo"))
                    self._show(match)
                    raise Refused("alone")
            problem = option_problem(info, game.options, len(game.seats))
            if problem is not None:
                raise problem
            # Secrets go by private message; an inline game's pictures go up through its host's.
            needs = [s for s in game.seats if not s.is_computer
                     and (info.hidden_info or game.inline and s.user_id == game.host_id)]
            missing = [s for s in needs if not await self.people.private_ok(s.user_id)]
            if missing:
                waiting = tuple(s.name for s in missing)
                self._set_note(match, LobbyNote("waiting", {"names": waiting}))
                self._show(match)
                if any(s.user_id == person.id for s in missing):
                    # Not her own name as if about someone else: what she herself must do.
                    raise Refused("no_private_chat_self", bot=self.bot_username)
                raise Refused("no_private_chat", names=list(waiting))
            series = int(game.options.get("series") or 0)
            if series and len(game.seats) > 1:
                # 1 means "one game per player", so that everyone starts once.
                total = len(game.seats) if series == 1 else series
                created = await self.store.create_series(game.chat_id, game.kind, total,
                                                         [s.user_id for s in game.seats])
                game.series_id = created.id
            await self.play.begin(match)
        self.timers.stop("lobby", game.id)
        chat_lang = await self.people.chat_lang(game.chat_id)
        names = ", ".join(in_text(s.name) for s in game.seats)
        text = t(chat_lang, "{sign} <b>{game}</b> started. Players: {names}.", sign=game_sign(info.id),
                 game=game_name(info, chat_lang), names=names)
        notice = match.ui.start_notice(match.ctx(chat_lang))
        self._close(match, text + (" " + notice if notice else ""))
        self.play.after_start(match)
        return Answer(t(person.lang, "The game starts!"))

    async def cancel(self, match: Match, person: Person) -> Answer:
        if not await self.people.may_manage(match.game, person.id):
            raise Refused("cancel_rights", name=match.game.host_name)
        if not await self.cancel_game(match, by=match.game.name_of(person.id, person.name)):
            raise Refused("over")
        return Answer(t(person.lang, "Cancelled."))

    async def cancel_here(self, chat_id: int, thread_id: int, person: Person, lang: str) -> str | None:
        """/cancel: the host or an admin stops the game here (in private, the person's own game)."""
        match = await self.book.open_at(chat_id, thread_id)
        if match is None:
            return t(lang, "There is no game here to cancel.")
        if chat_id < 0 and not await self.people.may_manage(match.game, person.id):
            return t(lang, "Only the host or a chat admin can cancel the game.")
        await self.cancel_game(match, by=match.game.name_of(person.id, person.name))
        return None

    async def cancel_game(self, match: Match, *, by: str | None, announce: bool = True) -> bool:
        """Close a lobby or a running game: ``by`` names who cancelled it (None: it was idle);
        ``announce=False`` when the group is gone. False when it was closed already."""
        game = match.game
        if game.status == Status.RUNNING:
            return await self.play.close(match, "cancelled" if announce else None, by)
        chat_lang = await self.people.chat_lang(game.chat_id)
        info = registry.info(game.kind)
        if by is None:
            text = t(chat_lang, "The {game} lobby was closed after {minutes} minutes without activity.",
                     game=game_name(info, chat_lang), minutes=await self.timeout_minutes(game.chat_id))
        else:
            text = t(chat_lang, "{game} was cancelled by {name}.", game=game_name(info, chat_lang),
                     name=in_text(by))
        async with self.book.lock(game.id):
            if game.status != Status.LOBBY:
                return False
            game.status = Status.CANCELLED
            await self.store.save_game(game)
        self.timers.stop("lobby", game.id)
        self._close(match, text if announce else None)
        return True

    async def bot_removed(self, chat_id: int) -> None:
        """The bot was removed from a group: its games close quietly (nobody can see them now)."""
        for found in await self.store.open_games():
            if found.chat_id == chat_id:
                match = await self.book.load(found.id)
                if match is not None:
                    await self.cancel_game(match, by=None, announce=False)

    # ---- idle lobbies --------------------------------------------------------------------

    async def timeout_minutes(self, chat_id: int) -> int:
        """After how many minutes an idle lobby of this chat closes."""
        value = (await self.people.chat_settings(chat_id)).get("lobby_timeout")
        return int(value) if value else self.default_timeout_minutes

    def arm_timeout(self, match: Match) -> None:
        """(Re)start the idle timer of a lobby (after each change to it, and at start-up)."""
        self.timers.watch("lobby", match.id, self.check_timeout)

    async def check_timeout(self, game_id: int, now: float) -> float | None:
        """Cancel an idle lobby; otherwise return when to look again (epoch seconds)."""
        match = await self.book.load(game_id)
        if match is None or match.game.status != Status.LOBBY:
            return None
        due = match.game.updated + await self.timeout_minutes(match.game.chat_id) * 60
        if now < due:
            return due
        await self.cancel_game(match, by=None)
        return None
