"""Every text the bot can show exists in Russian, and placeholders survive translation."""
from __future__ import annotations

import pathlib
import re

import pytest
from babel.messages.extract import extract_from_dir

from bot.i18n import _catalog, nt, t

ROOT = pathlib.Path(__file__).resolve().parents[2] / "bot"
KEYWORDS = {"t": (2,), "nt": (2, 3)}


def used_messages():
    """(msgid or (singular, plural), file) for every t(lang, "...") / nt(lang, "...", "...") call."""
    found = []
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT), method_map=[("**.py", "python")], keywords=KEYWORDS):
        if isinstance(message, tuple):
            message = tuple(m for m in message if m is not None)
            if len(message) == 1:
                message = message[0]
        if message:
            found.append((message, f"{filename}:{lineno}"))
    return found


def constant_messages():
    """Texts passed to t() through a constant (colour names, option labels, rules)."""
    from bot.games.colours import NAMES
    from bot.texts import OPTION_LABELS
    out = list(NAMES.values())
    for label, hint in OPTION_LABELS.values():
        out += [label, hint]
    for module in ("lucky", "cones", "genial", "trio"):
        try:
            mod = __import__(f"bot.games.{module}", fromlist=["UI"])
        except ImportError:
            continue
        out += [v for k, v in vars(mod).items() if k.endswith("_RULES") and isinstance(v, str)]
    from bot.app import COMMANDS
    out += [text for _, text in COMMANDS]
    return out


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_every_message_has_a_russian_translation():
    cat = _catalog("ru")
    missing = []
    for message, where in used_messages():
        if isinstance(message, tuple):
            if tuple(message) not in cat.plural:
                missing.append(f"{where}: {message[0]!r}")
        elif message not in cat.singular:
            missing.append(f"{where}: {message!r}")
    for message in constant_messages():
        if message not in cat.singular:
            missing.append(f"constant: {message!r}")
    assert not missing, "untranslated:\n" + "\n".join(missing)


def test_translations_keep_placeholders_and_html():
    cat = _catalog("ru")
    for msgid, text in cat.singular.items():
        assert placeholders(msgid) == placeholders(text), msgid
        assert re.findall(r"</?\w+", msgid).sort() == re.findall(r"</?\w+", text).sort(), msgid
    for (one, many), forms in cat.plural.items():
        assert len(forms) == 3, one
        for form in forms:
            assert placeholders(form) <= placeholders(one) | placeholders(many) | {"n"}, one


def test_russian_plurals_follow_russian_grammar():
    assert nt("ru", "{n} token goes to the centre.", "{n} tokens go to the centre.", 1) == "1 жетон уходит в центр."
    assert nt("ru", "{n} token goes to the centre.", "{n} tokens go to the centre.", 3) == "3 жетона уходят в центр."
    assert nt("ru", "{n} token goes to the centre.", "{n} tokens go to the centre.", 5) == "5 жетонов уходят в центр."
    assert nt("en", "{n} token goes to the centre.", "{n} tokens go to the centre.", 1) == "1 token goes to the centre."


def test_unknown_language_falls_back_to_english():
    assert t("en", "This game is over.") == "This game is over."
    assert t("ru", "This game is over.") != "This game is over."


@pytest.mark.parametrize("code,lang", [("ru", "ru"), ("ru-RU", "ru"), ("uk", "ru"), ("en-GB", "en"),
                                       ("de", "en"), (None, "en"), ("", "en")])
def test_language_codes_map_to_catalogues(code, lang):
    from bot.i18n import normalize_lang
    assert normalize_lang(code) == lang
