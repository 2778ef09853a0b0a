"""The lobby's commands and buttons: /new (and the game menu's buttons), /start with its deep
links, /cancel, /nextgame. What they do is ``bot/lobby``'s."""
from __future__ import annotations

import re

from telegram import Update
from telegram.constants import ChatType

from bot.lobby.links import DeepLinks
from bot.lobby.lobby import Lobby
from bot.lobby.menu import NEW_GAME, add_to_group_link
from bot.lobby.new import NewGame
from bot.lobby.nextgame import NextGame
from bot.outgoing import keyboard
from bot.outgoing.keyboard import MENU, Answer, Button
from bot.outgoing.messenger import Messenger
from bot.table.people import Person
from bot.updates.context import TableContext, thread_of
from bot.updates.context import Where
from bot.updates.help import Help
from bot.updates.routes import Command, Press, reply
from bot.words.i18n import t
from bot.words.names import in_text
from bot.words.refusals import Refused
from bot.words.texts import find_game

class LobbyRoutes:
    COMMANDS = (
        Command("new", "on_new", 10,
                menus={"private": "Start a game: /new {games}", "group": "Start a game: /new {games}"},
                help={"group": "/new <i>game</i> — open a lobby ({games}); friends tap <b>Join</b>, the host taps "
                               "<b>Start</b>",
                      "private": "/new <i>game</i> — a game here against a computer ({games}); add more computers "
                                 "or change their level in the lobby, or write /new cones bots=2 level=hard\n"
                                 "/new genial bots=0 — «Ingenious» alone"}),
        Command("cancel", "on_cancel", 30,
                menus={"private": "Stop your game here", "admins": "Stop the game here (host or admin)"},
                help={"group": "/cancel — stop the game here (host or admin)",
                      "private": "/cancel — stop your game here"}),
        Command("nextgame", "on_nextgame", 40,
                menus={"group": "Tell me in private when the next game opens here"},
                help={"group": "/nextgame — I tell you in private when the next game opens here (once)",
                      "private": "/nextgame — written in a group: I tell you here when the next game opens there"}),
        Command("start", "on_start", 0),
    )
    PRESSES = (Press(keyboard.menu_pattern(re.escape(NEW_GAME) + "[a-z]{1,12}"), "on_menu"),)

    def __init__(self, new_game: NewGame, links: DeepLinks, lobby: Lobby, next_game: NextGame, messenger: Messenger,
                 help: Help, *, bot_username: str):
        self.help = help
        self.new_game = new_game
        self.links = links
        self.lobby = lobby
        self.next_game = next_game
        self.messenger = messenger
        self.bot_username = bot_username

    async def on_new(self, update: Update, context: TableContext) -> None:
        """/new [game] [options]: open a lobby, or show the game menu."""
        chat = update.effective_chat
        await self.new_game.here(chat_id=chat.id, thread_id=thread_of(update), title=chat.title,
                                 person=context.person, words=context.words)

    async def on_menu(self, person: Person, where: Where, data: str) -> Answer:
        """A game of the menu: its lobby opens here."""
        game = data.rsplit(".", 1)[1]
        if where.chat_id is None or find_game(game) is None:
            raise Refused("bad_button")
        await self.new_game.here(chat_id=where.chat_id, thread_id=where.thread_id, title=where.title,
                                 person=person, words=[game])
        return Answer()

    async def on_start(self, update: Update, context: TableContext) -> None:
        """/start: the greeting, or a deep link back to a lobby (``j…``) or a game (``g…``)."""
        person = context.person
        if update.effective_chat.type != ChatType.PRIVATE:
            await reply(self.messenger, update, context, self.help.text(context.lang, private=False))
            return
        words = context.words
        said = await self.links.start(person, words[0] if words else "")
        if said is None:
            return  # the person's private message of the game came down
        if said:
            await reply(self.messenger, update, context, said)
            return
        add_me = keyboard.markup(MENU, None, [[Button(
            t(person.lang, "➕ Add me to a group"), url=add_to_group_link(self.bot_username))]])
        await reply(self.messenger, update, context, t(person.lang, "👋 Hello, {name}!", name=in_text(person.name))
                    + "\n\n" + self.help.text(person.lang, private=True), add_me)

    async def on_cancel(self, update: Update, context: TableContext) -> None:
        """/cancel: the host or an admin stops the game here."""
        await reply(self.messenger, update, context, await self.lobby.cancel_here(
            update.effective_chat.id, thread_of(update), context.person, context.lang))

    async def on_nextgame(self, update: Update, context: TableContext) -> None:
        """/nextgame: tell me in private when a lobby opens in this group."""
        await reply(self.messenger, update, context, *await self.next_game.ask(
            update.effective_chat.id, thread_of(update), context.person, context.lang))
