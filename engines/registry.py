"""Registry of the games: ids, English names and aliases, player counts, options (a game is
found by what people call it, in any language, by the bot: ``bot.words.texts.find_game``).

The one list of games: the four of this package, and any another package registers (a game
under the engine contract in a module of its own, and its computer players in another:
``register("toy", "mypackage.toy", ai="mypackage.toy_ai")``).
Everything that lists the games (the menus, /help, the page, the tests, the bench) reads
:func:`game_ids` or :func:`all_infos`."""
from __future__ import annotations

import importlib
from types import ModuleType

from engines.base import GameInfo

BUILT_IN: tuple[str, ...] = ("lucky", "cones", "genial", "trio")

# game id -> (its engine's module, its computer players' module: engines/ai/__init__.py)
_modules: dict[str, tuple[str, str]] = {game_id: (f"engines.{game_id}", f"engines.ai.{game_id}") for game_id in BUILT_IN}


def game_ids() -> tuple[str, ...]:
    """Every game's id: the built-in ones in their order, then those registered."""
    return tuple(_modules)


def register(game_id: str, module: str, *, ai: str) -> None:
    """Add a game whose engine is the module named ``module`` (its ``INFO.id`` is ``game_id``)
    and whose computer players are the module named ``ai``."""
    if game_id in BUILT_IN:
        raise ValueError(f"{game_id} is a built-in game")
    _modules[game_id] = (module, ai)


def unregister(game_id: str) -> None:
    """Take back a game :func:`register` added."""
    if game_id not in BUILT_IN:
        _modules.pop(game_id, None)


def engine(game_id: str) -> ModuleType:
    """The engine module of a game id (KeyError for an unknown id)."""
    return importlib.import_module(_modules[game_id][0])


def ai_module(game_id: str) -> ModuleType:
    """The computer players' module of a game id (KeyError for an unknown id)."""
    return importlib.import_module(_modules[game_id][1])


def info(game_id: str) -> GameInfo:
    return engine(game_id).INFO


def all_infos() -> list[GameInfo]:
    return [info(gid) for gid in game_ids()]

