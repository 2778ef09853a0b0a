"""Every text the bot can show exists in Russian, and placeholders survive translation."""
from __future__ import annotations

import pathlib
import re

import pytest
from babel.messages.extract import extract_from_dir

from tests import catalogues
from bot.words.i18n import nt, pt, t

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
    from bot.games import kits
    from bot.words.texts import OPTION_LABELS
    out = list(NAMES.values()) + [kit.blurb for kit in kits()] + [kit.tag for kit in kits()]
    for label, hint in OPTION_LABELS.values():
        out += [label, hint]
    for module in ("lucky", "cones", "genial", "trio"):
        try:
            mod = __import__(f"bot.games.{module}.ui", fromlist=["UI"])
        except ImportError:
            continue
        out += [v for k, v in vars(mod).items() if k.endswith("_RULES") and isinstance(v, str)]
    from bot.updates import router
    out += [text for command in router.commands() for text in (*command.menus.values(), *command.help.values())]
    from bot.ops.owner import NOTICE
    out += [NOTICE]
    from bot.records.achievements.catalogue import texts
    from bot.records.calendar import MONTHS
    out += texts() + list(MONTHS)
    return out


def labelled_messages():
    """(msgctxt, msgid) of the texts shown with a context: the pictures' labels (each drawing
    module's LABELS, under ``picture:<game>``; the replay's band under ``picture``)."""
    import importlib.util

    from bot.games import kits
    out = [("picture", msgid) for msgid in importlib.import_module("render.replay").LABELS.values()]
    for kit in kits():
        if importlib.util.find_spec(f"render.{kit.id}") is None:
            continue  # a game from elsewhere (a test's toy game) draws elsewhere
        drawing = importlib.import_module(f"render.{kit.id}")
        out += [(f"picture:{kit.id}", msgid) for msgid in drawing.LABELS.values()]
    return out


class PoCatalog:
    """The Russian texts as the bot read them from the .po files before they were compiled
    (Babel at run time): fuzzy, untranslated and incomplete plural entries left out."""

    def __init__(self, lang: str):
        import gettext

        from babel.messages.pofile import read_po
        self.singular: dict[str, str] = {}
        self.plural: dict[tuple[str, str], list[str]] = {}
        self.contexted: dict[tuple[str, str], str] = {}  # (msgctxt, msgid) → text
        for path in sorted((ROOT / "words" / "locales" / lang / "LC_MESSAGES").glob("*.po")):
            with path.open("rb") as fh:
                cat = read_po(fh, locale=lang)
            self.plural_fn = gettext.c2py(cat.plural_expr)
            for message in cat:
                if not message.id or message.fuzzy:
                    continue
                if isinstance(message.id, tuple):
                    if all(message.string):
                        self.plural[(message.id[0], message.id[1])] = list(message.string)
                elif message.string and message.context:
                    self.contexted[(message.context, message.id)] = message.string
                elif message.string:
                    self.singular[message.id] = message.string

    def t(self, msgid: str) -> str:
        return self.singular.get(msgid, msgid)

    def pt(self, context: str, msgid: str) -> str:
        return self.contexted.get((context, msgid), msgid)

    def nt(self, singular: str, plural: str, n: int) -> str:
        forms = self.plural.get((singular, plural))
        return forms[self.plural_fn(n)] if forms else (singular if n == 1 else plural)


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_every_compiled_catalogue_is_up_to_date_with_its_po():
    """The bot reads the .mo files: a .po edited (or merged) without recompiling would show the
    old texts."""
    behind = [f"{po.with_suffix('.mo').relative_to(ROOT.parent)} is out of date with {po.name}"
              for po in catalogues.stale()]
    assert not behind, "\n".join(behind) + "\nrecompile: python -m tests.catalogues"


def test_the_compiled_catalogues_read_as_the_po_files_did():
    """Every msgid, every plural form: the same text through gettext (.mo) as through Babel (.po)."""
    po = PoCatalog("ru")
    msgids = set(po.singular) | {""}  # and every t() call: one passing a plural's msgid would now differ
    msgids |= {m for m, _ in used_messages() if isinstance(m, str)} | set(constant_messages())
    differ = [m for m in sorted(msgids) if t("ru", m) != po.t(m)]
    differ += [f"{c}: {m}" for c, m in sorted(set(po.contexted) | set(labelled_messages()))
               if pt("ru", c, m) != po.pt(c, m)]
    plurals = set(po.plural) | {tuple(m[:2]) for m, _ in used_messages() if isinstance(m, tuple)}
    for one, many in sorted(plurals):
        names = placeholders(one) | placeholders(many) | placeholders("".join(po.plural.get((one, many), [])))
        kw = {name: f"<{name}>" for name in names - {"n"}}
        differ += [f"{one} (n={n})" for n in range(0, 223)
                   if nt("ru", one, many, n, **kw) != po.nt(one, many, n).format(n=n, **kw)]
    assert len(po.singular) > 300 and len(po.plural) > 20  # the comparison saw the catalogues
    assert not differ, "\n".join(differ)


def test_every_message_has_a_russian_translation():
    cat = PoCatalog("ru")
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
    missing += [f"{context}: {message!r}" for context, message in labelled_messages()
                if (context, message) not in cat.contexted]
    assert not missing, "untranslated:\n" + "\n".join(missing)


def test_translations_keep_placeholders_and_html():
    cat = PoCatalog("ru")
    for msgid, text in [*cat.singular.items(), *((m, text) for (_, m), text in cat.contexted.items())]:
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
    from bot.words.i18n import normalize_lang
    assert normalize_lang(code) == lang


# ---- every plural form, one translation per msgid, no raw option keys ------------------------

LOCALES = ROOT / "words" / "locales" / "ru" / "LC_MESSAGES"


def russian_catalogues():
    from babel.messages.pofile import read_po
    out = {}
    for path in sorted(LOCALES.glob("*.po")):
        with path.open("rb") as fh:
            out[path.name] = read_po(fh, locale="ru")
    return out


def test_every_plural_message_has_all_three_russian_forms():
    """Russian needs three forms (1 жетон, 2 жетона, 5 жетонов): an entry with a form missing
    would silently fall back to English, so every plural entry and every nt() call must have all three."""
    problems = []
    plural_entries = {}
    for name, cat in russian_catalogues().items():
        assert cat.num_plurals == 3, name
        for message in cat:
            if isinstance(message.id, tuple):
                forms = list(message.string)
                plural_entries[tuple(message.id[:2])] = forms
                if len(forms) != 3 or not all(forms) or message.fuzzy:
                    problems.append(f"{name}: {message.id[0]!r} has forms {forms}")
    for message, where in used_messages():
        if isinstance(message, tuple) and tuple(message[:2]) not in plural_entries:
            problems.append(f"{where}: nt({message[0]!r}, ...) has no Russian plural entry")
    assert not problems, "\n".join(problems)


def test_a_message_in_several_catalogues_has_one_translation():
    """The adapters share a few texts (bot/games/base.py) that each game catalogue carries: they must agree."""
    seen: dict[object, tuple[str, object]] = {}
    clashes = []
    for name, cat in russian_catalogues().items():
        for message in cat:
            if not message.id:
                continue
            key = (message.context, message.id if isinstance(message.id, str) else tuple(message.id))
            if key in seen and seen[key][1] != message.string:
                clashes.append(f"{key!r}: {seen[key][0]} and {name} differ")
            seen.setdefault(key, (name, message.string))
    assert not clashes, "\n".join(clashes)


def _sample_games():
    """(kind, options, players) covering every option of every game, each switched on once."""
    from engines import registry
    out = []
    for info in registry.all_infos():
        out.append((info.id, {}, info.min_players + 1 if info.max_players > info.min_players else info.min_players))
        for opt in info.options:
            if opt.kind != "bool":
                continue
            players = (opt.players or (info.min_players,))[-1]
            out.append((info.id, {opt.key: True}, max(players, info.min_players)))
    return out


def _texts_people_read(lang: str) -> list[tuple[str, str]]:
    """(where, text) for the texts a person reads in one language: rules, option labels and hints,
    the narration of whole sample games, tables along the way, results and private results."""
    import random
    from types import SimpleNamespace

    from bot.games import kit_for
    from bot.games.base import Ctx
    from bot.storage.store import Seat
    from bot.words.texts import option_hint, option_label
    from engines import registry
    from engines.base import event_dict, options_from_dict

    texts = []
    for info in registry.all_infos():
        texts.append((f"{info.id} rules", kit_for(info.id).ui.rules(lang)))
        for opt in info.options:
            texts.append((f"{info.id} option {opt.key}", option_label(opt.key, lang) + " " + option_hint(opt.key, lang)))
    for kind, options, players in _sample_games():
        eng, ui = registry.engine(kind), kit_for(kind).ui
        state = eng.setup(players, options_from_dict(eng.Options, options), 7)
        rng = random.Random(7)
        seats = [Seat(i, i + 1, name) for i, name in enumerate(["Анна", "Bob", "Дима", "Clara"][:players])]
        game = SimpleNamespace(seats=seats, last_events=[], short_id="z9", status="running", kind=kind)

        def ctx():
            return Ctx(game=game, eng=eng, state=state, lang=lang, bot_username="tablebot")
        where = f"{kind} {options or ''}"
        moves = 0
        while eng.current_player(state) is not None:
            seat = eng.current_player(state)
            state, new = eng.apply(state, seat, rng.choice(eng.legal_actions(state, seat)))
            game.last_events = [event_dict(e) for e in new]
            texts += [(f"{where} narration", line) for line in ui.story(ctx(), game.last_events)]
            if moves % 10 == 0:
                texts.append((f"{where} table", ui.table(ctx()).text))
                private = ui.private(ctx(), eng.current_player(state) or 0) if eng.current_player(state) is not None else None
                if private is not None:
                    texts.append((f"{where} private", private.text))
            moves += 1
        game.status = "finished"
        texts.append((f"{where} results", ui.results(ctx())))
        texts += [(f"{where} private result", ui.private_result(ctx(), s) or "") for s in range(players)]
    return texts


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_raw_option_key_reaches_a_text_people_read(lang):
    """Options are named by their lobby labels («Not the same pile»), never by their keys
    (``no_same_pile``): keys with an underscore nowhere, and in Russian no key at all."""
    from engines import registry
    keys = sorted({opt.key for info in registry.all_infos() for opt in info.options})
    pattern = re.compile(r"\b(" + "|".join(re.escape(k) for k in keys
                                          if lang == "ru" or "_" in k) + r")\b")
    leaks = [f"{where}: {m.group(0)!r} in {text[:120]!r}" for where, text in _texts_people_read(lang)
             for m in [pattern.search(text)] if m]
    assert not leaks, "\n".join(leaks)


def test_a_cancelled_game_says_so_and_asks_nothing():
    from types import SimpleNamespace

    from bot.games import kit_for
    from bot.games.base import Ctx
    from bot.storage.store import Seat
    from engines import registry
    for info in registry.all_infos():
        eng, ui = registry.engine(info.id), kit_for(info.id).ui
        for lang, words in (("en", "This game was cancelled."), ("ru", "Игра отменена")):
            game = SimpleNamespace(seats=[Seat(i, i + 1, f"P{i}") for i in range(2)], last_events=[],
                                   short_id="z9", status="cancelled", kind=info.id)
            ctx = Ctx(game=game, eng=eng, state=eng.setup(2, None, 1), lang=lang, bot_username="tablebot")
            view = ui.table(ctx)
            assert view.text.endswith(words) or view.text.endswith(words + "."), view.text
            assert not [b for row in view.rows for b in row if b.action], (info.id, view.rows)
            assert ui.private_result(ctx, 0) is None


def test_no_text_in_another_script_outside_the_catalogues():
    """What a person reads in another language is a catalogue's: no Cyrillic in the code or the
    page's scripts (a homoglyph table or a regular expression writes its letters as escapes)."""
    cyrillic = re.compile("[\u0400-\u052f]")
    found = [f"{path.relative_to(ROOT.parent)}:{n}" for folder in ("bot", "engines", "render", "bench")
             for path in sorted((ROOT.parent / folder).rglob("*")) if path.suffix in (".py", ".js")
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if cyrillic.search(line)]
    assert not found, found
