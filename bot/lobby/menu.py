"""The ways into a lobby: the game menu (a button per game), the deep link that joins a lobby
from the private chat, the link that adds the bot to a group; and the notes a lobby shows under
its players (who joined from the private chat, whom Start waits for)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from telegram.helpers import create_deep_linked_url

from engines import registry
from bot.outgoing import keyboard
from bot.outgoing.keyboard import MENU, Button
from bot.storage.store import Game
from bot.words.i18n import t
from bot.words.names import in_text
from bot.games import game_button, games_list

NEW_GAME = "n."  # the game menu's buttons: ``n.<game>`` opens its lobby where it was pressed


@dataclass(frozen=True)
class LobbyNote:
    """A line under the player list: someone joined from the private chat ("joined", name), or
    Start waits for people who never opened it ("waiting", names)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def text(self, lang: str, bot_username: str) -> str:
        if self.code == "joined":
            return t(lang, "{name} joined from the private chat.", name=in_text(self.params["name"]))
        if self.code == "again":
            return t(lang, "Last time also: {names}. Tap ✋ Join to play again.",
                     names=", ".join(in_text(n) for n in self.params["names"]))
        if self.code == "solo":
            return t(lang, "Tap ▶️ Start again to play solo, or add a 🤖 computer player.")
        return t(lang, "Waiting for {names} to open the private chat with @{bot}.",
                 names=", ".join(in_text(n) for n in self.params["names"]), bot=bot_username)


def join_link(bot_username: str, game: Game) -> str:
    """The private chat's link that joins ``game`` (``/start j<game>``: ``DeepLinks.start``)."""
    return create_deep_linked_url(bot_username, f"j{game.short_id}")


def add_to_group_link(bot_username: str) -> str:
    """The link that adds the bot to a group of the person's choice."""
    return create_deep_linked_url(bot_username, "new", group=True)


def game_menu(lang: str, *, greet: bool = False) -> tuple[str, Any]:
    """"Which game shall we play?" (or, when the bot joins a group, a greeting): a line per game
    with what it is like and for how many, and a button per game."""
    rows = [[Button(game_button(gi, lang), f"{NEW_GAME}{gi.id}")] for gi in registry.all_infos()]
    text = greeting(lang) if greet else t(lang, "Which game shall we play?") + "\n\n" + games_list(lang)
    return text, keyboard.markup(MENU, None, rows)


def greeting(lang: str) -> str:
    """What the bot says once, when it is added to a group."""
    return (t(lang, "👋 Hello! I host board games for this group.") + "\n\n" + games_list(lang) + "\n\n"
            + t(lang, "Tap a game below or write /new and its name; friends tap <b>Join</b>, the host taps "
                      "<b>Start</b>. Short of players? Add 🤖 computer players in the lobby. /help for more."))
