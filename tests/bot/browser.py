"""A real headless browser (Debian's chromium through Playwright) opening the Mini App as
Telegram would: ``telegram-web-app.js`` is answered by a stub whose ``initData`` is signed with
the test bot's token, its MainButton a real button on the page (``#tg-main``), its haptics noted.

Where chromium is missing (a fresh machine: ``apt-get install chromium``) the browser tests are
skipped with a reason that says so; where ``TABLEBOT_REQUIRE_BROWSER=1`` (CI, which installs it)
they fail instead. ``TABLEBOT_CHROMIUM`` names another chromium than ``/usr/bin/chromium``.
Each test module shares one browser (``browser``), each test a context of its own.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import re
from contextlib import asynccontextmanager
from urllib.parse import parse_qsl

import pytest
import pytest_asyncio
from playwright.async_api import async_playwright

from tests.bot.harness import buttons
from tests.bot.webapp_client import assert_only_own_secrets, bot_with_page, states_by_turn

CHROMIUM = os.environ.get("TABLEBOT_CHROMIUM", "/usr/bin/chromium")
REQUIRED = os.environ.get("TABLEBOT_REQUIRE_BROWSER") == "1"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"

STUB = """
(() => {
  const raw = %(raw)s;
  const fields = Object.fromEntries(new URLSearchParams(raw));
  const unsafe = { ...fields, user: fields.user ? JSON.parse(fields.user) : undefined };
  const noted = (window.__tg = { haptics: [], main: [] });
  function mainButton() {
    let node = null, handler = null;
    const ensure = () => {
      if (!node) {
        node = document.createElement("button");
        node.id = "tg-main";
        node.hidden = true;
        node.style.cssText = "position:fixed;left:0;right:0;bottom:0;height:48px;z-index:9";
        node.addEventListener("click", () => handler && handler());
        document.body.appendChild(node);
      }
      return node;
    };
    return {
      setText(text) { ensure().textContent = text; noted.main.push(text); return this; },
      show() { ensure().hidden = false; return this; },
      hide() { ensure().hidden = true; return this; },
      enable() { return this; }, disable() { return this; },
      onClick(fn) { handler = fn; return this; }, offClick() { handler = null; return this; },
    };
  }
  const note = (kind) => (value) => noted.haptics.push(kind + ":" + (value || ""));
  window.Telegram = { WebApp: {
    initData: raw, initDataUnsafe: unsafe, platform: "tdesktop", version: "8.0", colorScheme: "light",
    themeParams: {}, ready() {}, expand() {}, close() {},
    MainButton: mainButton(),
    BackButton: { show() {}, hide() {}, onClick() {}, offClick() {} },
    HapticFeedback: { selectionChanged: note("select"), impactOccurred: note("impact"),
                      notificationOccurred: note("notify") },
  } };
})();
"""


# What an outside check may serve: initData and nothing else of Telegram's object.
MINIMAL_STUB = "window.Telegram = { WebApp: { initData: %(raw)s, initDataUnsafe: {} } };"


def stub_script(raw_init_data: str, template: str = STUB) -> str:
    return template % {"raw": json.dumps(raw_init_data)}


def missing_browser() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    if os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK):
        return None
    return (f"no chromium at {CHROMIUM}: the Mini App's browser tests need it (apt-get install chromium, "
            "or TABLEBOT_CHROMIUM=<path>)")


def need_browser() -> None:
    """Skip the test where chromium is missing; fail instead where it is required (CI)."""
    reason = missing_browser()
    if reason is not None:
        if REQUIRED:
            pytest.fail(reason + "; TABLEBOT_REQUIRE_BROWSER=1 says it must be there", pytrace=False)
        pytest.skip(reason)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    """One headless chromium for a test module (its tests run in the module's event loop:
    ``pytestmark = pytest.mark.asyncio(loop_scope="module")``, and its bot fixtures too)."""
    need_browser()
    async with chromium() as launched:
        yield launched


@pytest_asyncio.fixture(loop_scope="module")
async def web(fake, tmp_path):
    """The bot with its Mini App (and the group tables' link to it), in the module's event loop."""
    async with bot_with_page(fake, tmp_path / "tablebot.sqlite3", webapp_short_name="board") as runner:
        yield runner


@asynccontextmanager
async def chromium():
    """A headless chromium; raises when it cannot start. (Playwright gives every launch a fresh
    profile of its own, in a temporary directory.)"""
    reason = missing_browser()
    if reason is not None:
        raise RuntimeError(reason)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            await browser.close()


class Phone:
    """One person's Telegram with the Mini App open at 390 × 844: every JSON answer it got is
    kept (to check that none holds another's rack), and every page error."""

    def __init__(self, page, raw_init_data: str):
        self.page = page
        self.raw = raw_init_data
        self.errors: list[str] = []
        self.answers: list[tuple[int, str, str]] = []  # (status, url, body)
        self.api_statuses: list[int] = []

    @classmethod
    async def open(cls, browser, url: str, raw_init_data: str, *, forge=None, stub: str = STUB) -> "Phone":
        context = await browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                            has_touch=True, is_mobile=True)
        page = await context.new_page()
        phone = cls(page, raw_init_data)
        page.on("pageerror", lambda error: phone.errors.append(str(error)))

        async def telegram_js(route):
            await route.fulfill(status=200, content_type="text/javascript", body=stub_script(raw_init_data, stub))

        await page.route(TELEGRAM_JS, telegram_js)
        if forge is not None:
            async def forged(route):
                headers = dict(route.request.headers)
                headers["authorization"] = "tma " + forge(raw_init_data)
                await route.continue_(headers=headers)
            await page.route("**/app/api/**", forged)

        async def noted(response):
            if "/app/api/" in response.url:
                phone.api_statuses.append(response.status)
                try:
                    body = await response.text()
                except Exception:  # a long poll cut when the page closes
                    body = ""
                phone.answers.append((response.status, response.url, body))

        page.on("response", noted)
        await page.goto(url)
        return phone

    async def settled(self, timeout: float = 15_000) -> None:
        """Until no request a tap made is under way (the page counts them from the tap itself:
        body[data-asking]) and the page has drawn what they answered."""
        await self.page.wait_for_selector("body:not([data-asking]), body[data-asking='0']", state="attached",
                                          timeout=timeout)
        await self.page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)))")

    async def version(self) -> int:
        return int(await self.page.get_attribute("body", "data-version") or -1)

    async def named_buttons(self) -> list[str]:
        """The accessible names of the controls one may tap now: every visible, enabled button
        (a <button> or role="button"), as a screen reader would read them out."""
        return await self.page.evaluate("""() => [...document.querySelectorAll("button, [role=button]")]
            .filter((b) => !b.disabled && b.getAttribute("aria-disabled") !== "true" && b.getClientRects().length
                    && getComputedStyle(b).visibility !== "hidden")
            .map((b) => (b.getAttribute("aria-label") || b.textContent || "").trim()).filter(Boolean)""")

    def button(self, name):
        """A control by its role and accessible name (a string: the whole name; or a pattern)."""
        return self.page.get_by_role("button", name=name, exact=isinstance(name, str)).first

    async def tap(self, name) -> None:
        await self.button(name).click()
        await self.settled()

    async def ready(self, timeout: float = 15_000) -> None:
        await self.page.wait_for_selector("body[data-ready='1']", timeout=timeout)

    async def turn(self) -> int:
        return int(await self.page.get_attribute("body", "data-turn") or -1)

    async def wait_turn_past(self, turn: int, timeout: float = 15_000) -> None:
        """Until the page shows a later turn (a selector: the page's CSP allows no eval)."""
        await self.page.wait_for_selector(f"body[data-turn]:not([data-turn='{turn}'])", timeout=timeout)

    async def wait_version_past(self, version: int, timeout: float = 15_000) -> None:
        await self.page.wait_for_selector(f"body[data-version]:not([data-version='{version}'])", timeout=timeout)

    async def close(self) -> None:
        await self.page.context.close()


async def seen_to_the_end(phone: Phone, over: str, runner, game, seat: int) -> int:
    """The page shows the game over and its places, nothing went wrong on it, no answer it got
    held another seat's secret, and the group got the results. How many answers held the game."""
    await phone.page.wait_for_selector(".story .result")
    assert over in await phone.page.inner_text("#status")
    assert not phone.errors, phone.errors
    assert all(status in (200, 304) for status in phone.api_statuses), phone.api_statuses
    await runner.idle(timeout=60)  # the results go out after the last move's answer
    game = await runner.game(game.id)
    assert game.results_msg is not None
    states = await states_by_turn(runner, game)
    return assert_only_own_secrets(game.kind, [body for _, _, body in phone.answers], seat, states)


def user_of(raw_init_data: str) -> dict:
    return json.loads(dict(parse_qsl(raw_init_data))["user"])


def page_url(fake, seat) -> str:
    """The address the rack message's «On the board» button opens."""
    private = fake.message(seat.user_id, seat.dm_msg)
    (url,) = [b["web_app"]["url"] for b in buttons(private) if "web_app" in b]
    return url


MAIN = re.compile(r"^✅")  # the MainButton, when it shows, offers the move
GENIAL_TILE = re.compile(r"^(Tile|Тайл) ")
GENIAL_CELL = re.compile(r"^[A-O]\d{1,2}: \+\d+$")


async def tap_a_move(phone: Phone, rng: random.Random | None = None) -> None:
    """«Гениально»: tap a tile that fits somewhere (turning it now and then), a lit cell, then ✅
    on Telegram's MainButton; or, when the rack may be swapped, Swap or Keep: by the controls'
    roles and names."""
    names = await phone.named_buttons()
    swap = [n for n in names if n.startswith("🔄")]
    if swap:
        keep = next(n for n in names if n.startswith("✋"))
        await phone.tap(keep if rng is None or rng.random() < 0.5 else swap[0])
        return
    await choose_a_placement(phone, rng)
    await phone.tap(MAIN)


async def choose_a_placement(phone: Phone, rng: random.Random | None = None) -> None:
    """Everything of a «Гениально» move but ✅: a tile that fits somewhere (turned now and then),
    a lit cell, until the MainButton offers the move."""
    tiles = [n for n in await phone.named_buttons() if GENIAL_TILE.match(n)]
    for name in tiles:
        await phone.tap(name)
        if rng is not None and rng.random() < 0.3:
            await phone.tap(name)  # turned: another direction lights other cells
        cells = [n for n in await phone.named_buttons() if GENIAL_CELL.match(n)]
        if cells:
            break
    await phone.tap(rng.choice(cells) if rng is not None else cells[0])
    await phone.page.wait_for_selector("#tg-main:not([hidden])")


async def stranger_moves(phone: Phone, rng: random.Random, most: int = 40) -> int:
    """Someone who knows nothing of the page makes a move: they tap the MainButton when it shows,
    else a named control they have not tapped yet (any, when they tried them all), until the
    game moves on. How many taps it took (an AssertionError past ``most``)."""
    version = await phone.version()
    tried: set[str] = set()
    for taps in range(1, most + 1):
        names = await phone.named_buttons()
        for _ in range(100):  # a page still drawing shows nothing to tap for a moment: they wait
            if names:
                break
            await asyncio.sleep(0.1)
            names = await phone.named_buttons()
        assert names, f"nothing to tap on: {await phone.page.inner_text('body')!r}"
        offered = [n for n in names if MAIN.match(n)]
        if offered:
            name = offered[0]
        else:
            fresh = [n for n in names if n not in tried]
            name = rng.choice(fresh or names)
            tried.add(name)
        await phone.tap(name)
        if await phone.version() != version:
            return taps
    raise AssertionError(f"no move within {most} taps (tried: {sorted(tried)})")


# ---- one move of each game, by the controls' roles and names (English or Russian) --------------

CONES_CHIP = re.compile(r"^(Chip|Фишка): ")
CONES_PILE = re.compile(r"^(Pile|Башня) \d+: ")
TRIO_TILE = re.compile(r"^(Tile|Жетон): ")
TRIO_PLACE = re.compile(r"^(Place|Место) \d+$")
LUCKY = {"take": re.compile(r"^✋ "), "bank": re.compile(r"^💰 "), "draw": re.compile(r"^🎲 ")}


async def compose_move(phone: Phone, kind: str, rng: random.Random) -> tuple[int, object]:
    """Everything of a move on the page but its last tap, as a person who knows the page would
    make it: (the taps made, the control that makes the move: the MainButton, or lucky's one
    button). «Гениально»'s swap question: Keep."""
    if kind == "lucky":
        names = await phone.named_buttons()
        offered = {what: next((n for n in names if pattern.match(n)), None) for what, pattern in LUCKY.items()}
        if offered["bank"] and (not offered["draw"] or rng.random() < 0.5):
            return 0, offered["bank"]
        found = offered["take"] or offered["draw"] or offered["bank"]
        assert found, f"no move offered: {names}"
        return 0, found
    if kind == "genial":
        names = await phone.named_buttons()
        if any(n.startswith("🔄") for n in names):
            return 0, next(n for n in names if n.startswith("✋"))
        await choose_a_placement(phone, rng)
        return 2, MAIN
    chip, spot = (CONES_CHIP, CONES_PILE) if kind == "cones" else (TRIO_TILE, TRIO_PLACE)
    pieces = [n for n in await phone.named_buttons() if chip.match(n)]
    for piece in rng.sample(pieces, len(pieces)):
        await phone.tap(piece)
        spots = [n for n in await phone.named_buttons() if spot.match(n)]
        if spots:
            await phone.tap(rng.choice(spots))
            return 2, MAIN
        await phone.tap(piece)  # fits nowhere: put it back
    raise AssertionError(f"nothing to play: {pieces}")
