"""An achievement, as a game declares its own (``GameKit.achievements``, decided by its
``GameKit.feats`` from what happened in one game) and as the records keep every game's
(``bot/records/achievements/``): a code (kept in the store: never renamed), an icon, a name and a
one-line rule (English msgids: the Russian is in the game's catalogue), the game it belongs to
(None: any game), whether games with a computer at the table count, and a count to reach."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.words.i18n import t

Events = list[dict[str, Any]]
Outcome = dict[str, Any]
Feats = dict[str, set[int]]


@dataclass(frozen=True)
class Achievement:
    code: str
    icon: str
    name: str
    rule: str
    game: str | None = None
    computers: bool = False  # games with a computer at the table count (else: games among people only)
    target: int | None = None  # a count to reach: shown as progress («7/10»)

    def title(self, lang: str) -> str:
        """«Three wins in a row» in the person's language (without quotes)."""
        return t(lang, self.name)

    def says(self, lang: str) -> str:
        return t(lang, self.rule)


def first_places(outcome: Outcome, players: int) -> set[int]:
    """The seats in first place (nobody wins a game on one's own)."""
    places = outcome.get("places") or []
    return {seat for seat, place in enumerate(places) if place == 1} if players > 1 else set()
