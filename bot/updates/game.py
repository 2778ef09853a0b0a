"""A game's own commands and buttons: /board, /leave, /away, every button of a lobby, a table or
a private message of a game, and moves typed in the private chat; all of them through the door
(``bot/updates/door.py``), which holds who may do what."""
from __future__ import annotations

from telegram import Update

from bot.outgoing.messenger import Messenger
from bot.showing.tables import Tables
from bot.updates.context import TableContext, thread_of
from bot.updates.door import Door
from bot.updates.routes import Command, reply
from bot.words.i18n import t


class GameRoutes:
    COMMANDS = (
        Command("board", "on_board", 20,
                menus={"private": "Show the table again at the bottom", "group": "Show the table again at the bottom"},
                help={"group": "/board — post the table again at the bottom of the chat",
                      "private": "/board — your game's table again at the bottom"}),
        Command("leave", "on_leave", 35,
                menus={"group": "Leave the lobby, or let a computer play your seat"},
                help={"group": "/leave — a computer takes your seat (in a lobby: you leave it); 🙋 on the table "
                               "brings you back"}),
        Command("away", "on_away", 36,
                menus={"admins": "A computer plays for whoever keeps everyone waiting (host or admin)"},
                help={"group": "/away — the host or an admin lets a computer play for the player everyone waits "
                               "for"}),
    )
    PRESSES = ()  # the door answers every button no feature claims (``Router.press``)

    def __init__(self, door: Door, tables: Tables, messenger: Messenger):
        self.door = door
        self.tables = tables
        self.messenger = messenger

    async def on_board(self, update: Update, context: TableContext) -> None:
        """/board: the table (or the lobby) again at the bottom of the chat."""
        if not await self.tables.board(update.effective_chat.id, thread_of(update)):
            await reply(self.messenger, update, context,
                        t(context.lang, "No game is running here. Start one with /new."))

    async def on_leave(self, update: Update, context: TableContext) -> None:
        """/leave: out of the lobby here, or, in a running game, a computer plays your seat."""
        await reply(self.messenger, update, context, await self.door.leave(
            context.person, update.effective_chat.id, thread_of(update), context.lang))

    async def on_away(self, update: Update, context: TableContext) -> None:
        """/away: a computer plays for whoever keeps everyone waiting (host or admin)."""
        await reply(self.messenger, update, context, await self.door.away(
            context.person, update.effective_chat.id, thread_of(update), context.lang))

    async def on_private_text(self, update: Update, context: TableContext) -> None:
        """A typed move in the private chat (e.g. genial's ``3 F7 F8``)."""
        said = await self.door.typed(context.person, (update.effective_message.text or "").strip())
        if said:
            self.messenger.post(context.person.id, said)
