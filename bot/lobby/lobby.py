"""The lobby: /new, Join / Leave / Start / Cancel, option toggles, the deep-link join, rematch,
idle lobbies. Refusals are raised as :class:`bot.refusals.Refused`; the handlers word them.

Lobby buttons do not depend on the turn: Join and Leave are idempotent, option buttons carry
the value they set (two quick presses cannot undo each other), Start and Cancel check status.
"""
from __future__ import annotations

import logging
import random
import re

from engines import registry
from engines.ai import DEFAULT_LEVEL
from engines.base import GameInfo
from bot.outgoing import keyboard
from bot.table.book import GameBook, Match
from bot.words.i18n import t
from bot.outgoing.keyboard import MENU, Answer, Button
from bot.showing.lobby_view import TURN_MINUTES, LobbyNote, add_to_group_link, game_menu, join_link
from bot.logs import ids
from bot.outgoing.messenger import Messenger
from bot.outgoing.pacing import PERSON
from bot.words.names import in_text
from bot.lobby.nextgame import START as NEXT_GAME_START, NextGame
from bot.words.numbers import ascii_int
from bot.table.people import People, Person
from bot.table.players import LEVEL_WORDS, computer_seat, name_seats, next_level
from bot.table.play import Play
from bot.words.refusals import Refused, word_html
from bot.storage.store import Game, GameStore, PlaceTaken, Seat, Status, from_base36
from bot.showing.tables import REMATCH, Tables
from bot.words.texts import game_name, game_sign, option_label, option_value_text
from bot.outgoing.timers import Timers

log = logging.getLogger(__name__)

_START_PAYLOAD = re.compile(r"^([jg])([0-9a-z]{1,12})\Z")  # a deep link's payload: join, or back to a game


def parse_options(info: GameInfo, words: list[str]) -> tuple[dict, str | None]:
    """Options typed after ``/new game``: ``equal``, ``no_same_pile``, ``series=3``, ``-equal``."""
    options = info.default_options()
    for word in words:
        word = word.strip().lower().replace("-", "_")
        if not word:
            continue
        value: object = True
        key = word
        if "=" in word:
            key, raw = word.split("=", 1)
            value = raw
        elif word.startswith("no_") and word[3:] in options:
            key, value = word[3:], False
        elif word.startswith("_"):
            key, value = word[1:], False
        if key not in options:
            return options, key
        opt = info.option(key)
        if opt.kind == "int":
            number = ascii_int(value) if value is not True else (
                opt.switched_on if opt.switched_on is not None else opt.maximum)
            if number is None or not opt.minimum <= number <= opt.maximum:
                return options, word
            options[key] = number
        else:
            options[key] = value if isinstance(value, bool) else str(value) in ("1", "true", "on", "yes")
    return options, None


def parse_computers(info: GameInfo, words: list[str], *, private: bool) -> tuple[list[str], list[str], str | None]:
    """``bots=N`` and ``level=L`` among the words after ``/new game``: (levels of the computer
    seats, the other words, a problem). A private game has one computer unless told otherwise."""
    count, level, rest = (1 if private else 0), DEFAULT_LEVEL, []
    for word in words:
        key, _, value = word.strip().lower().partition("=")
        if key in ("bots", "bot", "боты", "роботы"):
            number = ascii_int(value)
            if number is None or not 0 <= number <= info.max_players - (0 if private else 1):
                return [], rest, "bots"
            count = number
        elif key in ("level", "уровень"):
            if value not in LEVEL_WORDS:
                return [], rest, "level"
            level = LEVEL_WORDS[value]
        else:
            rest.append(word)
    return [level] * count, rest, None


def option_problem(info: GameInfo, options: dict, players: int) -> Refused | None:
    """An option switched on that this number of players cannot play."""
    for opt in info.options:
        value = options.get(opt.key, opt.default)
        if opt.players is not None and value != opt.default and players not in opt.players:
            return Refused("option_players", option=opt.key, counts=", ".join(str(n) for n in opt.players))
    return None


class Lobby:
    def __init__(self, book: GameBook, store: GameStore, play: Play, tables: Tables, people: People,
                 timers: Timers, messenger: Messenger, *, bot_username: str, timeout_minutes: int,
                 next_game: NextGame):
        self.book = book
        self.next_game = next_game
        self.store = store
        self.play = play
        self.tables = tables
        self.people = people
        self.timers = timers
        self.messenger = messenger
        self.bot_username = bot_username
        self.default_timeout_minutes = timeout_minutes

    # ---- /new ----------------------------------------------------------------------------

    async def new_here(self, *, chat_id: int, thread_id: int, title: str | None, person: Person,
                       words: list[str]) -> None:
        """/new (or the game menu) in a chat: the chat is remembered, its first language the
        person's; then as :meth:`new`."""
        chat_lang = await self.people.adopt_chat(chat_id, title, person)
        await self.new(chat_id=chat_id, thread_id=thread_id, person=person, words=words, chat_lang=chat_lang,
                       private=chat_id > 0)

    async def new(self, *, chat_id: int, thread_id: int, person: Person, words: list[str],
                  chat_lang: str, private: bool) -> None:
        """Open a lobby, or answer why not. In a private chat the other seats are computers
        (one by default); «Гениально» with ``bots=0`` there is a solo game at once."""
        if not words:
            text, markup = game_menu(chat_lang)
            self.messenger.post(chat_id, text, markup, thread_id=thread_id)
            return
        info = registry.find(words[0])
        if info is None:
            # Maybe the game name has two words ("совершенно гениально").
            info = registry.find(" ".join(words[:2])) if len(words) > 1 else None
            if info is not None:
                words = [" ".join(words[:2])] + words[2:]
        if info is None:
            text, markup = game_menu(chat_lang)
            unknown = t(chat_lang, "I don't know the game «{name}».", name=in_text(words[0][:40]))
            self.messenger.post(chat_id, unknown + "\n" + text, markup, thread_id=thread_id)
            return
        computers, words, problem = parse_computers(info, words[1:], private=private)
        if problem == "bots":
            self.messenger.post(chat_id, t(chat_lang, "«bots» takes a number of computer players from 0 to {n}, "
                                                      "such as bots=2.", n=info.max_players - (0 if private else 1)),
                                thread_id=thread_id)
            return
        if problem == "level":
            self.messenger.post(chat_id, t(chat_lang, "«level» is easy, normal or hard, such as level=hard."),
                                thread_id=thread_id)
            return
        options, bad = parse_options(info, words)
        if bad is not None:
            known = ", ".join(["bots=N", "level=easy|normal|hard"] + [o.key for o in info.options])
            self.messenger.post(
                chat_id, t(chat_lang, "Unknown option «{opt}». Options of this game: {known}.",
                           opt=in_text(bad[:40]), known=known), thread_id=thread_id)
            return
        if private and 1 + len(computers) < info.min_players:
            self.messenger.post(
                chat_id, t(chat_lang, "This game needs at least {n} players: play against computers here "
                                      "(bots=1 or more), or add me to a group and play with friends.",
                           n=info.min_players),
                keyboard.markup(MENU, None, [[Button(t(chat_lang, "➕ Add to a group"),
                                                     url=add_to_group_link(self.bot_username))]]))
            return
        await self.open(chat_id=chat_id, thread_id=thread_id, person=person, info=info, options=options,
                        chat_lang=chat_lang, computers=computers, start_now=private and not computers)

    async def open(self, *, chat_id: int, thread_id: int, person: Person, info: GameInfo, options: dict,
                   chat_lang: str, start_now: bool = False, players: list[Seat] | None = None,
                   computers: list[str] = ()) -> Match | None:
        """A new lobby here (None, after pointing to it, when a game is open here already)."""
        existing = await self.book.open_at(chat_id, thread_id)
        if existing is not None:
            await self.point_to(existing, chat_lang)
            return None
        host = Seat(0, person.id, person.seat_name)
        name_seats([host], chat_lang)
        try:
            game = await self.store.create_game(
                kind=info.id, chat_id=chat_id, thread_id=thread_id, host=host,
                options=options, seed=random.SystemRandom().randrange(1 << 62))
        except PlaceTaken as taken:
            other = await self.book.load(taken.game_id) if taken.game_id else None
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
        self.tables.schedule_lobby(match)
        self.arm_timeout(match)
        await self.next_game.lobby_opened(match)  # those who asked with /nextgame hear of it in private
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
        """A lobby button (``!join``…) or Rematch under the results."""
        game = match.game
        if action == REMATCH:
            return await self.rematch(match, person)
        if game.status != Status.LOBBY:
            raise Refused("started" if game.status == Status.RUNNING else "over")
        if action == "!join":
            return await self.join(match, person)
        if action == "!leave":
            return await self.leave(match, person)
        if action == "!start":
            return await self.start(match, person)
        if action == "!cancel":
            return await self.cancel(match, person)
        if action.startswith("!o."):
            return await self.set_option(match, person, action[3:])
        if action == "!bot+" or action.startswith(("!bot-.", "!lvl.")):
            return await self.change_computers(match, person, action)
        if action.startswith("!turn."):
            return await self.set_turn_timer(match, person, action[6:])
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
        self.tables.schedule_lobby(match)
        self.arm_timeout(match)
        return Answer(t(person.lang, "A move may now take {n} minutes.", n=minutes) if minutes else
                      t(person.lang, "The turn timer is off: players take as long as they like."))

    async def change_computers(self, match: Match, person: Person, action: str) -> Answer:
        """The host adds a computer player (``!bot+``), removes one (``!bot-.<seat>``) or changes
        its level (``!lvl.<seat>``: easy → normal → hard)."""
        game = match.game
        if not await self.people.may_manage(game, person.id):
            raise Refused("computers_rights", name=game.host_name)
        info = registry.info(game.kind)
        chat_lang = await self.people.chat_lang(game.chat_id)
        async with self.book.lock(game.id):
            if game.status != Status.LOBBY:
                raise Refused("started")
            seats = list(game.seats)
            if action == "!bot+":
                if len(seats) >= info.max_players:
                    raise Refused("full", n=info.max_players)
                seats.append(computer_seat(seats, DEFAULT_LEVEL))
            else:
                index = ascii_int(action.split(".", 1)[1])
                if index is None or index >= len(seats):
                    raise Refused("bad_button")
                target = seats[index]
                if not target.is_computer:
                    raise Refused("bad_button")
                if action.startswith("!bot-."):
                    seats.remove(target)
                else:
                    target.level = next_level(target.level)
            game.seats = [s.moved_to(i) for i, s in enumerate(seats)]
            name_seats(game.seats, chat_lang)
            await self.store.save_game(game, seats_changed=True)
            self.tables.set_lobby_note(game.id, None)
        self.tables.schedule_lobby(match)
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
            self.tables.set_lobby_note(game.id, joined if via_private else None)
        self.tables.schedule_lobby(match)
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
            self.tables.set_lobby_note(game.id, None)
        if closed:
            lang_chat = await self.people.chat_lang(game.chat_id)
            self.timers.stop("lobby", game.id)
            self.tables.close_lobby(match, t(lang_chat, "The lobby closed: everyone left."))
            self.tables.let_go(match)
        else:
            self.tables.schedule_lobby(match)
        return Answer(t(lang, "You left the lobby."))

    async def set_option(self, match: Match, person: Person, spec: str) -> Answer:
        game = match.game
        lang = person.lang
        if person.id != game.host_id:
            raise Refused("options_host_only")
        info = registry.info(game.kind)
        try:
            key, raw = spec.rsplit(".", 1)
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
        self.tables.schedule_lobby(match)
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
                note = self.tables.lobby_note(game.id)
                if note is None or note.code != "solo":
                    self.tables.set_lobby_note(game.id, LobbyNote("solo"))
                    self.tables.schedule_lobby(match)
                    raise Refused("alone")
            problem = option_problem(info, game.options, len(game.seats))
            if problem is not None:
                raise problem
            if info.hidden_info:
                missing = [s for s in game.seats
                           if not s.is_computer and not await self.people.private_ok(s.user_id)]
                if missing:
                    waiting = tuple(s.name for s in missing)
                    self.tables.set_lobby_note(game.id, LobbyNote("waiting", {"names": waiting}))
                    self.tables.schedule_lobby(match)
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
        self.tables.close_lobby(match, text + (" " + notice if notice else ""))
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
        if announce:
            self.tables.close_lobby(match, text)
        self.tables.let_go(match)
        return True

    async def bot_removed(self, chat_id: int) -> None:
        """The bot was removed from a group: its games close quietly (nobody can see them now)."""
        for found in await self.store.open_games():
            if found.chat_id == chat_id:
                match = await self.book.load(found.id)
                if match is not None:
                    await self.cancel_game(match, by=None, announce=False)

    async def rematch(self, match: Match, person: Person) -> Answer:
        """🔁 under the results: a new lobby with the same options, hosted by whoever tapped it
        (they want the game), with the computers of last time; the other players of last time
        are asked, in the lobby, to tap Join. The button goes once used; a second tap is told
        where the lobby is, and nothing is posted."""
        game = match.game
        if game.is_open:
            raise Refused("not_over")
        here = await self.book.open_at(game.chat_id, game.thread_id)
        if here is not None:
            self.tables.rematch_used(game)
            raise Refused("rematch_open" if here.game.status == Status.LOBBY else "game_open")
        info = registry.info(game.kind)
        chat_lang = await self.people.chat_lang(game.chat_id)
        mine = game.seat_of(person.id)
        host = game.seats[mine] if mine is not None else Seat(0, person.id, person.seat_name)
        seated = [host] + [s for s in game.seats if s.is_computer]
        others = [s.name for s in game.seats if s not in seated and not s.is_computer]
        new = await self.open(chat_id=game.chat_id, thread_id=game.thread_id, person=person, info=info,
                              options=dict(game.options), chat_lang=chat_lang, players=seated)
        if new is None:
            raise Refused("game_open")
        self.tables.rematch_used(game)
        if others:
            self.tables.set_lobby_note(new.id, LobbyNote("again", {"names": tuple(others)}))
            self.tables.schedule_lobby(new)
        return Answer(t(person.lang, "A new lobby is open below, and you host it: tap ▶️ Start when everyone "
                                     "has joined."))

    # ---- deep link -----------------------------------------------------------------------

    async def start_link(self, person: Person, payload: str) -> str | None:
        """``/start <payload>`` in private: ``j<game>`` joins a lobby, ``g<game>`` brings the
        person's private message of a running game down (None: it was brought, nothing to say);
        anything else is the plain greeting ("")."""
        await self.people.opened_private(person)
        if payload == NEXT_GAME_START:  # from /nextgame's button: now a message can reach them
            return t(person.lang, "Thank you: now I can write to you here, and I will tell you when the next "
                                  "game opens in your group.")
        link = _START_PAYLOAD.match(payload)
        if link is None:
            return ""
        kind, short_id = link.groups()
        match = await self.book.load(from_base36(short_id))
        if kind == "j":
            return await self.join_from_private(person, match)
        seat = match.game.seat_of(person.id) if match is not None else None
        if match is None or not match.running or seat is None:
            return ""
        self.tables.bring_back(match, seat)
        return None

    async def join_from_private(self, person: Person, match: Match | None) -> str:
        """``/start j<game>``: the person opened the private chat to join."""
        game = match.game if match is not None else None
        lang = person.lang
        if game is None or game.status != Status.LOBBY:
            if game is not None and game.status == Status.RUNNING and game.seat_of(person.id) is not None:
                self.tables.bring_back(match, game.seat_of(person.id))
                return t(lang, "Welcome back! Your game continues here.")
            return t(lang, "That lobby is closed. Ask for a new one with /new in the group.")
        info = registry.info(game.kind)
        if game.chat_id < 0 and game.seat_of(person.id) is None:
            member = await self.messenger.is_member(game.chat_id, person.id)
            if member is None:
                return t(lang, "I could not check that you are in that group. Please try again in a minute.")
            if not member:  # a forwarded link: the lobby is for the group's members
                return t(lang, "That lobby is for the members of its group. Join the group first, "
                               "then tap Join in the lobby.")
        try:
            answer = await self.join(match, person, via_private=True)
        except Refused as refused:
            return word_html(refused, lang)
        chat = await self.store.chat(game.chat_id)
        title = in_text(chat.title) if chat and chat.title else "—"
        if answer.outcome == "already":
            # They were in already (joined before); make sure Start is not blocked by a stale note.
            self.tables.set_lobby_note(game.id, None)
            self.tables.schedule_lobby(match)
        return t(lang, "You joined {game} in {chat}. Your secrets will come here.",
                 game=game_name(info, lang), chat=title)

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
