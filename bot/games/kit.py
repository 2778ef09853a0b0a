"""Everything the bot knows of one game, in one value: a game's package (``bot/games/<game>/``)
exports ``KIT = GameKit(...)`` and nothing outside the package names the game.

The lists of games (the menu, /help, /rules, the page's games, the glossary test, the bench) are
the registry's ids (``engines/registry.py``) read through :func:`bot.games.kit_for`.
"""
from __future__ import annotations

import pathlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Mapping

from bot.games.achievement import Achievement, Events, Feats, Outcome
from bot.games.base import GameUI

# What the page may ask of a game besides its JSON: (state, seat, the query's parameters) → JSON.
PageQuery = Callable[[Any, int, Mapping[str, str]], Any]


@dataclass(frozen=True)
class GameKit:
    """One game on the bot's side.

    ``engine`` the rules (a module under the engine contract, ``engines/base.py``); ``ai`` its
    computer players (under ``engines/ai/__init__.py``'s contract); ``ui`` the adapter
    (views and events into captions, pictures and buttons; a press into an action; its
    ``sign``, the emoji beside the game's name everywhere); ``blurb`` the game's line in the
    menu and the greeting and ``tag`` the few words beside its name wherever a game is chosen
    (English msgids, translated where shown); ``look`` its colour and shape where a picture
    tells the games apart (the rating chart: never colour alone, close to the sign); ``board`` the page's board module (a JavaScript
    file with ``mount(root, page)``); ``page_play(state, seat)`` what the seat may do now on the
    Mini App's page, with what each move would do (None: nothing to choose); ``page_queries``
    what else the page may ask, by name (``GET /app/api/games/{id}/ask/{name}``);
    ``achievements`` the game's own (``bot/games/achievement.py``), and ``feats(events,
    outcome, players, options)`` which seats earned each in one game."""

    engine: ModuleType
    ai: ModuleType
    ui: GameUI
    blurb: str
    tag: str
    look: tuple[str, str]
    board: pathlib.Path
    page_play: Callable[[Any, int], dict | None]
    page_queries: Mapping[str, PageQuery] = field(default_factory=dict)
    achievements: tuple[Achievement, ...] = ()
    feats: Callable[[Events, Outcome, int, dict], Feats] | None = None

    @property
    def id(self) -> str:
        return self.engine.INFO.id

    @property
    def sign(self) -> str:
        return self.ui.sign
