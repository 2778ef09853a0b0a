"""The one door for every move: who acts, in which game, on which message, the turn they saw
and what they chose go in; the answer to show them comes out.

Every rule about who may do what is behind it: the game's status, the message the press was
made on (a button counts only on a message of its game: its lobby, its table, its results, the
presser's own private message of it), the stale-turn check (once), the seat, a stranger's
press, hand-over and take-back. The Telegram callbacks read the update, call the door and
answer; a web page calls the same door. Refusals come back worded in the presser's language.
(The menu's buttons, such as a language or a confirmation, are no rule of a game: each feature
answers its own, ``bot/updates/routes.py``; the results' 🎞 and 🔁 are the end of a game's.)
"""
from __future__ import annotations

import logging

from engines import registry
from bot.games.base import Act, Alert, Nav
from bot.words.format import plain_text, toast as fitted_toast
from bot.lobby.lobby import Lobby
from bot.outgoing import keyboard
from bot.outgoing.actions import AWAY, BACK, RULES
from bot.outgoing.keyboard import MENU, Answer
from bot.outgoing.messenger import Messenger
from bot.storage.store import Status, StoreUnavailable, from_base36
from bot.table.book import GameBook, Match
from bot.table.changes import Changes, Looked, Outdated
from bot.table.people import People, Person
from bot.table.play import Play
from bot.updates.context import Where
from bot.words.i18n import t
from bot.words.names import in_plain, in_text
from bot.words.refusals import Refused, is_toast, word, word_html
from bot.games import game_blurb, game_button

log = logging.getLogger(__name__)


def toast(match: Match, events: list[dict], lang: str) -> str | None:
    """What a move did, in a line for the presser's pop-up (public narration only)."""
    lines = match.ui.story(match.ctx(lang), events)
    if not lines:
        return None
    return fitted_toast([plain_text(line) for line in lines])


class Door:
    def __init__(self, book: GameBook, play: Play, lobby: Lobby, people: People, changes: Changes,
                 messenger: Messenger, *, bot_username: str):
        self.book = book
        self.play = play
        self.lobby = lobby
        self.people = people
        self.changes = changes
        self.messenger = messenger
        self.bot_username = bot_username

    # ---- a button ------------------------------------------------------------------------

    async def press(self, person: Person | None, where: Where, data: str | None) -> Answer:
        """A button press, answered once: what it did, or why not (in the presser's words)."""
        lang = person.lang if person is not None else "en"
        try:
            press = keyboard.parse(data)
            if person is None or press is None or press.game == MENU:  # no presser, data not ours,
                raise Refused("unknown_button")                       # or a menu's nobody answers
            match = await self.pressed(person, where, press)
            if RULES.read(press.action) is not None:
                return await self._rules(match, person)
            if press.action.startswith("!"):
                return await self._turn_free(match, person, press.action)
            return await self._move(match, person, where, press, data)
        except Refused as refused:
            return Answer(word(refused, lang), alert=not is_toast(refused))
        except StoreUnavailable as exc:  # a write that failed was not made (one transaction each)
            log.warning("a press was answered \"try again\": %s", exc)
            return Answer(word(Refused("store_unavailable"), lang), alert=True)

    async def pressed(self, person: Person, where: Where, press: keyboard.Press) -> Match:
        """The game a press names, pressed where that game is (its chat, or the presser's private
        chat with the bot); else Refused."""
        match = await self.book.load(from_base36(press.game))
        if match is None:
            raise Refused("no_game")
        if where.chat_id is not None and where.chat_id not in (match.game.chat_id, person.id):
            raise Refused("other_chat")
        if where.inline is not None and where.inline != match.game.inline_msg:
            raise Refused("other_chat")  # a message posted via the bot that is not this game's
        return match

    async def _turn_free(self, match: Match, person: Person, action: str) -> Answer:
        """A lobby button, or a seat handed to a computer and back."""
        if BACK.read(action) is not None:
            return await self._take_back(match, person)
        if AWAY.read(action) is not None:
            seat = AWAY.number(action)
            if seat is None:
                raise Refused("bad_button")
            return await self._hand_over(match, person, seat)
        return await self.lobby.press(match, person, action)

    async def _move(self, match: Match, person: Person, where: Where, press: keyboard.Press, data: str) -> Answer:
        """A move, a step of composing one, or a pop-up (``?…``) on a game's table or private message."""
        async with self.book.lock(match.id):
            game = match.game
            if game.status != Status.RUNNING:
                raise Refused("not_started" if game.status == Status.LOBBY else "over")
            seat = game.seat_of(person.id)
            on = await self._message_of(match, person, seat, where, press)
            if seat is not None:
                self.changes.publish(Looked(match, person.id))  # no ping for a while
            if press.turn is not None and press.turn != match.turn:
                return self._stale(match, person, seat, on, data)
            if seat is not None and game.seats[seat].autoplayed and not press.action.startswith("?"):
                raise Refused("handed_over")
            ctx = match.ctx(person.lang)
            reply = match.ui.press(ctx, seat, on, press.action)
            if isinstance(reply, Alert):
                return Answer(reply.text, alert=reply.popup)
            if seat is None:
                raise Refused("not_playing")
            if isinstance(reply, Nav):
                if on == "page":  # the page composes its moves itself; it sends only moves
                    raise Refused("bad_button")
                if on == "table" and seat != match.current:
                    raise Refused("not_your_turn", name=game.seats[match.current].name)
                match.scratch.paths["table" if on == "table" else seat] = reply.path
                self.changes.publish(Outdated(match, on, seat))  # the message shows the new step
                return Answer()
            assert isinstance(reply, Act)
            happened = await self.play.apply(match, seat, reply.action)
        match.scratch.last_press[person.id] = data
        return Answer(toast(match, happened, person.lang), outcome="moved")

    async def _message_of(self, match: Match, person: Person, seat: int | None, where: Where,
                          press: keyboard.Press) -> str:
        """Which message of the game the press was made on: "table", "private", or "page" (the
        Mini App, for a seated player); else Refused.

        A message the bot lost track of (its post timed out, but it arrived) is taken as the
        table, or as the presser's private message, when its buttons are of the current turn
        and the game has no such message on record."""
        game = match.game
        if where.page:
            if seat is None:
                raise Refused("not_playing")
            return "page"
        chat_id, message_id = where.chat_id, where.message_id
        if where.inline is not None and where.inline == game.inline_msg:
            return "table"  # a game played on a message posted via the bot: its table
        if chat_id == game.chat_id and message_id == game.table_msg:
            return "table"
        private = seat is not None and chat_id == person.id and match.ui.has_private
        if private and message_id == game.seats[seat].dm_msg:
            return "private"
        if message_id is not None and press.turn == match.turn:
            if chat_id == game.chat_id and game.table_msg is None:
                await self.play.adopt(match, "table", seat, message_id)
                return "table"
            if private and game.seats[seat].dm_msg is None:
                await self.play.adopt(match, "private", seat, message_id)
                return "private"
        raise Refused("old_message")

    def _stale(self, match: Match, person: Person, seat: int | None, on: str, data: str) -> Answer:
        """A button of an earlier turn: its message is brought up to date, and the presser told
        what happened since (their own press again: done) and whose move it is now."""
        self.changes.publish(Outdated(match, on, seat))  # its message is brought up to date
        now, lang = match.current, person.lang
        if now is None:
            raise Refused("stale_turn")
        again = match.scratch.last_press.get(person.id) == data
        if now == seat:
            return Answer(t(lang, "✓ Done: it is your move again.") if again
                          else t(lang, "The turn has moved on: it is your move now."))
        name = in_plain(match.game.seats[now].name)
        return Answer(t(lang, "✓ Done: now {name} moves.", name=name) if again
                      else t(lang, "The turn has moved on: now {name} moves.", name=name))

    async def _rules(self, match: Match, person: Person) -> Answer:
        """📖 Rules: a pop-up with the game in a line for whoever pressed, the full rules in private."""
        info = registry.info(match.game.kind)
        summary = f"{game_button(info, person.lang)}: {game_blurb(info.id, person.lang)}"
        if await self.people.private_ok(person.id):
            self.messenger.post(person.id, match.ui.rules(person.lang))
            return Answer(summary + "\n" + t(person.lang, "The full rules are in your private chat with me."),
                          alert=True)
        return Answer(summary + "\n" + t(person.lang, "Open @{bot} and write /rules {game} for the full rules.",
                                         bot=self.bot_username, game=info.id), alert=True)

    # ---- seats handed to a computer and back ---------------------------------------------

    async def _take_back(self, match: Match, person: Person) -> Answer:
        seat = match.game.seat_of(person.id)
        if seat is None or not match.game.seats[seat].autoplayed:
            raise Refused("no_seat_back")
        await self.play.take_back(match, seat)
        return Answer(t(person.lang, "Welcome back: you play your seat again."))

    async def _hand_over(self, match: Match, person: Person, seat: int) -> Answer:
        """The host or an admin gives an absent player's seat to a computer for the rest of the
        game; a player may give their own."""
        game = match.game
        if not 0 <= seat < len(game.seats) or game.seats[seat].is_computer:
            raise Refused("bad_button")
        if person.id != game.seats[seat].user_id and not await self.people.may_manage(game, person.id):
            raise Refused("away_rights", name=game.host_name)
        if game.chat_id < 0 and not any(not s.autoplayed for s in game.seats if s.seat != seat):
            # Computers alone do not play on in a group: the last person leaving ends the game.
            await self.lobby.cancel_game(match, by=game.name_of(person.id, person.name))
            return Answer(t(person.lang, "Cancelled."))
        await self.play.hand_over(match, seat)
        return Answer(t(person.lang, "🤖 A computer plays for {name} now.", name=in_plain(game.seats[seat].name)))

    async def leave(self, person: Person, chat_id: int, thread_id: int, lang: str) -> str:
        """/leave: out of the lobby here, or, in a running game, a computer plays the seat."""
        match = await self.book.open_at(chat_id, thread_id)
        seat = match.game.seat_of(person.id) if match is not None else None
        if seat is None:
            return t(lang, "You are not playing here.")
        if match.game.status == Status.LOBBY:
            try:
                return (await self.lobby.leave(match, person)).text
            except Refused as refused:
                return word_html(refused, lang)
        return await self._computer_plays(match, person, seat, lang)

    async def away(self, person: Person, chat_id: int, thread_id: int, lang: str) -> str:
        """/away: the host or an admin gives the seat of the player who keeps everyone waiting to
        a computer for the rest of the game."""
        match = await self.book.open_at(chat_id, thread_id)
        seat = match.current if match is not None else None
        if seat is None:
            return t(lang, "No game is running here. Start one with /new.")
        return await self._computer_plays(match, person, seat, lang)

    async def _computer_plays(self, match: Match, person: Person, seat: int, lang: str) -> str:
        """/leave and /away in a running game: a computer plays the seat from now on (the last
        person leaving a group's game cancels it)."""
        try:
            answer = await self._hand_over(match, person, seat)
        except Refused as refused:
            return word_html(refused, lang)
        if match.game.status != Status.RUNNING:
            return answer.text  # the last person left: the game was cancelled
        return t(lang, "🤖 A computer plays for {name} now. Tap 🙋 I'm back on the table to take the "
                       "seat back.", name=in_text(match.game.seats[seat].name))

    # ---- a move typed in the private chat -------------------------------------------------

    async def typed(self, person: Person, text: str) -> str | None:
        """A move typed in the private chat (e.g. genial's ``3 F7 F8``): None when it was played,
        else what to answer."""
        await self.people.opened_private(person)
        for match in await self.book.open_of(person.id):
            seat = match.game.seat_of(person.id)
            if not match.running or seat is None:
                continue
            try:
                async with self.book.lock(match.id):
                    if not match.running:
                        continue
                    reply = match.ui.typed(match.ctx(person.lang), seat, text)
                    if reply is None:
                        continue
                    if isinstance(reply, Alert):
                        return reply.text
                    if match.game.seats[seat].autoplayed:
                        raise Refused("handed_over")
                    await self.play.apply(match, seat, reply.action)
            except Refused as refused:
                return word_html(refused, person.lang)
            return None
        return t(person.lang, "I did not understand that. See /help.")

