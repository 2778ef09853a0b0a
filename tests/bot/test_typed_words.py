"""What people type in another language than English reads as its English: the words come from
the catalogues (msgctxt "typed"), so that a new language's catalogue brings its own (``/new
конусы боты=2 уровень=сложный``, ``/notify выкл``, ``/turntimer нет``); /lang offers every
language of the catalogues, each by its own name."""
from __future__ import annotations

from bot.words.i18n import LANGS, language_name
from tests.bot.harness import Player, buttons

GROUP = -1002700


async def test_computers_typed_in_russian_sit_at_the_table(fake, runner):
    fake.add_group(GROUP, "По-русски")
    anna = Player(fake, runner, 1, "Anna", lang="ru")
    await anna.start_private()
    await anna.say(GROUP, "/new конусы боты=2 уровень=сложный")
    await anna.say(anna.id, "/new трио роботы=1 уровень=легкий")  # е for ё: as people type it
    games = {g.chat_id: g for g in await runner.games()}
    assert [s.level for s in games[GROUP].seats if s.is_computer] == ["hard", "hard"]
    assert (games[GROUP].kind, games[anna.id].kind) == ("cones", "trio")
    assert [s.level for s in games[anna.id].seats if s.is_computer] == ["easy"]
    await anna.say(anna.id, "/cancel")
    await anna.say(anna.id, "/new трио уровень=гений")
    assert "easy, normal" not in fake.last_bot_message(anna.id).text  # refused, in Russian
    assert not [g for g in await runner.games() if g.chat_id == anna.id and g.is_open]


async def test_pings_and_the_turn_timer_switched_off_in_russian(fake, runner):
    fake.add_group(GROUP, "По-русски", admins=list(range(1, 12)))
    people = iter(Player(fake, runner, i, f"P{i}") for i in range(1, 12))  # (a few commands each: no flood guard)
    anna = next(people)
    await anna.start_private()
    await anna.say(anna.id, "/notify выкл")
    assert fake.last_bot_message(anna.id).text.startswith("🔕")
    await anna.say(anna.id, "/notify ВКЛ")
    assert fake.last_bot_message(anna.id).text.startswith("🔔")
    for off in ("нет", "выкл", "off", "0"):
        await next(people).say(GROUP, "/turntimer 3")
        assert fake.last_bot_message(GROUP).text == "A move may now take 3 minutes."
        await next(people).say(GROUP, f"/turntimer {off}")
        assert fake.last_bot_message(GROUP).text == "The turn timer is off: players take as long as they like.", off


async def test_lang_offers_each_language_by_its_own_name(fake, runner):
    anna = Player(fake, runner, 1, "Anna")
    await anna.start_private()
    await anna.say(anna.id, "/lang")
    offered = [b["text"] for b in buttons(fake.last_bot_message(anna.id))]
    assert offered == [language_name(lang) for lang in LANGS] and offered[:2] == ["English", "Русский"]
