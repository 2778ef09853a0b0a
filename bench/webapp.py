"""``python -m bench webapp [--games 1 200] [--moves 10] [--screenshot docs/webapp-genial.png]``:
the Mini App (bot/webapp) in headless chromium against the real bot and the fake Bot API.

- the page's weight: bytes transferred for one load (headers and bodies as sent, gzip where the
  browser accepts it: the page, its modules and styles, the JSON it asks for; Telegram's own
  script excluded, it is a stub here);
- time until usable: from the start of the navigation to the board drawn with its rack (the
  page's own performance.now() when it marks itself ready), median of 5 loads, each in a fresh
  browser context (nothing cached);
- tap ✅ → the group's table edited: from the tap on the MainButton to the fake Bot API receiving
  the editMessageMedia of the group's table (so: the move through the door, its commit, the
  table's picture drawn and uploaded), median and max over ``--moves`` moves, the other player
  moving by buttons in between; with 1 game running, and with 200 running games of which
  another moves by buttons all the time in the background (one decision after another).

The bot runs with the tests' settings (no pacing of group writes), so the figure is the bot's
own time, not Telegram's limit of 20 writes a minute to one group.
"""
from __future__ import annotations

import argparse
import asyncio
import pathlib
import random
import statistics
import tempfile
import time

from engines import genial
from tests.bot.browser import Phone, choose_a_placement, chromium, page_url, tap_a_move, user_of
from tests.bot.harness import BotRunner, Player, button_data
from tests.bot.test_genial_e2e import play_turn
from tests.bot.webapp_client import free_port, init_data
from tests.fakebotapi import FakeBotAPI

LOADS = 5


async def _start_genial(fake, runner, chat_id: int, people: list[Player]):
    fake.add_group(chat_id, f"Bench {chat_id}")
    await people[0].say(chat_id, "/new genial")
    lobby = fake.last_bot_message(chat_id)
    await people[1].press(chat_id, lobby.message_id, button_data(lobby, text="Join"))
    await people[0].press(chat_id, lobby.message_id, button_data(lobby, text="Start"))
    return next(g for g in await runner.games() if g.chat_id == chat_id and g.status == "running")


async def _weight_and_ready(browser, url: str, raw: str) -> tuple[int, float]:
    """Bytes of one load and the median time until usable (ms) over LOADS fresh loads."""
    times = []
    weight = 0
    for i in range(LOADS):
        phone = await Phone.open(browser, url, raw)
        await phone.ready()
        times.append(float(await phone.page.get_attribute("body", "data-ready-ms")))
        if i == 0:
            sizes = []

            async def size(response):
                if "telegram.org" not in response.url:
                    try:
                        await response.finished()
                        sent = await response.request.sizes()
                        sizes.append(sent["responseBodySize"] + sent["responseHeadersSize"])
                    except Exception:
                        pass
            reload = await Phone.open(browser, url, raw)
            reload.page.on("response", size)
            await reload.page.reload()
            await reload.ready()
            await asyncio.sleep(0.3)
            weight = sum(sizes)
            await reload.close()
        await phone.close()
    return weight, statistics.median(times)


async def _tap_to_table(fake, runner, phone: Phone, game, by_id, rng, moves: int) -> list[float]:
    """Seconds from the tap on ✅ to the group table's edit, for ``moves`` moves on the page."""
    on_page = next(s.seat for s in game.seats if s.user_id == phone_user(phone))
    out = []
    while len(out) < moves and game.status == "running":
        state = await runner.state(game.id)
        turn = genial.turn(state)
        if genial.current_player(state) != on_page:
            await play_turn(fake, runner, game, by_id, rng, wander=False)
            continue
        await phone.page.wait_for_selector(f"body[data-turn='{turn}']")
        if await phone.page.locator("[data-act='K']").count():
            await phone.page.locator("[data-act='K']").click()
            await phone.wait_turn_past(turn)
            continue
        mark = len(fake.requests)
        tapped = [0.0]
        await choose_a_placement(phone, rng)
        tapped[0] = time.monotonic()
        await phone.page.locator("#tg-main").click()
        edited = await _table_edit(fake, game, mark, tapped[0])
        out.append(edited - tapped[0])
        await phone.wait_turn_past(turn)
        await runner.idle(timeout=60)
    return out


def phone_user(phone: Phone) -> int:
    return user_of(phone.raw)["id"]


async def _table_edit(fake, game, mark: int, after: float, timeout: float = 30.0) -> float:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for request in fake.requests[mark:]:
            if (request.method == "editMessageMedia" and str(request.params.get("chat_id")) == str(game.chat_id)
                    and request.time >= after):
                return request.time
        await asyncio.sleep(0.002)
    raise TimeoutError("the group table was not edited")


async def _background(fake, runner, games, by_id, rng, stop: asyncio.Event) -> int:
    """Moves by buttons in the other games, one decision after another, until stopped."""
    done = 0
    while not stop.is_set():
        game = rng.choice(games)
        if game.status != "running":
            continue
        await play_turn(fake, runner, game, by_id, rng, wander=False)
        await runner.idle(timeout=60)  # its next player's message settled before it is read
        done += 1
    return done


async def measure(games: int, moves: int, screenshot: str | None) -> list[tuple[str, float, str]]:
    fake = FakeBotAPI()
    fake.start()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        runner = BotRunner(fake, pathlib.Path(tmp) / "bench.sqlite3", port=port,
                           webapp_url=f"http://127.0.0.1:{port}")
        await runner.start()
        try:
            people = {}
            all_games = []
            for g in range(games):
                pair = [Player(fake, runner, 1000 + 2 * g + k, name) for k, name in enumerate(["Anna", "Борис"])]
                for p in pair:
                    people[p.id] = p
                    await p.start_private()
                all_games.append(await _start_genial(fake, runner, -100_000 - g, pair))
            game, others = all_games[0], all_games[1:]
            seat = game.seats[0]
            raw = init_data(fake.token, seat.user_id, seat.name)
            url = page_url(fake, seat)
            rng = random.Random(26)
            figures = []
            async with chromium() as browser:
                weight, ready = await _weight_and_ready(browser, url, raw)
                phone = await Phone.open(browser, url, raw)
                await phone.ready()
                stop = asyncio.Event()
                background = asyncio.create_task(_background(fake, runner, others, people, random.Random(1), stop)) \
                    if others else None
                taps = await _tap_to_table(fake, runner, phone, game, people, rng, moves)
                stop.set()
                moved = await background if background else 0
                if screenshot:
                    await _screenshot(phone, fake, runner, game, people, rng, screenshot)
                await phone.close()
            label = f"{games} game{'s' if games > 1 else ''} running"
            figures += [
                (f"page weight, one load (KB transferred) [{label}]", weight / 1024, "KB"),
                (f"time until usable in headless chromium (median of {LOADS}) [{label}]", ready, "ms"),
                (f"tap ✅ → group table edited, median of {len(taps)} [{label}]", statistics.median(taps) * 1000, "ms"),
                (f"tap ✅ → group table edited, max [{label}]", max(taps) * 1000, "ms"),
            ]
            if others:
                figures.append((f"background decisions by buttons meanwhile [{label}]", moved, "decisions"))
            return figures
        finally:
            await runner.stop()
            fake.stop()


async def _screenshot(phone: Phone, fake, runner, game, people, rng, path: str) -> None:
    """The page at 390 × 844 in the middle of a game, a placement chosen (its preview shown)."""
    for _ in range(40):
        state = await runner.state(game.id)
        if game.status != "running" or len(state.tiles) >= 18:
            break
        if genial.current_player(state) == 0:
            turn = genial.turn(state)
            await phone.page.wait_for_selector(f"body[data-turn='{turn}']")
            await tap_a_move(phone, rng)
            await phone.wait_turn_past(turn)
            await runner.idle(timeout=60)
        else:
            await play_turn(fake, runner, game, people, rng, wander=False)
    while genial.current_player(await runner.state(game.id)) != 0:
        await play_turn(fake, runner, game, people, rng, wander=False)
    await phone.page.wait_for_selector(f"body[data-turn='{genial.turn(await runner.state(game.id))}']")
    await choose_a_placement(phone, rng)
    await _best_cell(phone)
    pathlib.Path(path).parent.mkdir(parents=True, exist_ok=True)
    await phone.page.screenshot(path=path)


async def _best_cell(phone: Phone) -> None:
    """Of the lit cells, the one that scores most (as a person looking for points would)."""
    page = phone.page
    lit = page.locator(".cell.lit")
    best, best_points = 0, -1
    for k in range(await lit.count()):
        await lit.nth(k).click()
        points = int((await page.locator("#tg-main").inner_text()).rsplit("+", 1)[1])
        if points > best_points:
            best, best_points = k, points
    await lit.nth(best).click()


def figures(argv: list[str] | None = None) -> list[tuple[str, float, str]]:
    parser = argparse.ArgumentParser(prog="python -m bench webapp")
    parser.add_argument("--games", type=int, nargs="+", default=[1, 200])
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--screenshot", default=None, help="save the page mid-game here (PNG, 390 × 844)")
    args = parser.parse_args(argv or [])
    out = []
    for n in args.games:
        out += asyncio.run(measure(n, args.moves, args.screenshot if n == args.games[0] else None))
    return out
