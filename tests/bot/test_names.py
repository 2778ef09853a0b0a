"""Names a person can trust: a hostile Telegram name (or group title) cannot reverse the bot's
lines, forge one, smear it, vanish, pass for someone else, or become somebody else's link.

The unit tests hold ``bot.words.names`` to a corpus of hostile names; the end-to-end test plays a
4-player game of every kind with such names, in a group with a hostile title, and reads every
text, caption, toast and button the bot sent, as Telegram would show them (the fake finds
mentions, commands and links by itself, as Telegram does).
"""
from __future__ import annotations

import json
import random
import re
import unicodedata

import pytest

from bot.words.format import at_word, utf16_len
from bot.words.names import FSI, PDI, clean, in_plain, in_text, likeness, person_name, tell_apart
from tests.bot.harness import BotRunner, Player, press_until_over, start_game
from tests.bot.test_cli import run_bot
from tests.fakebotapi.autolinks import auto_entities
from tests.fakebotapi.htmlparse import parse_html

BIDI_CONTROLS = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u200e\u200f\u061c")
LINE_BREAKS = set("\n\r\u2028\u2029\u0085\x0b\x0c")

HOSTILE = [
    "Bob\u2069\u202exyz",  # closes the bot's isolate, then reverses the rest of the line
    "Ann\u202egnp.exe",
    "Eve\u2028🏆 Winner: Eve",  # a line of the bot's own
    "Zed" + "\u0301" * 63,  # zalgo
    "   ",  # blank
    "\u3164",  # a Hangul filler: a letter that draws nothing
    "\u200b\u200b\u200b",  # zero-width spaces
    "@vic_real",  # someone else's mention
    "see example.com",  # a link
    "/start@evil_bot",  # a command
    "#winner $USD",
    "<b>bold</b> & co",
    "🤖 Bot (hard)",  # a computer player
    "مرحبا\u202c",
    "Victor",
    "Viсtor",  # with a Cyrillic «с»
]


def _marks_run(text: str) -> int:
    run = most = 0
    for ch in text:
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


@pytest.mark.parametrize("name", HOSTILE)
def test_a_clean_name_has_nothing_that_can_forge_a_line(name):
    shown = clean(name)
    assert not set(shown) & (BIDI_CONTROLS | LINE_BREAKS | {FSI, PDI, "\u200b"})
    assert _marks_run(shown) <= 2
    assert shown == shown.strip() and "  " not in shown and len(shown) <= 64
    assert shown == "" or any(unicodedata.category(c)[0] in "LNPS" for c in shown)
    assert clean(shown) == shown  # cleaning twice changes nothing (old names are cleaned again)


def test_what_stays_of_a_name():
    assert clean("Bob\u2069\u202exyz") == "Bobxyz"
    assert clean("Eve\u2028🏆 Winner: Eve") == "Eve 🏆 Winner: Eve"
    assert clean("Zed" + "\u0301" * 63) == unicodedata.normalize("NFC", "Zed\u0301\u0301")
    assert clean("   ") == clean("\u3164") == clean("\u200b\u200b") == ""
    # What a name needs stays: Vietnamese marks, emoji joined by ZWJ, a flag of tags, Persian ZWNJ.
    for fine in ("Nguyễn Thị Ánh", "👨\u200d👩\u200d👧 family", "🏴\U000e0067\U000e0062\U000e0073\U000e0063"
                 "\U000e0074\U000e007f Ian", "می\u200cخواهم", "Анна-Мария", "李小龍"):
        assert clean(fine) == unicodedata.normalize("NFC", fine)


def test_a_long_name_is_cut_at_a_word_and_says_so():
    """Telegram allows 64 characters for a first name and 64 for a last one; shown, a name has
    at most 64, and a cut one ends with «…» after a whole word, never inside a letter or emoji."""
    first, last = "Александр Сергеевич Пушкин-Гончаров", "Константинопольский-Петропавловский"
    assert person_name(first, last) == "Александр Сергеевич Пушкин-Гончаров…"
    assert clean("x" * 70) == "x" * 63 + "…"
    assert clean("Anna " + "x" * 70) == "Anna " + "x" * 58 + "…"  # a space too early to cut at
    family, flag, toned = "👨\u200d👩\u200d👧", "🇷🇺", "👍🏽"
    for tail in (family, flag, toned):
        for pad in range(56, 64):
            shown = clean("a" * pad + tail + "z" * 10)
            assert len(shown) <= 64 and shown.endswith("…") and clean(shown) == shown
            assert shown[pad:-1] == "" or shown[pad:-1].startswith(tail), (pad, tail, shown)  # whole or gone
    assert clean("a" * 61 + flag + "zz") == "a" * 61 + flag + "…"
    assert clean("a" * 62 + flag + "zz") == "a" * 62 + "…"  # not half a flag
    assert clean("Victor " * 10) == ("Victor " * 10)[:63].rsplit(" ", 1)[0] + "…"


def test_a_name_falls_back_to_what_shows_something():
    assert person_name("Anna", "Ivanova", "anna") == "Anna Ivanova"
    assert person_name("\u3164", "Smith", None) == "Smith"
    assert person_name("Bob", "\u202e", None) == "Bob"
    assert person_name("  ", None, "bobby") == "bobby"
    assert person_name("\u200b", "\u3164", None) == ""


def test_names_that_look_alike_are_told_apart():
    assert tell_apart(["Victor", "Victor"]) == ["Victor", "Victor (2)"]
    assert tell_apart(["Victor", "Viсtor", "VICTOR "]) == ["Victor", "Viсtor (2)", "VICTOR (3)"]
    assert tell_apart(["Victor (2)", "Victor", "Victor"]) == ["Victor (2)", "Victor", "Victor (3)"]
    # A person who calls himself like a computer seat gives way to it.
    assert tell_apart(["🤖 Bot (hard)", "🤖 Bot (hard)"], [False, True]) == ["🤖 Bot (hard) (2)", "🤖 Bot (hard)"]
    assert likeness("Аnnа") == likeness("Anna")  # Cyrillic «А» and «а» look Latin
    assert tell_apart(["Anna", "Boris"]) == ["Anna", "Boris"]


@pytest.mark.parametrize("name", HOSTILE + ["https://t.me/evil?x=1", "mail me: a@b.org", "t.me/joinchat/x"])
def test_a_name_in_a_text_is_never_a_link(name):
    plain, entities = parse_html("🏆 " + in_text(name) + " wins: /help")
    assert not [e for e in auto_entities(plain, entities) if e["offset"] < len(plain.split(" wins")[0])]
    assert plain.count(FSI) == plain.count(PDI) == 1  # the isolate cannot be closed from inside
    assert not set(in_plain(name)) & BIDI_CONTROLS


# ---- end to end: one 4-player game of each kind with hostile names -------------------------------

NAMED = {  # first name, last name, username
    "lucky": [("Bob\u2069\u202exyz", None, None), ("Eve\u2028🏆 Winner: Eve", None, None),
              ("@vic_real", None, None), ("Victor", None, None)],
    "cones": [("Ann\u202egnp.exe", None, None), ("Zed" + "\u0301" * 63, None, None),
              ("   ", None, None), ("Victor", None, None)],
    "genial": [("\u3164", "Smith", None), ("see example.com", None, None), ("/start@evil_bot", None, None),
               ("<b>bold</b> & co", None, None)],
    "trio": [("Victor", None, None), ("Viсtor", None, None), ("\u200b\u200b", None, "zw_user"),
             ("🤖 Bot (hard)", None, None)],
}
TITLES = {"lucky": "Group\u202e spilled", "cones": "T\u2028🏆 itle", "genial": "<i>x</i> & y", "trio": "join t.me/evil"}


def _isolated_spans(plain: str) -> list[tuple[int, int]]:
    """(start, end) in UTF-16 units of every isolate in ``plain``; asserts they nest properly."""
    spans, opened, pos = [], [], 0
    for ch in plain:
        if ch == FSI:
            opened.append(pos)
        elif ch == PDI:
            assert opened, f"an isolate closed that was never opened: {plain!r}"
            spans.append((opened.pop(), pos))
        pos += len(ch.encode("utf-16-le")) // 2
    assert not opened, f"an isolate left open: {plain!r}"
    return spans


def _shown(fake) -> list[tuple[str, list[dict], str]]:
    """Every text the bot had shown: (plain text, entities, what it was)."""
    out = []
    for r in fake.calls():
        if not r.ok:
            continue
        p = r.params
        for key in ("text", "caption"):
            if isinstance(p.get(key), str):
                if p.get("parse_mode"):
                    plain, entities = parse_html(p[key])
                else:
                    plain, entities = p[key], []
                out.append((plain, entities + auto_entities(plain, entities), r.method))
        markup = p.get("reply_markup")
        if isinstance(markup, str):
            markup = json.loads(markup)
        for row in (markup or {}).get("inline_keyboard", []):
            for b in row:
                out.append((b["text"], [], "button"))
    return out


@pytest.mark.parametrize("kind", ["lucky", "cones", "genial", "trio"])
async def test_a_game_of_hostile_names_shows_every_name_plainly(fake, tmp_path, kind):
    runner = await BotRunner(fake, tmp_path / "names.sqlite3").start()
    try:
        chat = -4200
        fake.add_group(chat, TITLES[kind])
        people = []
        for k, (first, last, username) in enumerate(NAMED[kind]):
            p = Player(fake, runner, 4201 + k, first)
            fake.add_user(p.id, first, last_name=last, username=username)
            await p.start_private()
            people.append(p)
        game = await start_game(fake, runner, chat, kind, people)
        assert await press_until_over(fake, runner, game.id, random.Random(7))
        await runner.idle(timeout=60)
        game = await runner.game(game.id)

        # Nobody blank, nobody like another, each the cleaned Telegram name (or «Player N»).
        names = [s.name for s in game.seats]
        assert all(clean(n) == n != "" for n in names), names
        assert len({likeness(n) for n in names}) == len(names), names
        telegram = {4201 + k: person_name(*named) for k, named in enumerate(NAMED[kind])}
        assert all(s.name.startswith(telegram[s.user_id] or "Player ") for s in game.seats), names

        refused = [(r.method, r.description) for r in fake.calls() if not r.ok and r.method != "getUpdates"]
        assert refused == []
        shown = _shown(fake)
        assert shown
        for plain, entities, what in shown:
            assert not set(plain) & BIDI_CONTROLS, (what, plain)  # no right-to-left spill
            assert not set(plain) & (LINE_BREAKS - {"\n"}), (what, plain)  # no line from a name
            assert not re.search(r"\n\W*🏆 Winner: Eve", plain), (what, plain)
            assert _marks_run(plain) <= 2, (what, plain)  # no zalgo
            assert FSI + PDI not in plain and "\u2068 \u2069" not in plain, (what, plain)  # no blank name
            for start, end in _isolated_spans(plain):  # a name is never a live link
                live = [e for e in entities if e["type"] not in ("bold", "italic", "underline", "text_mention",
                                                               "blockquote", "spoiler", "code", "pre")
                        and e["offset"] < end and start < e["offset"] + e["length"]]
                assert not live, (what, plain, live)
        # The title and the names appear where they should, in their cleaned form.
        texts = "\n".join(plain for plain, _, _ in shown)
        for n in names:
            assert n in texts.replace("\u2060", ""), n
    finally:
        await runner.stop()


async def test_status_keeps_one_line_per_game_whatever_a_stored_name_holds(fake, tmp_path):
    """A name stored before names were cleaned (or a title) with U+2028 in it: ``python -m bot
    status`` still writes one JSON line per game."""
    db = tmp_path / "db.sqlite3"
    runner = await BotRunner(fake, db).start()
    fake.add_group(-5, "G")
    anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")
    game = await start_game(fake, runner, -5, "lucky", [anna, boris])
    match = await runner.bot.book.load(game.id)
    match.game.seats[0].name = "Ann\u2028a\u2029"
    await runner.store.save_game(match.game, seats_changed=True)
    await runner.stop()
    result = run_bot(["status"], {"TABLEBOT_DB": str(db)})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()  # str.splitlines splits at U+2028 too
    assert len(lines) == 1 and "Ann\u2028a\u2029" in json.loads(lines[0])["players"]


def test_a_cut_pop_up_closes_the_name_it_cut():
    """Every pop-up the messenger sends is fitted so (200 UTF-16 units: an emoji counts two)."""
    name = in_plain("Boris Godunov, Tsar of all Rus")
    text = "✓ " + "a move, " * 22 + name + " and the rest of the line"
    short = at_word(text, 200)
    assert utf16_len(short) <= 200 and short.endswith("move…") and name not in short  # not inside the name
    assert at_word("short", 200) == "short"
    long_name = in_plain("Boris " * 40)
    for opened_at_the_cut in ("x " * 90 + long_name, "🟢 " * 60 + long_name):
        short = at_word(opened_at_the_cut, 200)
        assert utf16_len(short) <= 200 and short.endswith("…") and FSI + PDI not in short, short
        assert short.count(FSI) == short.count(PDI) and _isolated_spans(short) == [], short
