"""The achievements: each with a code (kept in the store: never renamed), an icon, a name and a
one-line rule (English msgids: the Russian is in the catalogues, a game's own in its game's),
the game it belongs to (None: any game), whether games with a computer at the table count for it
(/achievements marks those with 🤖; the others count games among people only) and, where it
counts something, the count to reach.

Who decides each: ``bot/records/achievements/ledger.py`` (a person's games one after another, and
one game's record) and, for a game's own, its kit (``bot/games/<game>/feats.py``: what happened in
one game, read by ``plays.py``). A new achievement is one line here (or in its game's) and its
rule there; the records already kept count for it at the
next start, without a word in any group (``keeper.py``).
"""
from __future__ import annotations

import hashlib

from engines import registry
from bot.games import kits
from bot.games.achievement import Achievement

FOUR = registry.BUILT_IN  # the four games «all four games» asks for


A = Achievement
CATALOGUE: tuple[Achievement, ...] = (
    # ---- every game (each game's own are its kit's: bot/games/<game>/feats.py) ------------------------------------------------------------------------
    A("first_game", "🎲", "First game", "Finish a game.", computers=True),
    A("first_win", "🥇", "First win", "Win a game.", computers=True),
    A("games_10", "🔟", "Ten games", "Finish 10 games.", computers=True, target=10),
    A("games_100", "💯", "A hundred games", "Finish 100 games.", computers=True, target=100),
    A("wins_10", "🎖", "Ten wins", "Win 10 games against people.", target=10),
    A("streak_3", "🔥", "Three wins in a row", "Win three games in a row.", computers=True, target=3),
    A("streak_5", "☄️", "Five wins in a row", "Win five games against people in a row.", target=5),
    A("all_games", "🗺", "All four games", "Finish a game of each of the four games.", computers=True, target=4),
    A("beat_hard", "🤖", "Beat the machine", "Win with a hard computer at the table.", computers=True),
    A("beat_three_hard", "🦾", "Three machines down", "Win against three hard computers at once.", computers=True),
    A("full_table", "👥", "Full table", "Finish a game with four people at the table."),
    A("giant_slayer", "📈", "Against the odds", "Beat a person rated 100 or more above you in a rated game."),
    A("shared_win", "🤝", "Shoulder to shoulder", "Share first place with another person."),
    A("rating_1600", "⭐", "Rating 1600", "Reach a rating of 1600 in a game.", computers=True),
    A("series_win", "🏆", "Series won", "Win a series, or share its first place."),
) + tuple(a for kit in kits() for a in kit.achievements)  # then each game's own (its kit's)
BY_CODE: dict[str, Achievement] = {a.code: a for a in CATALOGUE}


def signature() -> str:
    """What the catalogue decides, in a few letters: when it changes (an achievement added, a
    rule changed), the records are read again at the next start."""
    described = "|".join(f"{a.code}:{a.rule}:{a.game}:{a.computers}:{a.target}" for a in CATALOGUE)
    return hashlib.sha1(described.encode()).hexdigest()[:12]


def texts() -> list[str]:
    """Every name and rule (msgids passed to ``t`` through this catalogue)."""
    return [text for a in CATALOGUE for text in (a.name, a.rule)]
