"""/help (and the greeting of /start): a line per command, from the commands' own declarations
(``bot/updates/routes.py``), in their order, for a group or for the private chat."""
from __future__ import annotations

from typing import Iterable

from engines import registry
from bot.updates.routes import Command
from bot.words.i18n import DEFAULT_LANG, t
from bot.words.texts import game_name


def game_ids() -> str:
    """The games' ids as /new takes them: «lucky, cones, genial, trio» (the registry's order)."""
    return ", ".join(info.id for info in registry.all_infos())


def game_words(lang: str) -> str:
    """The words /new takes for the games: their ids, and in another language than English also
    their names in it."""
    if lang == DEFAULT_LANG:
        return game_ids()
    return t(lang, "{ids} or by their names in this language: {names}", ids=game_ids(),
             names=", ".join(f"«{game_name(info, lang).lower()}»" for info in registry.all_infos()))


class Help:
    def __init__(self, commands: Iterable[Command], *, bot_username: str):
        self.commands = sorted(commands, key=lambda c: c.rank)
        self.bot_username = bot_username

    def text(self, lang: str, *, private: bool) -> str:
        where = "private" if private else "group"
        lines = [t(lang, c.help[where], games=game_words(lang)) for c in self.commands if where in c.help]
        if private:
            return "\n\n".join([
                t(lang, "<b>tablebot</b> hosts board games for friends in groups, and here, in private, against "
                        "🤖 computer players."),
                "\n".join(lines),
                t(lang, "In a group your secrets (a goal colour, a rack, a hand) and your moves come here. "
                        "To play with friends, add me to a group and write /new there.")])
        return "\n\n".join([
            t(lang, "<b>tablebot</b> hosts board games in this chat."),
            "\n".join(lines),
            t(lang, "Short of players? Add 🤖 computer players in the lobby, or /new <i>game</i> bots=2 level=hard.\n"
                    "Secrets (a goal colour, a rack, a hand) come by private message: open @{bot} and press START "
                    "once.", bot=self.bot_username)])
