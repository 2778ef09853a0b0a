"""``python -m bench webapp [--game genial cones trio lucky] [--games 1 200] [--moves 10]
[--engine chromium webkit] [--screenshots docs]``: the Mini App (bot/webapp) in a real browser
(headless chromium; WebKitGTK's MiniBrowser: tests/bot/browser.py) against the real bot and the
fake Bot API, for each game and engine:

- taps for a move on the page: the taps a person who knows the page makes for one move (a tile
  and a cell, a chip and a pile, a tile and a place, then ✅; lucky's one button), mean over
  the moves made; and the most a stranger to the page took for a move in five tries, tapping
  named controls at random (the MainButton when it shows);
- the first and the second open of the board: requests made and bytes received (headers and
  bodies as the bot sent them, gzip where the browser takes it: the page, its modules and styles,
  the JSON it asks for; Telegram's own script excluded, it is a stub here; counted by a front
  between the phone and the bot, tests/bot/front.py), and the time until usable: from the start
  of the navigation to the board drawn (the page's own performance.now() when it marks itself
  ready), median of 5. A first open is a fresh phone (nothing cached); a second open is the same
  phone opening the board again (its cache: the page revalidated, its files kept);
- tap ✅ → the group's table edited: from the tap that makes the move (✅ on the MainButton;
  lucky's button) to the fake Bot API receiving the editMessageMedia of the group's table (so:
  the move through the door, its commit, the table's picture drawn and uploaded), median and max
  over ``--moves`` moves, the other player moving by buttons in between; with 1 game running,
  and with 200 running games of the same kind of which another moves by buttons all the time in
  the background (one decision after another). A game that ends is followed by a new one.

The bot runs with the tests' settings (no pacing of group writes), so the figure is the bot's
own time, not Telegram's limit of 20 writes a minute to one group. ``--screenshots DIR`` saves
``DIR/webapp-<game>.png``: the page at 390 × 844 in the middle of a game, a move composed.
"""
from __future__ import annotations

import argparse
import asyncio
import pathlib
import random
import statistics
import tempfile
import time
from dataclasses import dataclass

from bench.measure import names
from engines import registry
from tests.bot.browser import ENGINES, GENIAL_CELL, LUCKY, Phone, compose_move, engine, page_url, stranger_moves
from tests.bot.harness import BotRunner, Player, press_until_over
from tests.bot.webapp_client import free_port, init_data, start_seeded, watch_link
from tests.fakebotapi import FakeBotAPI

LOADS = 5
STRANGERS = 5  # first moves made by tapping named controls at random (and the MainButton)
KINDS = registry.game_ids()
PAGE_USER = 1000  # the person on the page (the first of the first pair)
PAGE_GROUP = -200_000  # the page's games, one group each (the others: -100_001 …)


def _url(fake, runner, game, kind: str) -> tuple[str, str]:
    """Where the page player opens the page, and their initData: the rack, goal or hand
    message's button; lucky (no private message) the group table's link."""
    seat = next(s for s in game.seats if s.user_id == PAGE_USER)
    if kind == "lucky":
        return f"{runner.base}/app/", init_data(fake.token, seat.user_id, seat.name, start_param=watch_link(fake, game))
    return page_url(fake, seat), init_data(fake.token, seat.user_id, seat.name)


@dataclass
class Open:
    requests: int
    kilobytes: float
    ready_ms: float


async def _opens(browser, url: str, raw: str) -> tuple[Open, Open]:
    """The first open (a fresh phone) and the second (the same phone again), each the median
    time until usable of LOADS phones and the requests and bytes of the first of them."""
    firsts, seconds = [], []
    for _ in range(LOADS):
        phone = await Phone.open(browser, url, raw, front=True)
        try:
            for out in (firsts, seconds):
                mark = len(phone.front.passed) if out is seconds else 0  # (the first: since it opened)
                if out is seconds:
                    await phone.goto("about:blank")
                    await phone.goto(url)
                await phone.ready()
                ms = float(await phone.attribute("body", "data-ready-ms"))
                await phone.settled()
                passed = [p for p in phone.front.passed[mark:] if "wait=1" not in p.path and p.path != "/favicon.ico"]
                out.append(Open(len(passed), sum(p.size for p in passed) / 1024, ms))
        finally:
            await phone.close()
    return tuple(Open(opens[0].requests, opens[0].kilobytes, statistics.median(o.ready_ms for o in opens))
                 for opens in (firsts, seconds))


async def _buttons_move(fake, runner, game, rng) -> None:
    """One whole move by the seat to act, on its buttons (random among them, step by step)."""
    version = game.version
    while game.version == version and game.status == "running":
        await press_until_over(fake, runner, game.id, rng, most=1)


async def _table_edit(fake, game, mark: int, after: float, timeout: float = 30.0) -> float:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for request in fake.requests[mark:]:
            if (request.method == "editMessageMedia" and str(request.params.get("chat_id")) == str(game.chat_id)
                    and request.time >= after):
                return request.time
        await asyncio.sleep(0.002)
    raise TimeoutError("the group table was not edited")


class Table:
    """The page player's game in its group (a new one when it ends) and their open page."""

    def __init__(self, fake, runner, kind: str, people: list[Player], browser):
        self.fake, self.runner, self.kind, self.people, self.browser = fake, runner, kind, people, browser
        self.game = None
        self.phone = None
        self.played = 0

    async def ensure(self) -> None:
        """A running game on the page: the next one in a group of its own (a group answers the
        same /new twice in a row once)."""
        if self.game is not None and self.game.status == "running":
            return
        if self.phone is not None:
            await self.phone.close()
        chat_id = PAGE_GROUP - self.played
        self.played += 1
        self.fake.add_group(chat_id, f"Bench page {self.played}")
        self.game = await start_seeded(self.fake, self.runner, chat_id, self.kind, self.people)
        url, raw = _url(self.fake, self.runner, self.game, self.kind)
        self.phone = await Phone.open(self.browser, url, raw)
        await self.phone.ready()

    @property
    def on_page(self) -> int:
        return self.game.seat_of(PAGE_USER)


async def _tap_to_table(table: Table, rng, moves: int, gate: asyncio.Lock) -> tuple[list[float], list[int]]:
    """Seconds from the tap that makes a move to the group table's edit, and the taps each move
    took, for ``moves`` moves on the page. The background games wait while this one needs the
    whole bot quiet (``gate``: its moves by buttons, the settling after a move), never during a
    tap."""
    fake, runner = table.fake, table.runner
    out, taps = [], []
    while len(out) < moves:
        async with gate:
            await table.ensure()
        game = table.game
        match = await runner.bot.book.load(game.id)
        if match.current != table.on_page:
            async with gate:
                await _buttons_move(fake, runner, game, rng)
                await runner.idle(timeout=60)
            continue
        phone = table.phone
        await phone.wait(f"body[data-version='{game.version}']", state="attached")
        made, last = await compose_move(phone, table.kind, rng)
        mark = len(fake.requests)
        tapped = time.monotonic()
        version = game.version
        await phone.press(last)
        out.append(await _table_edit(fake, game, mark, tapped) - tapped)
        taps.append(made + 1)
        await phone.wait_version_past(version)
        async with gate:
            await runner.idle(timeout=60)
    return out, taps


async def _stranger(table: Table, rng, gate: asyncio.Lock) -> int:
    """The page player's next move made as someone who knows nothing of the page would make it
    (tests/bot/browser.py stranger_moves): the taps it took."""
    while True:
        async with gate:
            await table.ensure()
            game = table.game
            if (await table.runner.bot.book.load(game.id)).current == table.on_page:
                break
            await _buttons_move(table.fake, table.runner, game, rng)
            await table.runner.idle(timeout=60)
    await table.phone.wait(f"body[data-version='{game.version}']", state="attached")
    taps = await stranger_moves(table.phone, rng)
    async with gate:
        await table.runner.idle(timeout=60)
    return taps


async def _background(fake, runner, kind: str, tables: list[list], rng, stop: asyncio.Event, gate: asyncio.Lock) -> int:
    """Moves by buttons in the other games ([people, game] each), one decision after another,
    until stopped; a game that ends is followed by a new one in a group of its own."""
    done = 0
    while not stop.is_set():
        entry = rng.choice(tables)
        async with gate:
            if entry[1].status != "running":
                chat_id = entry[1].chat_id - 1_000_000
                fake.add_group(chat_id, "Bench again")
                entry[1] = await start_seeded(fake, runner, chat_id, kind, entry[0])
            await press_until_over(fake, runner, entry[1].id, rng, most=1)
        done += 1
    return done


async def measure(kind: str, games: int, moves: int, screenshot: str | None,
                  engine_name: str = "chromium") -> list[tuple[str, float, str]]:
    fake = FakeBotAPI()
    fake.start()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        runner = BotRunner(fake, pathlib.Path(tmp) / "bench.sqlite3", port=port,
                           webapp_url=f"http://127.0.0.1:{port}", webapp_short_name="board")
        runner.base = f"http://127.0.0.1:{port}"
        await runner.start()
        try:
            pairs = []
            for g in range(games):
                pair = [Player(fake, runner, PAGE_USER + 2 * g + k, name, lang="ru" if k else "en")
                        for k, name in enumerate(names("webapp"))]
                for p in pair:
                    await p.start_private()
                fake.add_group(-100_000 - g, f"Bench {g}")
                pairs.append(pair)
            others = [[pairs[g], await start_seeded(fake, runner, -100_000 - g, kind, pairs[g])] for g in range(1, games)]
            rng = random.Random(26)
            async with engine(engine_name) as browser:
                table = Table(fake, runner, kind, pairs[0], browser)
                await table.ensure()
                first, second = await _opens(browser, *_url(fake, runner, table.game, kind))
                stop, gate = asyncio.Event(), asyncio.Lock()
                background = asyncio.create_task(_background(fake, runner, kind, others, random.Random(1), stop, gate)) \
                    if others else None
                strangers = [await _stranger(table, random.Random(k), gate) for k in range(STRANGERS)]
                edits, taps = await _tap_to_table(table, rng, moves, gate)
                stop.set()
                moved = await background if background else 0
                if screenshot:
                    await _screenshot(table, rng, screenshot)
                await table.phone.close()
            label = f"{kind}, {engine_name}, {games} game{'s' if games > 1 else ''} running"
            figures = [
                (f"taps for a move on the page (mean of {len(taps)}) [{label}]", statistics.mean(taps), "taps"),
                (f"taps for a move by someone who knows nothing of the page (most of {STRANGERS}) [{label}]",
                 max(strangers), "taps"),
            ]
            for name, opened in (("first", first), ("second", second)):
                figures += [
                    (f"{name} open: requests [{label}]", opened.requests, "requests"),
                    (f"{name} open: bytes received [{label}]", opened.kilobytes, "KB"),
                    (f"{name} open: time until usable (median of {LOADS}) [{label}]", opened.ready_ms, "ms"),
                ]
            figures += [
                (f"tap ✅ → group table edited, median of {len(edits)} [{label}]", statistics.median(edits) * 1000, "ms"),
                (f"tap ✅ → group table edited, max [{label}]", max(edits) * 1000, "ms"),
            ]
            if others:
                figures.append((f"background decisions by buttons meanwhile [{label}]", moved, "decisions"))
            return figures
        finally:
            await runner.stop()
            fake.stop()


async def _screenshot(table: Table, rng, directory: str) -> None:
    """The page at 390 × 844 in the middle of a game, the page player's move composed (lucky: its
    buttons as they stand)."""
    fake, runner = table.fake, table.runner
    for _ in range(200):
        await table.ensure()
        game = table.game
        state = (await runner.bot.book.load(game.id)).state
        if _midgame(table.kind, state) and (await runner.bot.book.load(game.id)).current == table.on_page:
            break
        if (await runner.bot.book.load(game.id)).current == table.on_page:
            await table.phone.wait(f"body[data-version='{game.version}']", state="attached")
            made, last = await compose_move(table.phone, table.kind, rng)
            version = game.version
            await table.phone.tap(last)
            await table.phone.wait_version_past(version)
        else:
            await _buttons_move(fake, runner, game, rng)
        await runner.idle(timeout=60)
    phone = table.phone
    await phone.wait(f"body[data-version='{table.game.version}']", state="attached")
    if table.kind == "lucky":  # drawn until the page offers to bank (or the turn is lost: again)
        while not any(LUCKY["bank"].match(n) for n in await phone.named_buttons()):
            if table.game.status != "running":
                break
            if (await runner.bot.book.load(table.game.id)).current != table.on_page:
                await _buttons_move(fake, runner, table.game, rng)
                await runner.idle(timeout=60)
                await phone.wait(f"body[data-version='{table.game.version}']", state="attached")
                continue
            version = table.game.version
            await phone.tap(next(n for n in await phone.named_buttons() if LUCKY["draw"].match(n)))
            await phone.wait_version_past(version)
    else:
        await compose_move(phone, table.kind, rng)
    if table.kind == "genial":  # the placement that earns most, as someone after points would take
        cells = [n for n in await phone.named_buttons() if GENIAL_CELL.match(n)]
        await phone.tap(max(cells, key=lambda n: int(n.rsplit("+", 1)[1])))
    path = pathlib.Path(directory) / f"webapp-{table.kind}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    await table.phone.screenshot(str(path))


def _midgame(kind: str, state) -> bool:
    """Far enough into a game that the board has something to show."""
    if kind == "genial":
        return len(state.tiles) >= 14
    if kind == "cones":
        return state.turn >= 9
    if kind == "trio":
        return len(state.board) >= 4
    return sum(map(sum, state.collections)) >= 12


def figures(argv: list[str] | None = None) -> list[tuple[str, float, str]]:
    parser = argparse.ArgumentParser(prog="python -m bench webapp")
    parser.add_argument("--game", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--games", type=int, nargs="+", default=[1, 200])
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--engine", nargs="+", choices=ENGINES, default=["chromium"])
    parser.add_argument("--screenshots", default=None, help="save DIR/webapp-<game>.png mid-game (390 × 844)")
    args = parser.parse_args(argv or [])
    out = []
    for name in args.engine:
        for kind in args.game:
            for n in args.games:
                shots = args.screenshots if n == args.games[0] and name == args.engine[0] else None
                out += asyncio.run(measure(kind, n, args.moves, shots, name))
    return out
