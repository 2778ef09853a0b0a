"""Keeping every message of a game shown: the lobby, the table, the private messages, the results.

Tables hears every change of a game (``bot/table/changes.py``) and redraws what it affects in the
background (``bot/table/background.py``), from the latest state, so a burst of moves becomes one edit;
the Messenger paces the writes per group. What a message shows now is remembered, so an
unchanged message is not edited, and an unchanged picture is not drawn or uploaded again (only
its caption is edited). A job whose game has gone (finished and shown, cancelled) does nothing.
"""
from __future__ import annotations

import json
import logging
from typing import Any, Awaitable, Callable

from engines import registry
from bot.outgoing import keyboard
from bot.table.background import Background, TryLater, table_key
from bot.table.book import GameBook, Match
from bot.table.changes import Change, Closed, Finished, Moved, SeatChanged, Shown, Started
from bot.games.base import View, plain_text
from bot.words.i18n import t
from bot.outgoing.keyboard import Button
from bot.showing.lobby_view import LobbyNote, lobby_message
from bot.outgoing.messenger import Messenger, Result
from bot.words.names import in_text
from bot.outgoing.pacing import PERSON, TIDY
from bot.table.people import People
from bot.workers.pool import render_picture
from bot.storage.store import UNKNOWN_MESSAGE, GameStore, Status
from bot.words.texts import game_name
from bot.table.turns import TurnPolicy

log = logging.getLogger(__name__)

REPLAY = "!replay"  # the results' 🎞 (bot/ending/replays.py)
REMATCH = "!rematch"

# A new message that may or may not have arrived is posted again only this much later, if nobody
# pressed a button on it meanwhile (which tells its id: see ``adopt``).
UNSURE_SECONDS = 30.0


class Tables:
    def __init__(self, book: GameBook, store: GameStore, messenger: Messenger, people: People, turns: TurnPolicy,
                 background: Background, *, bot_username: str,
                 render: Callable[[Callable[[], bytes]], Awaitable[bytes]] = render_picture,
                 results_note: Callable[[Match, str], Awaitable[str]], webapp_url: str = "",
                 group_link: Callable[[str], str] | None = None):
        self.book = book
        # The Mini App (bot/webapp): its page's address, opened from a private message's web_app button,
        # and the t.me link to it on a group's table, by game id (None: no such link).
        self.webapp_url = webapp_url
        self.group_link = group_link
        # Lines added below a game's results (the rating changes: bot/records/records.py).
        self.results_note = results_note
        self.render = render  # draws a picture job off the event loop (bot/workers/pool.py)
        self.store = store
        self.messenger = messenger
        self.people = people
        self.turns = turns
        self.background = background
        self.bot_username = bot_username
        # Where each player is in composing a move (a navigation path of the game's adapter).
        self._table_path: dict[int, str] = {}
        self._dm_path: dict[tuple[int, int], str] = {}
        self._lobby_notes: dict[int, LobbyNote] = {}
        # What each message shows now: (text, markup json, image key). Skips no-op edits.
        self._shown: dict[tuple[int, int], tuple[str, str, str | None]] = {}
        self._shown_turn: dict[tuple[int, int], int] = {}  # the turn a table or private message shows
        self._unreachable: set[tuple[int, int]] = set()
        self._repost: set[int] = set()  # games whose lobby or table /board asked to bring down

    # ---- what happened to a game ---------------------------------------------------------

    def hear(self, change: Change) -> None:
        """Redraw what a change of a game affects (subscribed to ``bot.table.changes.Changes``)."""
        match = change.match
        if isinstance(change, Started):
            self.schedule_table(match)
            self.schedule_private_all(match, bump_current=False)
        elif isinstance(change, Moved):
            self._clear_paths(match)
            self.schedule_table(match)
            # Moving the private message down notifies the player, where moves are made there.
            self.schedule_private_all(match, bump_current=match.ui.moves_in_private and change.turn_passed)
        elif isinstance(change, SeatChanged):
            self.schedule_table(match)
            self.schedule_private(match, change.seat, bump=change.back)
        elif isinstance(change, Finished):
            self._schedule_results(change)
            self.let_go(match)
        elif isinstance(change, Closed):
            if change.why is not None:
                self.background.schedule(("closed", match.id), lambda: self._show_closed(change))
            self.let_go(match)
        elif isinstance(change, Shown):
            self._show_again(match)

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

    async def _show_closed(self, change: Closed) -> None:
        """A running game was cancelled: say why, take its buttons off, the table says so too."""
        match, game = change.match, change.match.game
        lang = await self.people.chat_lang(game.chat_id)
        name = game_name(registry.info(game.kind), lang)
        if change.why == "abandoned":
            text = t(lang, "Nobody has moved in {game} for two rounds ({names}): the game is closed.",
                     game=name, names=", ".join(in_text(s.name) for s in game.seats))
        else:
            text = t(lang, "{game} was cancelled by {name}.", game=name, name=in_text(change.by or "?"))
        await self.messenger.send_text(game.chat_id, text, thread_id=game.thread_id, priority=PERSON)
        await self._strip(game.chat_id, game.table_msg)
        for s in game.seats:
            await self._strip(s.user_id, s.dm_msg)
        self.schedule_table(match)  # the table says the game was cancelled

    # ---- composing a move ----------------------------------------------------------------

    def set_path(self, match: Match, where: str, seat: int | None, path: str) -> None:
        """A player moved on in composing a move; their message shows the new step."""
        if where == "table":
            self._table_path[match.id] = path
            self.schedule_table(match)
        elif seat is not None:
            self._dm_path[(match.id, seat)] = path
            self.schedule_private(match, seat)

    def _clear_paths(self, match: Match) -> None:
        """A move was made: every half-composed move starts again."""
        self._table_path.pop(match.id, None)
        for s in match.game.seats:
            self._dm_path.pop((match.id, s.seat), None)

    def shows_turn(self, chat_id: int, message_id: int) -> int | None:
        """The turn a game message shows now (None: not known, e.g. after a restart)."""
        return self._shown_turn.get((chat_id, message_id))

    @staticmethod
    def toast(match: Match, events: list[dict], lang: str) -> str | None:
        """What a move did, in a line for the presser's pop-up (public narration only)."""
        lines = match.ui.story(match.ctx(lang), events)
        if not lines:
            return None
        return "✓ " + " ".join(plain_text(line) for line in lines)

    async def adopt(self, match: Match, where: str, seat: int | None, message_id: int) -> None:
        """A button was pressed on a message of this game the bot lost track of (its post timed
        out but did arrive): that message is the table (or the private message) from now on."""
        if where == "table":
            match.game.table_msg = message_id
        else:
            match.game.seats[seat].dm_msg = message_id
        await self.store.save_messages(match.game)
        self.redraw(match, where, seat)

    def redraw(self, match: Match, where: str, seat: int | None) -> None:
        if where == "table":
            self.schedule_table(match)
        elif seat is not None:
            self.schedule_private(match, seat)

    # ---- showing one message -------------------------------------------------------------

    @staticmethod
    def _markup_json(markup) -> str:
        return json.dumps(markup.to_dict() if markup is not None else None, sort_keys=True)

    async def _show(self, chat_id: int, message_id: int | None, view: View, markup, *,
                    thread_id: int = 0, force_new: bool = False) -> int | None:
        """Make a message show ``view``: edit it in place, or post it when it is gone.

        Returns the message id now showing the view (None when it could not be shown).
        """
        wanted = (view.text, self._markup_json(markup), view.image_key)
        if message_id is not None and not force_new:
            shown = self._shown.get((chat_id, message_id))
            if shown == wanted:
                return message_id
            if view.image is not None:
                if shown is not None and shown[2] == view.image_key:
                    sent = await self.messenger.edit_caption(chat_id, message_id, view.text, markup)
                else:
                    sent = await self.messenger.edit_photo(chat_id, message_id, lambda: self.render(view.image),
                                                           view.text, markup)
            else:
                sent = await self.messenger.edit_text(chat_id, message_id, view.text, markup)
            if sent.ok:
                self._shown[(chat_id, message_id)] = wanted
                return message_id
            if sent.result in (Result.FORBIDDEN, Result.MIGRATED):
                return None
            if sent.result != Result.MISSING:
                raise TryLater()
            # MISSING: deleted by someone; post a new message below.
            self._forget(chat_id, message_id)
        if view.image is not None:
            sent = await self.messenger.send_photo(chat_id, lambda: self.render(view.image), view.text, markup,
                                                   thread_id=thread_id)
        else:
            sent = await self.messenger.send_text(chat_id, view.text, markup, thread_id=thread_id)
        if sent.message is None:
            if sent.result == Result.FAILED:
                raise TryLater()
            if sent.result == Result.UNSURE:
                raise TryLater(UNSURE_SECONDS)  # not posted twice at once: it may be there
            return None  # forbidden or migrated
        self._shown[(chat_id, sent.message.message_id)] = wanted
        return sent.message.message_id

    def _forget(self, chat_id: int, message_id: int | None) -> None:
        """A message no longer shows the game (deleted, gone, stripped, or its game is over)."""
        self._shown.pop((chat_id, message_id), None)
        self._shown_turn.pop((chat_id, message_id), None)

    def strip_soon(self, chat_id: int, message_id: int | None) -> None:
        """Take the buttons off an old message in a job of its own (clean-up waits for the rest)."""
        if message_id:  # (not UNKNOWN_MESSAGE)
            self.background.schedule(("strip", chat_id, message_id), lambda: self._strip(chat_id, message_id))

    async def _strip(self, chat_id: int, message_id: int | None) -> None:
        """Take the buttons off a message that no longer leads anywhere."""
        if message_id is not None:
            await self.messenger.edit_markup(chat_id, message_id, None, priority=TIDY)
            self._forget(chat_id, message_id)

    # ---- the lobby -----------------------------------------------------------------------

    def set_lobby_note(self, game_id: int, note: LobbyNote | None) -> None:
        if note is None:
            self._lobby_notes.pop(game_id, None)
        else:
            self._lobby_notes[game_id] = note

    def lobby_note(self, game_id: int) -> LobbyNote | None:
        return self._lobby_notes.get(game_id)

    def schedule_lobby(self, match: Match) -> None:
        """Edit the lobby message (in the background, coalesced and paced)."""
        async def job() -> None:
            game = match.game
            if match.gone or game.status != Status.LOBBY:
                return
            lang = await self.people.chat_lang(game.chat_id)
            minutes = await self.turns.minutes(game.chat_id)
            view, markup = lobby_message(game, lang, self._lobby_notes.get(game.id), self.bot_username, minutes)
            old, repost = game.lobby_msg, match.id in self._repost
            new_id = await self._show(game.chat_id, old, view, markup, thread_id=game.thread_id, force_new=repost)
            if repost:
                self._reposted(match, game.chat_id, old, new_id)
            if new_id is not None and new_id != game.lobby_msg:
                game.lobby_msg = new_id
                await self.store.save_messages(game)
        self.background.schedule(("lobby", match.id), job)

    def close_lobby(self, match: Match, text: str) -> None:
        """Turn the lobby message into a plain record (no buttons)."""
        game = match.game
        self._lobby_notes.pop(game.id, None)
        if game.lobby_msg is None:
            return
        chat_id, message_id, thread_id = game.chat_id, game.lobby_msg, game.thread_id

        async def job() -> None:
            await self._show(chat_id, message_id, View(text), None, thread_id=thread_id)
        self.background.schedule(("lobby", game.id), job)

    # ---- the table -----------------------------------------------------------------------

    def table_view(self, match: Match, lang: str) -> tuple[View, Any]:
        game, ctx = match.game, match.ctx(lang)
        running = game.status == Status.RUNNING
        view = match.ui.table(ctx, self._table_path.get(game.id, "") if running else "")
        rows = view.rows if running else []
        if running:
            lost = [s.seat for s in game.seats if (game.id, s.seat) in self._unreachable]
            if lost:
                names = ", ".join(ctx.name(s) for s in lost)
                view.text += "\n" + t(lang, "⚠️ I cannot write to {names} in private: open @{bot} and press START.",
                                      names=names, bot=self.bot_username)
            extra = [Button(t(lang, "📖 Rules"), "?rules", turn_free=True)]
            if any(s.autoplayed and not s.is_computer for s in game.seats):
                extra.insert(0, Button(t(lang, "🙋 I'm back: my seat"), "!back", turn_free=True))
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
        self.background.schedule(table_key(match.id), lambda: self._refresh_table(match))

    async def _refresh_table(self, match: Match) -> None:
        game = match.game
        if match.gone or match.state is None:
            return
        lang = await self.people.chat_lang(game.chat_id)
        turn, version, old, repost = match.turn, game.version, game.table_msg, match.id in self._repost
        view, markup = self.table_view(match, lang)
        new_id = await self._show(game.chat_id, old, view, markup, thread_id=game.thread_id, force_new=repost)
        if repost:
            self._reposted(match, game.chat_id, old, new_id)
        if new_id is None:
            return
        self._shown_turn[(game.chat_id, new_id)] = turn
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
        self._repost.add(match.id)
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
            self._repost.discard(match.id)
            if old is not None and old != new:
                self.strip_soon(chat_id, old)

    # ---- private messages ----------------------------------------------------------------

    def schedule_private_all(self, match: Match, *, bump_current: bool) -> None:
        current = match.current
        for s in match.game.seats:
            self.schedule_private(match, s.seat, bump=bump_current and s.seat == current)

    def schedule_private(self, match: Match, seat: int, *, bump: bool = False) -> None:
        self.background.schedule(("dm", match.id, seat), lambda: self._refresh_private(match, seat, bump))

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
        view = match.ui.private(ctx, seat, self._dm_path.get((game.id, seat), "") if running else "")
        if view is None:
            return
        rows = view.rows + self._page_button(match, lang) if running else []
        markup = keyboard.markup(game.short_id, ctx.turn, rows)
        old = entry.dm_msg
        if bump and old is not None:
            # A new message notifies the player that it is their turn; the old one goes.
            await self.messenger.delete(entry.user_id, old)
            self._forget(entry.user_id, old)
            old = None
        new_id = await self._show(entry.user_id, old, view, markup)
        if new_id is not None:
            self._shown_turn[(entry.user_id, new_id)] = ctx.turn
        self._mark_reachable(match, seat, new_id is not None)
        if new_id is not None and (new_id != entry.dm_msg or version != entry.dm_version):
            entry.dm_msg, entry.dm_version = new_id, version
            await self.store.save_messages(game)

    def bring_back(self, match: Match, seat: int) -> None:
        """The player asked for their private message again (``/start`` from its link): it
        comes down to the bottom of the private chat."""
        self.schedule_private(match, seat, bump=True)

    def _mark_reachable(self, match: Match, seat: int, reachable: bool) -> None:
        """The table warns about a player the bot cannot write to in private."""
        key = (match.id, seat)
        if reachable == (key not in self._unreachable):
            return
        if reachable:
            self._unreachable.discard(key)
        else:
            self._unreachable.add(key)
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

    # ---- the end -------------------------------------------------------------------------

    async def _settled(self, match: Match) -> None:
        """Wait until the game's table and private messages show their last state."""
        await self.background.settled(table_key(match.id))
        for s in match.game.seats:
            await self.background.settled(("dm", match.id, s.seat))

    def let_go(self, match: Match) -> None:
        """A game is over and shown: forget what its messages show, and the book lets go of it
        (the store keeps everything); a job still holding it does nothing from then on."""
        async def job() -> None:
            game = match.game
            await self._settled(match)
            await self.background.settled(("results", game.id))
            await self.background.settled(("closed", game.id))
            ids = {(game.chat_id, game.table_msg), (game.chat_id, game.lobby_msg)}
            ids |= {(s.user_id, s.dm_msg) for s in game.seats}
            for chat_id, message_id in ids:
                self._forget(chat_id, message_id)
            self._table_path.pop(game.id, None)
            self._lobby_notes.pop(game.id, None)
            self._repost.discard(game.id)
            for s in game.seats:
                self._dm_path.pop((game.id, s.seat), None)
                self._unreachable.discard((game.id, s.seat))
            if self.book.cached(game.id) is match:
                self.book.forget(game.id)
        self.background.schedule(("let-go", match.id), job)

    @staticmethod
    def results_markup(short_id: str, lang: str, *, rematch: bool):
        """The results' buttons: 🎞 the replay of the game, and 🔁 a rematch until it is used."""
        row = [Button(t(lang, "🎞 Replay"), REPLAY, turn_free=True)]
        if rematch:
            row.append(Button(t(lang, "🔁 Rematch"), REMATCH, turn_free=True))
        return keyboard.markup(short_id, None, [row])

    def rematch_used(self, game) -> None:
        """The results keep their text and 🎞, not their 🔁 (it has been used)."""
        chat_id, message_id, short_id = game.chat_id, game.results_msg, game.short_id
        if not message_id:  # (not UNKNOWN_MESSAGE)
            return

        async def job() -> None:
            lang = await self.people.chat_lang(chat_id)
            await self.messenger.edit_markup(chat_id, message_id, self.results_markup(short_id, lang, rematch=False),
                                             priority=TIDY)
        self.background.schedule(("strip", chat_id, message_id), job)

    def _schedule_results(self, change: Finished) -> None:
        """Post the results below the final table (after its last edit), once; then start the
        next game of a series below them."""
        match = change.match

        async def job() -> None:
            await self._settled(match)
            game = match.game
            if game.results_msg is None:
                # Exactly once, across any stop: the intent is stored before the send, so a
                # restart never posts them again; a send that surely failed is tried again.
                game.results_msg = UNKNOWN_MESSAGE
                await self.store.save_messages(game)
                lang = await self.people.chat_lang(game.chat_id)
                text = match.ui.results(match.ctx(lang))
                note = await self.results_note(match, lang)
                if note:
                    text += "\n\n" + note
                rematch = True
                if change.news is not None:
                    text += "\n\n" + change.news.text(lang)
                    rematch = change.news.next_seats is None  # a series goes on by itself
                markup = self.results_markup(game.short_id, lang, rematch=rematch)
                sent = await self.messenger.send_text(game.chat_id, text, markup, thread_id=game.thread_id,
                                                      priority=PERSON, patient=True)
                if sent.message is not None or sent.result == Result.FAILED:
                    game.results_msg = sent.message.message_id if sent.message is not None else None
                    await self.store.save_messages(game)
                if sent.result == Result.FAILED:
                    raise TryLater()  # surely not posted (Telegram did not take it): again later
                # UNSURE (the connection broke after the request went out): it may be there, so
                # it is not posted a second time.
            if change.then is not None:
                change.then()
        self.background.schedule(("results", match.id), job)
