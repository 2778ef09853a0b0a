"""What the group reads when a game is over: the results (the game's own words), each person's
rating change, what follows the game (a series' standings; ``bot/ending/after.py``), and the
results' buttons (🎞 the replay, and what follows offers: 🔁 a rematch).
Pure: a game, its record, its sequels and a language in; text and buttons out."""
from __future__ import annotations

from bot.ending.after import Sequel
from bot.outgoing import keyboard
from bot.outgoing.actions import REMATCH, REPLAY
from bot.outgoing.keyboard import Button
from bot.records import rating
from bot.storage.store import GameRecord
from bot.table.book import Match
from bot.words.i18n import t
from bot.words.names import in_text



def results_markup(short_id: str, lang: str, *, rematch: bool):
    """The results' buttons: 🎞 the replay of the game, and 🔁 a rematch until it is used."""
    return keyboard.markup(short_id, None, [[replay_button(lang)] + ([rematch_button(lang)] if rematch else [])])


def replay_button(lang: str) -> Button:
    return Button(t(lang, "🎞 Replay"), REPLAY(), turn_free=True)


def rematch_button(lang: str) -> Button:
    return Button(t(lang, "🔁 Rematch"), REMATCH(), turn_free=True)


def rating_lines(record: GameRecord | None, lang: str) -> str:
    """Each person's rating change ('' when the game was not rated)."""
    if record is None or not record.rated:
        return ""
    lines = [t(lang, "<b>Rating</b>")]
    for s in sorted(record.seats, key=lambda s: (s.place or 0, s.seat)):
        if s.after is None or s.before is None:
            continue
        lines.append(f"{in_text(s.name)}: {rating.shown(s.before, s.games - 1)} → "
                     f"{rating.shown(s.after, s.games)} ({s.after - s.before:+d})")
    if len(lines) == 1:
        return ""
    # (the figure before this game is provisional up to the game that makes it the fifth)
    if any(s.after is not None and s.games - 1 < rating.PROVISIONAL_GAMES for s in record.seats):
        lines.append(rating.provisional_note(lang))
    return "\n".join(lines)


def results_message(match: Match, lang: str, record: GameRecord | None, sequels: tuple[Sequel, ...] = ()):
    """The results message: its text and buttons, with what follows the game."""
    parts = [match.ui.results(match.ctx(lang)), rating_lines(record, lang)]
    parts += [sequel.words(lang) for sequel in sequels if sequel.words is not None]
    row = [replay_button(lang)] + [b for sequel in sequels if sequel.buttons is not None for b in sequel.buttons(lang)]
    return "\n\n".join(part for part in parts if part), keyboard.markup(match.game.short_id, None, [row])
