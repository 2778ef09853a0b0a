"""Keeping every message of a game shown: the lobby, the table, the private messages (the
results are the end of a game's: ``bot/ending``).

Tables hears every change of a game (``bot/table/changes.py``) and redraws what it affects in the
background (``bot/table/background.py``), from the latest state, so a burst of moves becomes one edit;
the Messenger paces the writes per group; ``messages.py`` skips what would change nothing. A job
whose game has gone (finished and shown, cancelled) does nothing. Each redraw reaches its
milestone on the match (``match.stages``: the table, a seat's private message, the lobby) when
it is done, shown or given up on, for whoever waits to follow it.
"""
from __future__ import annotations

import logging
from typing import Any, Callable

from bot.games.base import View
from bot.outgoing import keyboard
from bot.outgoing.actions import BACK, RULES
from bot.outgoing.keyboard import Button
from bot.showing.lobby_view import lobby_message
from bot.showing.messages import Carrier, Messages
from bot.words.format import fit_caption
from bot.storage.store import GameStore, Status
from bot.table.background import Background
from bot.table.book import GameBook, Match
from bot.table.changes import (Change, LobbyChanged, LobbyClosed, Moved, Outdated, SeatChanged, Shown, Started,
                               Summoned)
from bot.table.people import People
from bot.table.turns import TurnPolicy
from bot.words.i18n import t

log = logging.getLogger(__name__)

class Tables:
    def __init__(self, book: GameBook, store: GameStore, messages: Messages, people: People, turns: TurnPolicy,
                 background: Background, *, webapp_url: str = "",
                 group_link: Callable[[str], str] | None = None):
        self.book = book
        self.messages = messages
        self.messenger = messages.messenger
        # The Mini App (bot/webapp): its page's address, opened from a private message's web_app button,
        # and the t.me link to it on a group's table, by game id (None: no such link).
        self.webapp_url = webapp_url
        self.group_link = group_link
        self.store = store
        self.people = people
        self.turns = turns
        self.background = background
        self.bot_username = book.bot_username

    # ---- what happened to a game ---------------------------------------------------------

    def hear(self, change: Change) -> None:
        """Redraw what a change of a game affects (subscribed to ``bot.table.changes.Changes``)."""
        match = change.match
        if isinstance(change, Started):
            self.schedule_table(match)
            self.schedule_private_all(match, bump_current=False)
        elif isinstance(change, Moved):
            match.scratch.paths.clear()  # every half-composed move starts again
            self.schedule_table(match)
            # Moving the private message down notifies the player, where moves are made there.
            self.schedule_private_all(match, bump_current=match.ui.moves_in_private and change.turn_passed)
        elif isinstance(change, SeatChanged):
            self.schedule_table(match)
            self.schedule_private(match, change.seat, bump=change.back)
        elif isinstance(change, Shown):
            self._show_again(match)
        elif isinstance(change, Outdated):
            self.redraw(match, change.where, change.seat)
        elif isinstance(change, LobbyChanged):
            self.schedule_lobby(match)
        elif isinstance(change, LobbyClosed):
            if change.text is not None:
                self._close_lobby(match, change.text)
            if match.game.status != Status.RUNNING:
                self.background.schedule(("let-go", match.id), lambda: self.release(match))  # cancelled, or left
        elif isinstance(change, Summoned):
            self.schedule_private(match, change.seat, bump=True)

    def _show_again(self, match: Match) -> None:
        """Every message of the game shows what the store holds: after a restart (a message
        deleted meanwhile comes back, a crash between commit and edit is redrawn), or a chat that
        moved."""
        game = match.game
        if game.status == Status.LOBBY:
            self.schedule_lobby(match)
            return
        if game.status == Status.RUNNING or game.table_lags:
            self.schedule_table(match)
        for s in game.seats:
            if s.needs_redraw(game.version):
                self.schedule_private(match, s.seat)

    async def strip(self, match: Match) -> None:
        """The game is over: its table and private messages lose their buttons (the table is then
        redrawn to say how it ended)."""
        game = match.game
        await self.messages.strip(game.chat_id, game.table_shown)
        for s in game.seats:
            await self.messages.strip(s.user_id, s.dm_msg)
        self.schedule_table(match)

    def redraw(self, match: Match, where: str, seat: int | None) -> None:
        """One message of the game shows it again: the table, or a seat's private message."""
        if where == "table":
            self.schedule_table(match)
        elif seat is not None:
            self.schedule_private(match, seat)

    # ---- the lobby -----------------------------------------------------------------------

    def schedule_lobby(self, match: Match) -> None:
        """Edit the lobby message (in the background, coalesced and paced)."""
        async def job() -> None:
            game = match.game
            if match.gone or game.status != Status.LOBBY:
                return
            lang = await self.people.chat_lang(game.chat_id)
            minutes = await self.turns.minutes(game.chat_id)
            view, markup = lobby_message(game, lang, match.scratch.lobby_note, self.bot_username, minutes)
            old, repost = game.lobby_shown, match.scratch.repost
            new_id = await self.messages.show(game.chat_id, old, view, markup, thread_id=game.thread_id, force_new=repost)
            if repost:
                self._reposted(match, game.chat_id, old, new_id)
            if new_id is not None and new_id != game.lobby_msg and not game.inline:
                game.lobby_msg = new_id
                await self.store.save_messages(game)
        self.background.schedule(("lobby", match.id), job, match.stages.lobby)

    def _close_lobby(self, match: Match, text: str) -> None:
        """Turn the lobby message into a plain record (no buttons). (An inline game's lobby becomes
        its table: it says so only when the game did not start.)"""
        game = match.game
        message_id = game.lobby_shown
        if message_id is None or game.inline and game.status == Status.RUNNING:
            return
        chat_id, thread_id = game.chat_id, game.thread_id

        async def job() -> None:
            await self.messages.show(chat_id, message_id, View(text), None, thread_id=thread_id)
        self.background.schedule(("lobby", game.id), job, match.stages.lobby)

    # ---- the table -----------------------------------------------------------------------

    def table_view(self, match: Match, lang: str) -> tuple[View, Any]:
        game, ctx = match.game, match.ctx(lang)
        running = game.status == Status.RUNNING
        view = match.ui.table(ctx, match.scratch.paths.get("table", "") if running else "")
        rows = view.rows if running else []
        if running:
            lost = sorted(match.scratch.unreachable)
            if lost:
                names = ", ".join(ctx.name(s) for s in lost)
                view.text += "\n" + t(lang, "⚠️ I cannot write to {names} in private: open @{bot} and press START.",
                                      names=names, bot=self.bot_username)
            extra = [Button(t(lang, "📖 Rules"), RULES(), turn_free=True)]
            if any(s.autoplayed and not s.is_computer for s in game.seats):
                extra.insert(0, Button(t(lang, "🙋 I'm back: my seat"), BACK(), turn_free=True))
            rows = rows + [extra] + self._page_link(match, lang)
        return view, keyboard.markup(game.short_id, ctx.turn, rows)

    def _page_link(self, match: Match, lang: str) -> list[list[Button]]:
        """A group table's row with the Mini App's direct link (t.me/<bot>/<app>?startapp=…):
        a live board for anyone in the group, and a seated player's own rack and moves. (A game in
        the private chat opens the page with a web_app button: on its table when the game has no
        private message of its own, a solo game or lucky, else on that message.)"""
        game = match.game
        if game.chat_id > 0:  # a game in the private chat
            return self._page_button(match, lang) if len(game.seats) == 1 or not match.ui.has_private else []
        if self.group_link is None:
            return []
        text = t(lang, "🖐 On the board") if match.ui.moves_on_page else t(lang, "👀 Live board")
        return [[Button(text, url=self.group_link(game.short_id))]]

    def _page_button(self, match: Match, lang: str) -> list[list[Button]]:
        """A private message's row with the web_app button that opens the page on the game."""
        if not self.webapp_url or not match.ui.moves_on_page:
            return []
        return [[Button(t(lang, "🖐 On the board"), web_app=f"{self.webapp_url}?game={match.game.short_id}")]]

    def schedule_table(self, match: Match) -> None:
        self.background.schedule(("table", match.id), lambda: self._refresh_table(match), match.stages.table)

    async def _refresh_table(self, match: Match) -> None:
        game = match.game
        if match.gone or match.state is None:
            return
        if game.inline and game.results_msg is not None:
            return  # an inline game's message shows its results now
        lang = await self.people.chat_lang(game.chat_id)
        version, old, repost = game.version, game.table_shown, match.scratch.repost
        view, markup = self.table_view(match, lang)
        new_id = await self.messages.show(game.chat_id, old, view, markup, thread_id=game.thread_id, force_new=repost,
                                          carrier=await self._carrier(match))
        if repost:
            self._reposted(match, game.chat_id, old, new_id)
        if new_id is None:
            return
        if game.inline:
            if version != game.table_version:
                game.table_version = version
                await self.store.save_messages(game)
            return
        if new_id != game.table_msg or version != game.table_version:
            moved = new_id != game.table_msg
            game.table_msg, game.table_version = new_id, version
            await self.store.save_messages(game)
            current = match.current
            if moved and match.ui.moves_in_private and current is not None and game.status == Status.RUNNING:
                # The private message of the player to move links to the table: to this one now.
                self.schedule_private(match, current)

    async def board(self, chat_id: int, thread_id: int) -> bool:
        """``/board``: the lobby or the table again at the bottom of the chat, the old one without
        its buttons. The re-post is the game's next redraw (however often it is asked, and
        however many moves come meanwhile, one re-post of the newest state). False when no game
        is open here."""
        match = await self.book.open_at(chat_id, thread_id)
        if match is None:
            return False
        match.scratch.repost = True
        if match.game.status == Status.LOBBY:
            self.schedule_lobby(match)
        else:
            self.schedule_table(match)
        return True

    def _reposted(self, match: Match, chat_id: int, old: int | None, new: int | None) -> None:
        """After a redraw that was a re-post (asked for by /board before it began): done once the
        new message is there, and the old one loses its buttons. (Asked for while a redraw was
        under way, the re-post is the next redraw.)"""
        if new is not None:
            match.scratch.repost = False
            if old is not None and old != new:
                self.messages.strip_soon(chat_id, old)

    # ---- private messages ----------------------------------------------------------------

    def schedule_private_all(self, match: Match, *, bump_current: bool) -> None:
        current = match.current
        for s in match.game.seats:
            self.schedule_private(match, s.seat, bump=bump_current and s.seat == current)

    def schedule_private(self, match: Match, seat: int, *, bump: bool = False) -> None:
        self.background.schedule(("dm", match.id, seat), lambda: self._refresh_private(match, seat, bump),
                                 match.stages.private[seat])

    async def _refresh_private(self, match: Match, seat: int, bump: bool) -> None:
        game = match.game
        if match.gone or match.state is None or seat >= len(game.seats):
            return
        entry = game.seats[seat]
        if entry.kind != "human":
            return
        lang = await self.people.user_lang(entry.user_id)
        ctx, version = match.ctx(lang), game.version
        running = game.status == Status.RUNNING
        view = match.ui.private(ctx, seat, match.scratch.paths.get(seat, "") if running else "")
        if view is None:
            return
        rows = view.rows + self._page_button(match, lang) if running else []
        markup = keyboard.markup(game.short_id, ctx.turn, rows)
        old = entry.dm_msg
        if bump and old is not None:
            # A new message notifies the player that it is their turn; the old one goes.
            await self.messenger.delete(entry.user_id, old)
            self.messages.forget(entry.user_id, old)
            old = None
        unchanged = old is not None and self.messages.shows(entry.user_id, old, view, markup)
        new_id = await self.messages.show(entry.user_id, old, view, markup)
        self._mark_reachable(match, seat, new_id is not None)
        if new_id is None:
            return
        # Stored only when the message changed: an unchanged one (a goal that stays the same
        # while the others move) costs no write; after a restart it is looked at once more.
        stored = new_id == entry.dm_msg and (version == entry.dm_version or unchanged)
        entry.dm_msg, entry.dm_version = new_id, version
        if not stored:
            await self.store.save_messages(game)

    def _mark_reachable(self, match: Match, seat: int, reachable: bool) -> None:
        """The table warns about a player the bot cannot write to in private."""
        unreachable = match.scratch.unreachable
        if reachable == (seat not in unreachable):
            return
        if reachable:
            unreachable.discard(seat)
        else:
            unreachable.add(seat)
        self.schedule_table(match)

    async def set_reachable(self, user_id: int, reachable: bool) -> None:
        """A player blocked (or unblocked) the bot: their tables say so at once; a returning
        player gets their private message again (which clears the warning once it arrives)."""
        for match in await self.book.open_of(user_id):
            seat = match.game.seat_of(user_id)
            if not match.running or seat is None:
                continue
            if reachable:
                self.schedule_private(match, seat, bump=True)
            else:
                self._mark_reachable(match, seat, False)

    # ---- a game on a message posted via the bot (inline mode) -------------------------------

    async def _carrier(self, match: Match) -> Carrier | None:
        """Where an inline game's pictures go up: the private chat of its host, or of another
        player who has one (None: nobody has, and its pictures stay as they are)."""
        game = match.game
        if not game.inline:
            return None
        if match.scratch.carrier is None:
            for user_id in [game.host_id] + [s.user_id for s in game.seats if not s.is_computer]:
                if await self.people.private_ok(user_id):
                    match.scratch.carrier = Carrier(user_id)
                    break
        return match.scratch.carrier

    async def show_results(self, match: Match, text: str, markup) -> bool:
        """An inline game's results are the last edit of its message: the final table with the
        results as its caption (False: the message is gone)."""
        game = match.game
        table, _ = self.table_view(match, await self.people.chat_lang(game.chat_id))
        view = View(fit_caption(text.split("\n"), [], []), [], image=table.image, image_key=table.image_key)
        shown = await self.messages.show(game.chat_id, game.inline_msg, view, markup, carrier=await self._carrier(match))
        return shown is not None

    # ---- the end -------------------------------------------------------------------------

    async def release(self, match: Match) -> None:
        """A game is over and its end shown (the Finisher's, or a lobby that closed): once its
        messages show their last state, forget what they show, and the book lets go of it (the
        store keeps everything; its scratch goes with it); a job still holding it does nothing
        from then on."""
        await match.stages.messages_caught_up()
        await match.stages.lobby.caught_up()
        game = match.game
        ids = {(game.chat_id, game.table_msg), (game.chat_id, game.lobby_msg), (game.chat_id, game.inline_msg)}
        ids |= {(s.user_id, s.dm_msg) for s in game.seats}
        for chat_id, message_id in ids:
            self.messages.forget(chat_id, message_id)
        if self.book.cached(game.id) is match:
            self.book.forget(game.id)
        match.stages.released.reach()
