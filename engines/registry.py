"""Registry of the games: ids, names in both languages, aliases, player counts, options."""
from __future__ import annotations

import importlib
from types import ModuleType

from engines.base import GameInfo

GAME_IDS: tuple[str, ...] = ("lucky", "cones", "genial", "trio")


def engine(game_id: str) -> ModuleType:
    """The engine module of a game id (KeyError for an unknown id)."""
    if game_id not in GAME_IDS:
        raise KeyError(game_id)
    return importlib.import_module(f"engines.{game_id}")


def info(game_id: str) -> GameInfo:
    return engine(game_id).INFO


def all_infos() -> list[GameInfo]:
    return [info(gid) for gid in GAME_IDS]


def _norm(text: str) -> str:
    return text.strip().lower().replace("ё", "е").replace("«", "").replace("»", "")


def find(name: str) -> GameInfo | None:
    """A game by id, English or Russian name, or alias, case-insensitively."""
    wanted = _norm(name)
    if not wanted:
        return None
    for gi in all_infos():
        names = {gi.id, gi.name_en, gi.name_ru, *gi.aliases}
        if wanted in {_norm(n) for n in names}:
            return gi
    return None
