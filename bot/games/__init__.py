"""The games on the bot's side: one package per game (``bot/games/<game>/``: its adapter, its
words in the chat, its moves on the page and its board there), each exporting one
:class:`~bot.games.kit.GameKit`; ``base`` is the contract of an adapter, ``kit`` the
descriptor, ``achievement`` what a game's own achievements are, ``colours`` the colour words
every game uses (the words a game's Russian holds to
are the Russian catalogues' glossary, ``bot/words/locales/ru/glossary.toml``).

Which games there are is the registry's (``engines/registry.py``): a game of this package is
found by its id; a game from elsewhere is added with :func:`add` (a test's toy game), or by an
installed package's entry point in the group ``tablebot.games`` naming its kit
(``toy = "mypackage.toy:KIT"``), loaded at the first use of this module.

It may use ``words``, ``outgoing`` (buttons) and ``storage`` (the game's record).
"""
from __future__ import annotations

import importlib
from importlib.metadata import entry_points

from engines import registry
from engines.base import GameInfo
from bot.games.kit import GameKit
from bot.words.i18n import t
from bot.words.names import in_text
from bot.words.texts import find_game, game_name

ENTRY_POINTS = "tablebot.games"

_kits: dict[str, GameKit] = {}
_plugins_loaded = False


def add(kit: GameKit) -> None:
    """A game from outside this package: its engine joins the registry, its kit this list."""
    registry.register(kit.id, kit.engine.__name__, ai=kit.ai.__name__)
    _kits[kit.id] = kit


def remove(kind: str) -> None:
    """Take back a game :func:`add` added."""
    _kits.pop(kind, None)
    registry.unregister(kind)


def _load_plugins() -> None:
    global _plugins_loaded
    if not _plugins_loaded:
        _plugins_loaded = True
        for point in entry_points(group=ENTRY_POINTS):
            add(point.load())


def kit_for(kind: str) -> GameKit:
    """The game's kit (KeyError for a game the registry does not know)."""
    _load_plugins()
    kit = _kits.get(kind)
    if kit is None:
        if kind not in registry.game_ids():
            raise KeyError(kind)
        kit = _kits[kind] = importlib.import_module(f"bot.games.{kind}").KIT
    return kit


def kits() -> list[GameKit]:
    """Every game, in the registry's order."""
    _load_plugins()
    return [kit_for(kind) for kind in registry.game_ids()]


def game_sign(kind: str) -> str:
    """The game's sign (🎲 🔺 ⬢ 🔷): the same in the menu, the lobby, the table and private messages."""
    return kit_for(kind).sign


def game_button(info: GameInfo, lang: str) -> str:
    """A game's sign, name and tag: "🎲 Totally Genial · push your luck with
    tokens" and "⬢ Ingenious · hex tiles on a board" differ at a glance (in Russian their names
    are one word apart)."""
    kit = kit_for(info.id)
    return f"{kit.sign} {game_name(info, lang)} · {t(lang, kit.tag)}"


def game_blurb(kind: str, lang: str) -> str:
    """What the game is like and for how many: its line in the menu and the greeting."""
    return t(lang, kit_for(kind).blurb)


def games_list(lang: str) -> str:
    """A line per game: sign, name, tag, what it is like, how many play."""
    return "\n".join(f"{kit.sign} <b>{game_name(kit.engine.INFO, lang)}</b> · {t(lang, kit.tag)} — "
                     f"{t(lang, kit.blurb)}" for kit in kits())


def rules_text(words: list[str], lang: str) -> str:
    """/rules <game>: the rules in short, or which games there are when it names none."""
    info = find_game(" ".join(words)) or (find_game(words[0]) if words else None)
    if info is None:
        names = ", ".join(f"{gi.id} ({game_name(gi, lang)})" for gi in registry.all_infos())
        which = t(lang, "Which rules? Write /rules and a game: {names}.", names=names)
        if not words:
            return which
        unknown = t(lang, "I don't know the game «{name}».", name=in_text(" ".join(words)[:40]))
        return unknown + "\n" + which
    return kit_for(info.id).ui.rules(lang)
