"""Captions stay within Telegram's limit however long the names and the story get."""
from __future__ import annotations

from bot.words.format import CAPTION_BUDGET, fit_caption, plain_len
from bot.words.names import in_text


def test_plain_len_counts_what_telegram_shows():
    assert plain_len("<b>a&amp;b</b>") == 3
    assert plain_len("🎲") == 2  # one emoji is two UTF-16 units


def test_the_oldest_story_lines_go_first():
    story = [f"line {i} " + "x" * 200 for i in range(10)]
    text = fit_caption(["<b>head</b>"], story, ["tail"])
    assert plain_len(text) <= CAPTION_BUDGET
    assert text.startswith("<b>head</b>\n") and text.endswith("\ntail")
    assert "line 9" in text and "line 0" not in text
    kept = [line for line in story if line in text]
    assert kept == story[-len(kept):] and len(kept) >= 3


def test_at_most_six_story_lines_even_when_short():
    text = fit_caption([], [str(i) for i in range(10)], [])
    assert text.split("\n") == [str(i) for i in range(4, 10)]


def test_a_head_too_long_by_itself_falls_back_to_cut_plain_text():
    names = [in_text("<Очень длинное имя> & 🎉" * 3)] * 20
    text = fit_caption(["<b>" + ", ".join(names) + "</b>"], ["story"], [])
    assert plain_len(text) <= CAPTION_BUDGET
    assert "<b>" not in text and "&lt;Очень" in text and text.endswith("…")
