"""A fifth game needs nothing outside its own files: Sticks (``tests/toygame``: its engine,
computer players, picture, adapter, page moves and board) is added to the bot through the
registry (``bot.games.add``) and played to its end in a group by the table's buttons, and on the
Mini App's page in a real browser, then recorded and rated like any game."""
from __future__ import annotations

import random

import pytest

import bot.games
from engines import registry
from bot.words.texts import find_game
from tests.bot.browser import Phone, browser, web
from tests.bot.harness import Player, button_data, press_until_over, start_game
from tests.bot.webapp_client import init_data, watch_link
from tests.toygame.kit import KIT

pytestmark = pytest.mark.asyncio(loop_scope="module")
__all__ = ["browser", "web"]

GROUP = -100950


@pytest.fixture(autouse=True)
def sticks():
    """The game is known while a test runs, and forgotten after (the registry is the list)."""
    bot.games.add(KIT)
    try:
        yield
    finally:
        bot.games.remove("sticks")


async def test_the_toy_game_is_listed_and_played_by_the_tables_buttons(fake, web):
    assert "sticks" in registry.game_ids() and find_game("nim").id == "sticks"
    fake.add_group(GROUP, "Sticks club")
    anna, boris = Player(fake, web, 1, "Anna"), Player(fake, web, 2, "Boris")
    for p in (anna, boris):
        await p.start_private()
    await anna.say(GROUP, "/new")
    menu = fake.last_bot_message(GROUP)
    assert "🥢 <b>Sticks</b> · a row of sticks — take 1, 2 or 3" in menu.raw_text
    button_data(menu, text="🥢 Sticks · a row of sticks")  # its button in the menu
    game = await start_game(fake, web, GROUP, "sticks", [anna, boris])
    table = fake.message(GROUP, game.table_msg)
    assert table.photo is not None and "🥢 <b>Sticks</b> · left: 13" in table.raw_caption
    assert await press_until_over(fake, web, game.id, random.Random(5))
    await web.idle()
    results = fake.last_bot_message(GROUP).text
    assert "took the last stick and wins" in results and "🎞" in str(fake.last_bot_message(GROUP).reply_markup)
    record = await web.store.game_record(game.id)
    assert record is not None and record.rated and {s.place for s in record.seats} == {1, 2}


async def test_the_toy_game_is_played_on_the_page(fake, web, browser):
    fake.add_group(GROUP - 1, "Sticks on the page")
    anna, boris = Player(fake, web, 11, "Anna"), Player(fake, web, 12, "Boris")
    for p in (anna, boris):
        await p.start_private()
    game = await start_game(fake, web, GROUP - 1, "sticks", [anna, boris])
    raw = init_data(fake.token, 11, "Anna", start_param=watch_link(fake, game))
    phone = await Phone.open(browser, f"{web.base}/app/", raw)
    await phone.ready()
    mine = game.seat_of(11)
    taps = 0
    while game.status == "running":
        match = await web.bot.book.load(game.id)
        if match.current == mine:
            await phone.wait(f"body[data-version='{game.version}']", state="attached")
            assert f"Sticks left: {match.state.left}" in await phone.text(".board-panel")
            version = game.version
            await phone.tap(f"Take {min(2, match.state.left)}" + (" 🏆" if match.state.left <= 2 else ""))
            taps += 1
            await phone.wait_version_past(version)
        else:
            table = fake.message(GROUP - 1, game.table_msg)
            await boris.press(GROUP - 1, table.message_id, button_data(table, text="1"))
        await web.idle()
        game = await web.game(game.id)
    assert game.status == "finished" and taps >= 3 and not await phone.page_errors()
    await phone.close()
    assert (await web.state(game.id)).left == 0


async def test_an_installed_package_adds_its_game_through_the_entry_point(tmp_path, monkeypatch):
    """What ``pip install`` of a package declaring ``[project.entry-points."tablebot.games"]
    sticks = "tests.toygame.kit:KIT"`` leaves on the path is found at the first use of the games."""
    bot.games.remove("sticks")
    info = tmp_path / "tablebot_sticks-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tablebot-sticks\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tablebot.games]\nsticks = tests.toygame.kit:KIT\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(bot.games, "_plugins_loaded", False)
    assert "sticks" in [kit.id for kit in bot.games.kits()]
    assert registry.info("sticks").name_en == "Sticks" and bot.games.kit_for("sticks") is KIT
