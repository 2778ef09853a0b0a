"""A press's toast within Telegram's 200 characters: whole events, the newest kept, never half a
word (it read «…⁨Вика⁩ получает 2 призов…», «…достигает 18, бо…»)."""
from __future__ import annotations

import random
import re
from types import SimpleNamespace

from engines.replay import public_views
from bot.words.format import ELLIPSIS, TOAST_LIMIT, TOAST_MARK, at_word, toast, utf16_len
from bot.words.names import FSI, PDI, in_plain
from tests.bot.harness import Player, press_until_over, start_game

GROUP = -100330
SEED = 2


def words_of(text: str) -> list[str]:
    """The words a reader sees: marks, isolates, the ellipsis and punctuation taken off."""
    bare = text.replace(FSI, " ").replace(PDI, " ").replace(ELLIPSIS, " ").replace(TOAST_MARK.strip(), " ")
    return [w for w in (re.sub(r"^\W+|\W+$", "", w) for w in bare.split()) if w]


def assert_fitted(shown: str, lines: list[str]) -> None:
    """``shown`` fits, its isolates are balanced, and each of its words is a whole word of the lines."""
    assert utf16_len(shown) <= TOAST_LIMIT, shown
    assert shown.count(FSI) == shown.count(PDI), shown
    assert shown.startswith(TOAST_MARK)
    whole = set(words_of(" ".join(lines)))
    assert set(words_of(shown)) <= whole, (set(words_of(shown)) - whole, shown)


def test_what_fits_is_shown_whole():
    lines = [f"{in_plain('Вика')} тянет 🔵 синий: совпадение!"]
    assert toast(lines) == TOAST_MARK + lines[0]


def test_too_many_events_keep_the_newest_whole_in_their_order():
    name = in_plain("Виктория Константиновна Лебедева-Голенищева")
    lines = [f"{name} забирает 🔵 3 синих, 🔴 2 красных.", f"⭐ {name}: 🔵 синий собран!",
             f"⭐ {name}: 🔴 красный собран!", f"{name} получает 2 призовых хода!"]
    shown = toast(lines)
    assert utf16_len(" ".join(lines)) > TOAST_LIMIT
    assert_fitted(shown, lines)
    assert shown.startswith(TOAST_MARK + ELLIPSIS + " ") and shown.endswith(lines[-1])
    kept = shown[len(TOAST_MARK + ELLIPSIS + " "):]
    assert any(kept == " ".join(lines[k:]) for k in range(1, len(lines)))


def test_one_event_too_long_ends_at_a_word_outside_a_name():
    name = in_plain("Александра " * 5)
    line = f"{name} тянет 🔵 синий: его уже нет в центре. Осечка! {name} отдаёт в центр 5 жетонов, а потом ещё говорит"
    shown = toast([line])
    assert_fitted(shown, [line])
    assert shown.endswith(ELLIPSIS) and not shown.endswith(" " + ELLIPSIS)
    body = shown[len(TOAST_MARK):-1]
    assert line.startswith(body) and line[len(body)] == " "  # cut where a word ends


def test_a_single_endless_word_is_cut_with_its_isolate_closed():
    shown = at_word(FSI + "Ж" * 300 + PDI + " ходит", 50)
    assert utf16_len(shown) <= 50 and shown.count(FSI) == shown.count(PDI) and shown.endswith(PDI + ELLIPSIS)


def test_every_fitted_toast_keeps_the_rules():
    """Random stories of every length: within the limit, balanced, whole words only."""
    rng = random.Random(33)
    vocabulary = ["тянет", "🔵", "синий:", "совпадение!", "Осечка!", "жетон", "уходит", "в", "центр.",
                  "достигает", "18,", "бонусный", "ход!", "—", "12345678901234567890"]
    for _ in range(400):
        lines = []
        for _ in range(rng.randint(1, 6)):
            name = in_plain(" ".join(rng.choice(["Вика", "Anna", "Борис", "Ｄａｎ", "Катерина Великая"])
                                     for _ in range(rng.randint(1, 12))))
            words = [rng.choice(vocabulary) for _ in range(rng.randint(1, 40))]
            words.insert(rng.randint(0, len(words)), name)
            lines.append(" ".join(words))
        assert_fitted(toast(lines), lines)


async def test_no_toast_of_a_long_game_ends_inside_a_word(fake, runner, monkeypatch):
    """Two players with names of Telegram's longest play 40 moves of «Совершенно гениально» by
    buttons: every toast fits, and is made of whole words of what happened."""
    fake.add_group(GROUP, "Toasts")
    # A known game (the lobby draws its seed from the system): one whose banks complete colours.
    monkeypatch.setattr("bot.lobby.lobby.random", SimpleNamespace(SystemRandom=lambda: random.Random(SEED)))
    long_names = ["Виктория Константиновна Лебедева-Голенищева-Кутузова из Петербурга",
                  "Александр Александрович Македонский-Завоеватель Всего На Свете"]
    people = [Player(fake, runner, 1, long_names[0], lang="ru"), Player(fake, runner, 2, long_names[1], lang="ru")]
    for p in people:
        await p.start_private()
    game = await start_game(fake, runner, GROUP, "lucky", people)
    presses: list[str] = []
    await press_until_over(fake, runner, game.id, random.Random(5), presses, most=40)
    toasts = [(fake.callback_answer(q) or {}).get("text") or "" for q in presses]
    moves = [s for s in toasts if s.startswith(TOAST_MARK)]
    assert len(moves) > 20
    shortened = [s for s in moves if s.endswith(ELLIPSIS) or (TOAST_MARK + ELLIPSIS) in s]
    assert shortened, "the names were meant to make some toasts too long"
    # Every word shown is a whole word the game's story uses (names and the narration's words).
    story = set(words_of(" ".join(long_names)))
    match = await runner.bot.book.load(game.id)
    steps = public_views("lucky", 2, game.options, game.seed,
                         [(seat, code) for _, seat, code in await runner.store.actions(game.id)])
    ctx = match.ctx("ru")
    for step in steps:
        story |= {w for line in match.ui.story(ctx, step.events) for w in words_of(re.sub(r"<[^>]*>", "", line))}
    for shown in moves:
        assert utf16_len(shown) <= TOAST_LIMIT and shown.count(FSI) == shown.count(PDI), shown
        assert set(words_of(shown)) <= story, (set(words_of(shown)) - story, shown)
