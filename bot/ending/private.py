"""Each person's own result in private, where the game has no private message to end with it
(lucky; Ingenious, trio and cones show it on the private message already), for a game
played in a group. Quiet (no notification), as the other games' private messages are edited to
show the result, with a link to the results. Sent once: the seat is marked when its
message leaves for Telegram."""
from __future__ import annotations

from bot.words.format import message_link
from bot.outgoing import keyboard
from bot.outgoing.keyboard import MENU, Button
from bot.outgoing.messenger import Messenger
from bot.storage.store import GameStore, Seat
from bot.table.book import Match
from bot.table.people import People
from bot.words.i18n import t
from bot.words.names import in_text


class PrivateResults:
    def __init__(self, store: GameStore, messenger: Messenger, people: People):
        self.store = store
        self.messenger = messenger
        self.people = people

    async def send(self, match: Match) -> None:
        """Each person of a finished group game gets their own result (where the game has one),
        once: the seat is marked when its message leaves."""
        if match.game.chat_id < 0:
            for seat in match.game.seats:
                await self._send(match, seat)

    async def _send(self, match: Match, seat: Seat) -> None:
        game = match.game
        if seat.kind != "human" or seat.result_sent:
            return
        row = await self.store.user(seat.user_id)
        if row is None or not row.private_ok:
            return
        lang = await self.people.user_lang(seat.user_id)
        ui, ctx = match.ui, match.ctx(lang)
        text = ui.private_result(ctx, seat.seat)
        if text is None or ui.private(ctx, seat.seat) is not None:
            return
        chat = await self.store.chat(game.chat_id)
        if chat and chat.title:
            text += "\n" + t(lang, "Played in {chat}.", chat=in_text(chat.title))
        link = message_link(game.chat_id, game.results_msg or game.table_msg)
        markup = keyboard.markup(MENU, None, [[Button(t(lang, "➡️ To the results"), url=link)]]) if link else None

        async def leaving() -> None:
            seat.result_sent = True
            await self.store.save_messages(game)
        await self.messenger.send_text(seat.user_id, text, markup, notify=False, leaving=leaving)
