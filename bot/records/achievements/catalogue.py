"""The achievements: each with a code (kept in the store: never renamed), an icon, a name and a
one-line rule (English msgids: the Russian is in the catalogues, a game's own in its game's),
the game it belongs to (None: any game), whether games with a computer at the table count for it
(/achievements marks those with 🤖; the others count games among people only) and, where it
counts something, the count to reach.

Who decides each: ``bot/records/achievements/ledger.py`` (a person's games one after another, and
one game's record) and ``bot/records/achievements/plays.py`` (what happened in one game). A new
achievement is one line here and its rule there; the records already kept count for it at the
next start, without a word in any group (``keeper.py``).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from bot.words.i18n import t

FOUR = ("lucky", "cones", "genial", "trio")  # the four games «all four games» asks for


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


A = Achievement
CATALOGUE: tuple[Achievement, ...] = (
    # ---- every game ------------------------------------------------------------------------
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
    # ---- lucky -------------------------------------------------------------------------------
    A("lucky_full_hand", "🍀", "Full hand", "Bank a zone of five colours or more.", "lucky", computers=True),
    A("lucky_big_haul", "💰", "Big haul", "Bank 10 tokens or more into your collection at once.", "lucky",
      computers=True),
    A("lucky_every_colour", "🌈", "Every colour", "Win by completing every colour.", "lucky", computers=True),
    A("lucky_double_bonus", "🎁", "Double prize", "Earn two bonus turns at once.", "lucky", computers=True),
    # ---- cones -------------------------------------------------------------------------------
    A("cones_three_towers", "🔺", "Three towers", "End a game with three towers of your goal colour topped by your "
                                                 "own chips.", "cones", computers=True),
    A("cones_pairs", "🧹", "Pair after pair", "Send two chips out of the game three times in one game.", "cones",
      computers=True),
    A("cones_poker_face", "🎭", "Poker face", "Win without playing a single chip of your goal colour.", "cones",
      computers=True),
    A("cones_landslide", "🏔", "Landslide", "Win with four towers or more, at least twice as many as anyone else.",
      "cones", computers=True),
    # ---- genial ------------------------------------------------------------------------------
    A("genial_chain", "✨", "Ingenious!", "Earn a bonus placement with a bonus placement: two «Ingenious!» in a "
                                          "chain.", "genial", computers=True),
    A("genial_instant", "🌟", "Instant win", "Win at once: all six colours at the end of the track.", "genial",
      computers=True),
    A("genial_new_rack", "🔄", "New rack", "Swap your rack and still win.", "genial", computers=True),
    A("genial_balance", "⚖️", "Balance", "End a game without teams with 14 points or more in every colour.",
      "genial", computers=True),
    # ---- trio --------------------------------------------------------------------------------
    A("trio_no_draw", "🎯", "No draws", "Win without drawing a tile from the reserve.", "trio", computers=True),
    A("trio_double_set", "✌️", "Double set", "Lay a tile that forms two sets at once.", "trio", computers=True),
    A("trio_runaway", "🚀", "Runaway", "Win while everyone else still holds three tiles or more.", "trio",
      computers=True),
)
BY_CODE: dict[str, Achievement] = {a.code: a for a in CATALOGUE}


def signature() -> str:
    """What the catalogue decides, in a few letters: when it changes (an achievement added, a
    rule changed), the records are read again at the next start."""
    described = "|".join(f"{a.code}:{a.rule}:{a.game}:{a.computers}:{a.target}" for a in CATALOGUE)
    return hashlib.sha1(described.encode()).hexdigest()[:12]


def texts() -> list[str]:
    """Every name and rule (msgids passed to ``t`` through this catalogue)."""
    return [text for a in CATALOGUE for text in (a.name, a.rule)]
