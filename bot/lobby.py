"""The lobby: /new, Join / Leave / Start / Cancel, option toggles, the deep-link join, timeouts.

Lobby buttons do not depend on the turn: Join and Leave are idempotent, option buttons carry
the value they set (two quick presses cannot undo each other), Start and Cancel check status.
"""
from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import Callable

from engines import registry
from engines.base import GameInfo
from bot import keyboard
from bot.games.base import View, isolate
from bot.i18n import nt, t
from bot.keyboard import Button
from bot.service import Service
from bot.storage import Game, PlaceTaken, Seat
from bot.texts import game_name, option_hint, option_label, option_value_text

log = logging.getLogger(__name__)

MENU = "0"  # the "game id" of the game menu's buttons (real ids start at 1)


@dataclass
class Person:
    """The Telegram user behind an update, as the lobby needs it."""

    id: int
    name: str
    lang: str


@dataclass
class Answer:
    """How to answer a button press."""

    text: str | None = None
    alert: bool = False
    url: str | None = None
    outcome: str = ""  # "joined" / "already" for callers that go on (the deep-link join)


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
            try:
                number = int(value) if value is not True else opt.maximum
            except ValueError:
                return options, word
            if not opt.minimum <= number <= opt.maximum:
                return options, word
            options[key] = number
        else:
            options[key] = value if isinstance(value, bool) else str(value) in ("1", "true", "on", "yes")
    return options, None


class Lobby:
    def __init__(self, service: Service):
        self.s = service
        self.notes: dict[int, Callable[[str], str]] = {}

    # ---- texts -------------------------------------------------------------------------

    def view(self, game: Game, lang: str) -> tuple[View, object]:
        info = registry.info(game.kind)
        lines = [t(lang, "🎲 <b>{game}</b>: lobby", game=game_name(info, lang))]
        host = next((s for s in game.seats if s.user_id == game.host_id), None)
        if host is not None:
            lines.append(t(lang, "Host: {name}", name=isolate(host.name)))
        for opt in info.options:
            value = game.options.get(opt.key, opt.default)
            hint = option_hint(opt.key, lang)
            if opt.kind == "bool":
                shown = f"{option_value_text(opt, value, lang)} {option_label(opt.key, lang)}"
            else:
                shown = f"▪️ {option_label(opt.key, lang)}: {option_value_text(opt, value, lang)}"
            lines.append(shown + (f" <i>({hint})</i>" if hint else ""))
        lines.append("")
        lines.append(t(lang, "Players ({n} of {min}-{max}):", n=len(game.seats), min=info.min_players,
                       max=info.max_players))
        for s in game.seats:
            lines.append(f"{s.seat + 1}. {isolate(s.name)}")
        if info.hidden_info:
            lines.append("")
            lines.append(t(lang, "🔒 Secrets come by private message: each player opens @{bot} once.",
                           bot=self.s.bot_username))
        note = self.notes.get(game.id)
        if note is not None:
            lines.append("")
            lines.append(note(lang))
        rows: list[list[Button]] = [
            [Button(t(lang, "✋ Join"), "!join", turn_free=True), Button(t(lang, "🚪 Leave"), "!leave", turn_free=True)],
            [Button(t(lang, "▶️ Start"), "!start", turn_free=True), Button(t(lang, "✖️ Cancel"), "!cancel", turn_free=True)],
        ]
        toggles = []
        for opt in info.options:
            value = game.options.get(opt.key, opt.default)
            if opt.kind == "bool":
                toggles.append(Button(f"{'✅' if value else '▫️'} {option_label(opt.key, lang)}",
                                      f"!o.{opt.key}.{0 if value else 1}", turn_free=True))
            else:
                nxt = value + 1 if value < opt.maximum else opt.minimum
                shown = option_value_text(opt, value, lang)
                toggles.append(Button(f"{option_label(opt.key, lang)}: {shown} ▸", f"!o.{opt.key}.{nxt}",
                                      turn_free=True))
        rows += keyboard.chunk(toggles, 2)
        if info.hidden_info:
            rows.append([Button(t(lang, "💬 Open the private chat"),
                                url=f"https://t.me/{self.s.bot_username}?start=j{game.short_id}")])
        return View("\n".join(lines)), keyboard.markup(game.short_id, None, rows)

    async def refresh(self, game: Game) -> None:
        """Edit the lobby message (in the background, coalesced and paced)."""
        async def job() -> None:
            current = self.s.games.get(game.id)
            if current is None or current.status != "lobby":
                return
            lang = await self.s.chat_lang(current.chat_id)
            view, markup = self.view(current, lang)
            new_id = await self.s._show(current.chat_id, current.lobby_msg, view, markup,
                                        thread_id=current.thread_id)
            if new_id is not None and new_id != current.lobby_msg:
                current.lobby_msg = new_id
                await self.s.storage.save_messages(current)
        self.s.jobs.schedule(("lobby", game.id), job)

    async def refresh_new_message(self, game: Game) -> None:
        """``/board`` during a lobby: post the lobby again at the bottom; the old one loses its buttons."""
        old = game.lobby_msg
        game.lobby_msg = None
        await self.refresh(game)
        if old is not None:
            async def strip() -> None:
                await self.s.messenger.edit_markup(game.chat_id, old, None)
            self.s.jobs.schedule(("lobby-old", game.id), strip)

    async def close_message(self, game: Game, text: str) -> None:
        """Turn the lobby message into a plain record (no buttons)."""
        if game.lobby_msg is None:
            return
        async def job() -> None:
            await self.s._show(game.chat_id, game.lobby_msg, View(text), None, thread_id=game.thread_id)
        self.s.jobs.schedule(("lobby", game.id), job)

    def menu(self, lang: str) -> tuple[str, object]:
        rows = [[Button(game_name(gi, lang), f"n.{gi.id}")] for gi in registry.all_infos()]
        text = t(lang, "Which game shall we play?")
        return text, keyboard.markup(MENU, None, rows)

    # ---- /new ----------------------------------------------------------------------------

    async def new(self, *, chat_id: int, thread_id: int, person: Person, words: list[str],
                  chat_lang: str, private: bool) -> None:
        """Open a lobby, or answer why not. In a private chat only solo games start."""
        if not words:
            text, markup = self.menu(chat_lang)
            await self.s.messenger.send_text(chat_id, text, markup, thread_id=thread_id)
            return
        info = registry.find(words[0])
        if info is None:
            # Maybe the game name has two words ("совершенно гениально").
            info = registry.find(" ".join(words[:2])) if len(words) > 1 else None
            if info is not None:
                words = [" ".join(words[:2])] + words[2:]
        if info is None:
            text, markup = self.menu(chat_lang)
            unknown = t(chat_lang, "I don't know the game «{name}».", name=isolate(words[0][:40]))
            await self.s.messenger.send_text(chat_id, unknown + "\n" + text, markup, thread_id=thread_id)
            return
        options, bad = parse_options(info, words[1:])
        if bad is not None:
            known = ", ".join(o.key for o in info.options) or "—"
            await self.s.messenger.send_text(
                chat_id, t(chat_lang, "Unknown option «{opt}». Options of this game: {known}.",
                           opt=isolate(bad[:40]), known=known), thread_id=thread_id)
            return
        if private and info.min_players > 1:
            await self.s.messenger.send_text(
                chat_id, t(chat_lang, "Add me to a group and write /new {game} there to play with friends.",
                           game=info.id),
                keyboard.markup(MENU, None, [[Button(t(chat_lang, "➕ Add to a group"),
                                                     url=f"https://t.me/{self.s.bot_username}?startgroup=new")]]))
            return
        await self.open(chat_id=chat_id, thread_id=thread_id, person=person, info=info,
                        options=options, chat_lang=chat_lang, start_now=private)

    async def open(self, *, chat_id: int, thread_id: int, person: Person, info: GameInfo, options: dict,
                   chat_lang: str, start_now: bool = False, players: list[Seat] | None = None) -> Game | None:
        existing = await self.s.open_game_at(chat_id, thread_id)
        if existing is not None:
            await self.point_to(existing, chat_lang)
            return None
        try:
            game = await self.s.storage.create_game(
                kind=info.id, chat_id=chat_id, thread_id=thread_id, host=Seat(0, person.id, person.name),
                options=options, seed=random.SystemRandom().randrange(1 << 62))
        except PlaceTaken as taken:
            other = await self.s.load(taken.game_id) if taken.game_id else None
            if other is not None:
                await self.point_to(other, chat_lang)
            return None
        self.s._cache(game)
        if players:
            async with self.s.locks[game.id]:
                game.seats = [Seat(i, p.user_id, p.name) for i, p in enumerate(players)][: info.max_players]
                await self.s.storage.save_game(game, seats_changed=True)
        if start_now:
            async with self.s.locks[game.id]:
                await self.s.begin(game)
            await self.s.after_start(game)
            return game
        await self.refresh(game)
        self.schedule_timeout(game)
        return game

    async def point_to(self, game: Game, lang: str) -> None:
        info = registry.info(game.kind)
        target = game.table_msg if game.status == "running" else game.lobby_msg
        text = t(lang, "A game of {game} is already open here. Finish it or /cancel it first.",
                 game=game_name(info, lang))
        await self.s.messenger.send_text(game.chat_id, text, thread_id=game.thread_id, reply_to=target)

    # ---- buttons -------------------------------------------------------------------------

    async def press(self, game: Game, person: Person, action: str) -> Answer:
        lang = person.lang
        if game.status != "lobby":
            if game.status == "running":
                return Answer(t(lang, "The game has already started."), alert=True)
            return Answer(t(lang, "This game is over."), alert=True)
        if action == "!join":
            return await self.join(game, person)
        if action == "!leave":
            return await self.leave(game, person)
        if action == "!start":
            return await self.start(game, person)
        if action == "!cancel":
            return await self.cancel(game, person)
        if action.startswith("!o."):
            return await self.set_option(game, person, action[3:])
        return Answer(t(lang, "This button is not valid any more."), alert=True)

    async def join(self, game: Game, person: Person, *, via_private: bool = False) -> Answer:
        lang = person.lang
        info = registry.info(game.kind)
        async with self.s.locks[game.id]:
            if game.status != "lobby":
                return Answer(t(lang, "The game has already started."), alert=True)
            if game.seat_of(person.id) is not None:
                return Answer(t(lang, "You are already in."), outcome="already")
            if len(game.seats) >= info.max_players:
                return Answer(t(lang, "The game is full ({n} players).", n=info.max_players), alert=True)
            if info.hidden_info and not via_private and not await self.reachable(person, game):
                return Answer(t(lang, "Open the private chat with me and press START: then you are in."),
                              url=f"https://t.me/{self.s.bot_username}?start=j{game.short_id}")
            game.seats.append(Seat(len(game.seats), person.id, person.name))
            await self.s.storage.save_game(game, seats_changed=True)
            if via_private:
                self.notes[game.id] = lambda lg, n=person.name: t(lg, "{name} joined from the private chat.",
                                                                 name=isolate(n))
            else:
                self.notes.pop(game.id, None)
        await self.refresh(game)
        self.schedule_timeout(game)
        return Answer(t(lang, "You joined the game."), outcome="joined")

    async def reachable(self, person: Person, game: Game) -> bool:
        """Whether a private message reaches the person (probed with a short hello)."""
        row = await self.s.storage.user(person.id)
        if row and row["private_ok"]:
            return True
        chat = await self.s.storage.chat(game.chat_id)
        title = isolate(chat["title"]) if chat and chat.get("title") else ""
        info = registry.info(game.kind)
        sent = await self.s.messenger.send_text(
            person.id, t(person.lang, "You are joining {game} in {chat}. Your secrets will come here.",
                         game=game_name(info, person.lang), chat=title or "—"))
        ok = sent.message is not None
        await self.s.storage.set_private_ok(person.id, ok)
        return ok

    async def leave(self, game: Game, person: Person) -> Answer:
        lang = person.lang
        async with self.s.locks[game.id]:
            seat = game.seat_of(person.id)
            if seat is None:
                return Answer(t(lang, "You are not in this lobby."))
            remaining = [s for s in game.seats if s.user_id != person.id]
            if not remaining:
                game.status = "cancelled"
                await self.s.storage.save_game(game)
                closed = True
            else:
                game.seats = [Seat(i, s.user_id, s.name, s.kind) for i, s in enumerate(remaining)]
                if game.host_id == person.id:
                    game.host_id = remaining[0].user_id
                await self.s.storage.save_game(game, seats_changed=True)
                closed = False
            self.notes.pop(game.id, None)
        if closed:
            lang_chat = await self.s.chat_lang(game.chat_id)
            await self.close_message(game, t(lang_chat, "The lobby closed: everyone left."))
        else:
            await self.refresh(game)
        return Answer(t(lang, "You left the lobby."))

    async def set_option(self, game: Game, person: Person, spec: str) -> Answer:
        lang = person.lang
        if person.id != game.host_id:
            return Answer(t(lang, "Only the host can change the options."), alert=True)
        info = registry.info(game.kind)
        try:
            key, raw = spec.rsplit(".", 1)
            opt = info.option(key)
            value: object = bool(int(raw)) if opt.kind == "bool" else int(raw)
            if opt.kind == "int" and not opt.minimum <= value <= opt.maximum:
                raise ValueError(raw)
        except (KeyError, ValueError):
            return Answer(t(lang, "This button is not valid any more."), alert=True)
        async with self.s.locks[game.id]:
            if game.status != "lobby":
                return Answer(t(lang, "The game has already started."), alert=True)
            if game.options.get(key) == value:
                return Answer()
            game.options = {**game.options, key: value}
            await self.s.storage.save_game(game)
        await self.refresh(game)
        self.schedule_timeout(game)
        return Answer(f"{option_label(key, lang)}: {option_value_text(opt, value, lang)}")

    def option_problem(self, info: GameInfo, options: dict, players: int, lang: str) -> str | None:
        for opt in info.options:
            value = options.get(opt.key, opt.default)
            if opt.players is not None and value != opt.default and players not in opt.players:
                counts = ", ".join(str(n) for n in opt.players)
                return t(lang, "«{option}» needs {counts} players: switch it off or change the players.",
                         option=option_label(opt.key, lang), counts=counts)
        return None

    async def start(self, game: Game, person: Person) -> Answer:
        lang = person.lang
        info = registry.info(game.kind)
        if not await self.s.may_manage(game, person.id):
            host = next((s.name for s in game.seats if s.user_id == game.host_id), "?")
            return Answer(t(lang, "Only the host ({name}) or a chat admin can start.", name=host), alert=True)
        async with self.s.locks[game.id]:
            if game.status != "lobby":
                return Answer(t(lang, "The game has already started."), alert=True)
            if len(game.seats) < info.min_players:
                return Answer(nt(lang, "At least {n} player is needed.", "At least {n} players are needed.",
                                 info.min_players), alert=True)
            problem = self.option_problem(info, game.options, len(game.seats), lang)
            if problem:
                return Answer(problem, alert=True)
            if info.hidden_info:
                missing = []
                for s in game.seats:
                    row = await self.s.storage.user(s.user_id)
                    if not (row and row["private_ok"]):
                        missing.append(s.name)
                if missing:
                    self.notes[game.id] = lambda lg, names=tuple(missing): t(
                        lg, "Waiting for {names} to open the private chat with @{bot}.",
                        names=", ".join(isolate(n) for n in names), bot=self.s.bot_username)
                    await self.refresh(game)
                    return Answer(t(lang, "Not everyone can get private messages yet: {names}.",
                                    names=", ".join(missing)), alert=True)
            series = int(game.options.get("series") or 0)
            if series and len(game.seats) > 1:
                # 1 means "one game per player", so that everyone starts once.
                total = len(game.seats) if series == 1 else series
                created = await self.s.storage.create_series(game.chat_id, game.kind, total,
                                                             [s.user_id for s in game.seats])
                game.series_id = created.id
            await self.s.begin(game)
            self.notes.pop(game.id, None)
        chat_lang = await self.s.chat_lang(game.chat_id)
        names = ", ".join(isolate(s.name) for s in game.seats)
        text = t(chat_lang, "🎲 <b>{game}</b> started. Players: {names}.", game=game_name(info, chat_lang),
                 names=names)
        notice = self.s.ui(game).start_notice(self.s.ctx(game, chat_lang))
        await self.close_message(game, text + (" " + notice if notice else ""))
        await self.s.after_start(game)
        return Answer(t(lang, "The game starts!"))

    async def cancel(self, game: Game, person: Person) -> Answer:
        lang = person.lang
        if not await self.s.may_manage(game, person.id):
            host = next((s.name for s in game.seats if s.user_id == game.host_id), "?")
            return Answer(t(lang, "Only the host ({name}) or a chat admin can cancel.", name=host), alert=True)
        if not await self.cancel_game(game, by=person.name):
            return Answer(t(lang, "This game is over."), alert=True)
        return Answer(t(lang, "Cancelled."))

    async def cancel_game(self, game: Game, *, by: str | None, text: str | None = None,
                          announce: bool = True) -> bool:
        """Close a lobby or a running game: ``by`` names who cancelled it; ``text`` overrides the
        announcement (otherwise an idle lobby's); ``announce=False`` when the group is gone."""
        async with self.s.locks[game.id]:
            if game.status not in ("lobby", "running"):
                return False
            was_running = game.status == "running"
            game.status = "cancelled"
            await self.s.storage.save_game(game)
        if not announce:
            return True
        chat_lang = await self.s.chat_lang(game.chat_id)
        info = registry.info(game.kind)
        if text is None and by is None:
            text = t(chat_lang, "The {game} lobby was closed after {minutes} minutes without activity.",
                     game=game_name(info, chat_lang), minutes=await self.timeout_minutes(game.chat_id))
        elif text is None:
            text = t(chat_lang, "{game} was cancelled by {name}.", game=game_name(info, chat_lang),
                     name=isolate(by))
        if was_running:
            await self.s.messenger.send_text(game.chat_id, text, thread_id=game.thread_id)
            if game.table_msg is not None:
                await self.s.messenger.edit_markup(game.chat_id, game.table_msg, None)
            for s in game.seats:
                if s.dm_msg is not None:
                    await self.s.messenger.edit_markup(s.user_id, s.dm_msg, None)
        else:
            await self.close_message(game, text)
        return True

    # ---- deep link -----------------------------------------------------------------------

    async def join_from_private(self, person: Person, short_id: str) -> str:
        """``/start j<game>``: the person opened the private chat to join."""
        from bot.storage import from_base36
        await self.s.storage.set_private_ok(person.id, True)
        try:
            game = await self.s.load(from_base36(short_id))
        except ValueError:
            game = None
        lang = person.lang
        if game is None or game.status != "lobby":
            if game is not None and game.status == "running" and game.seat_of(person.id) is not None:
                self.notes.pop(game.id, None)
                self.s.schedule_private(game.id, game.seat_of(person.id), bump=True)
                return t(lang, "Welcome back! Your game continues here.")
            return t(lang, "That lobby is closed. Ask for a new one with /new in the group.")
        info = registry.info(game.kind)
        answer = await self.join(game, person, via_private=True)
        if game.seat_of(person.id) is None:
            return answer.text or ""
        chat = await self.s.storage.chat(game.chat_id)
        title = isolate(chat["title"]) if chat and chat.get("title") else "—"
        if answer.outcome == "already":
            # They were in already (joined before); make sure Start is not blocked by a stale note.
            self.notes.pop(game.id, None)
            await self.refresh(game)
        return t(lang, "You joined {game} in {chat}. Your secrets will come here.",
                 game=game_name(info, lang), chat=title)

    # ---- idle lobbies --------------------------------------------------------------------

    async def timeout_minutes(self, chat_id: int) -> int:
        row = await self.s.storage.chat(chat_id)
        value = (row or {}).get("settings", {}).get("lobby_timeout") if row else None
        return int(value) if value else self.s.lobby_timeout_minutes

    def schedule_timeout(self, game: Game) -> None:
        if self.s.timers is not None:
            self.s.timers(game)

    async def check_timeout(self, game_id: int, now: float) -> float | None:
        """Cancel an idle lobby; otherwise return when to look again (epoch seconds)."""
        game = await self.s.load(game_id)
        if game is None or game.status != "lobby":
            return None
        minutes = await self.timeout_minutes(game.chat_id)
        due = game.updated + minutes * 60
        if now < due:
            return due
        await self.cancel_game(game, by=None)
        return None
