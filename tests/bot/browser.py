"""Real browsers opening the Mini App as Telegram would, in both engines Telegram shows it in:
Chromium (Android, desktop; Debian's chromium through Playwright) and WebKit (iPhone, iPad, Mac;
Debian's WebKitGTK MiniBrowser through WebKitWebDriver and selenium, under an Xvfb the tests
start: tests/bot/webkit.py). ``telegram-web-app.js`` is answered by a stub whose ``initData`` is
signed with the test bot's token, its MainButton a real button on the page (``#tg-main``), its
haptics noted.

Every browser test runs once per engine (the ``browser`` fixture, one per module and engine).
Where an engine is missing its tests are skipped with a reason that names the Debian packages;
where ``TABLEBOT_REQUIRE_BROWSER=1`` (CI, which installs them) they fail instead.
``TABLEBOT_CHROMIUM`` and ``TABLEBOT_MINIBROWSER`` name other binaries.

A test speaks to a ``Phone``, the same in either engine: controls by their role and accessible
name, what the page shows by CSS selector, taps, waits. What an engine's WebDriver cannot see (the
requests, their answers) a WebKit phone gets from its front (tests/bot/front.py), which also
serves it Telegram's stub.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import re
from contextlib import asynccontextmanager
from dataclasses import dataclass
from urllib.parse import parse_qsl

import pytest
import pytest_asyncio
from playwright.async_api import TimeoutError as PlaywrightTimeout, async_playwright

from tests.bot import webkit
from tests.bot.front import Front
from tests.bot.harness import buttons
from tests.bot.webapp_client import assert_only_own_secrets, bot_with_page, states_by_turn

CHROMIUM = os.environ.get("TABLEBOT_CHROMIUM", "/usr/bin/chromium")
REQUIRED = os.environ.get("TABLEBOT_REQUIRE_BROWSER") == "1"
ENGINES = ("chromium", "webkit")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"
PHONE = (390, 844)  # CSS px: the phone the tests hold (an iPhone 12-15's page)

# What the page did wrong, noted in the page itself (either engine): an error, a rejected promise,
# a script or style that failed to load ("Importing a module script failed").
RECORDER = """
(() => {
  const errors = (window.__errors = []);
  window.addEventListener("error", (e) => errors.push(e.message || ("failed to load " + ((e.target && (e.target.src || e.target.href)) || "?"))), true);
  window.addEventListener("unhandledrejection", (e) => errors.push("unhandled: " + String(e.reason)));
})();
"""

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
    return RECORDER + template % {"raw": json.dumps(raw_init_data)}


def missing_browser(engine: str = "chromium") -> str | None:
    """Why an engine's browser tests cannot run here (None: they can)."""
    if engine == "webkit":
        return webkit.missing()
    if os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK):
        return None
    return (f"no chromium at {CHROMIUM}: the Mini App's browser tests need it (apt-get install chromium, "
            "or TABLEBOT_CHROMIUM=<path>)")


def need_browser(engine: str = "chromium") -> None:
    """Skip the test where the engine is missing; fail instead where it is required (CI)."""
    reason = missing_browser(engine)
    if reason is not None:
        if REQUIRED:
            pytest.fail(reason + "; TABLEBOT_REQUIRE_BROWSER=1 says it must be there", pytrace=False)
        pytest.skip(reason)


@dataclass
class Browser:
    """An engine for a test module: ``name``, and for Chromium the launched browser (each phone a
    context of its own); a WebKit phone is a MiniBrowser of its own."""
    name: str
    chromium: object = None


@pytest_asyncio.fixture(scope="module", loop_scope="module", params=ENGINES)
async def browser(request):
    """One browser of each engine for a test module (its tests run in the module's event loop:
    ``pytestmark = pytest.mark.asyncio(loop_scope="module")``, and its bot fixtures too)."""
    need_browser(request.param)
    if request.param == "webkit":
        yield Browser("webkit")
        return
    async with chromium() as launched:
        yield Browser("chromium", launched)


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


@asynccontextmanager
async def engine(name: str):
    """A ``Browser`` outside pytest (the bench)."""
    if name == "webkit":
        reason = missing_browser("webkit")
        if reason is not None:
            raise RuntimeError(reason)
        yield Browser("webkit")
        return
    async with chromium() as launched:
        yield Browser("chromium", launched)


# The controls one may see now, by their role and accessible name, as a screen reader reads them
# out: [index among `button, [role=button]`, name, whether it may be tapped (enabled)].
CONTROLS = """() => [...document.querySelectorAll("button, [role=button]")].map((b, i) => [i,
    (b.getAttribute("aria-label") || b.textContent || "").trim(),
    !b.disabled && b.getAttribute("aria-disabled") !== "true",
    b.getClientRects().length > 0 && getComputedStyle(b).visibility !== "hidden" && !b.closest("[hidden]")])
  .filter(([, name, , shown]) => shown && name).map(([i, name, enabled]) => [i, name, enabled])"""
# A control made ready for a tap: in view, marked, its rectangle (CSS px of the viewport).
MARK = """(i) => { document.querySelectorAll("[data-tap]").forEach((n) => n.removeAttribute("data-tap"));
  const b = document.querySelectorAll("button, [role=button]")[i];
  b.scrollIntoView({ block: "center", inline: "center" });
  b.setAttribute("data-tap", "1");
  const r = b.getBoundingClientRect();
  return [r.left, r.top, r.width, r.height]; }"""
SHOWN = """([selector, visible]) => { const n = document.querySelector(selector);
  return Boolean(n) && (!visible || (n.getClientRects().length > 0 && getComputedStyle(n).visibility !== "hidden")); }"""


# Two touch pointers on an element's centre, moved apart through the spreads (px either side).
PINCH = """([selector, spreads]) => { const n = document.querySelector(selector); const r = n.getBoundingClientRect();
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  const send = (type, id, x) => n.dispatchEvent(new PointerEvent(type, { pointerId: id, pointerType: "touch",
    isPrimary: id === 1, clientX: x, clientY: cy, bubbles: true, cancelable: true, buttons: type === "pointerup" ? 0 : 1 }));
  send("pointerdown", 1, cx - spreads[0]); send("pointerdown", 2, cx + spreads[0]);
  for (const s of spreads.slice(1)) { send("pointermove", 1, cx - s); send("pointermove", 2, cx + s); }
  send("pointerup", 1, cx - spreads.at(-1)); send("pointerup", 2, cx + spreads.at(-1)); return true; }"""


def _matches(pattern, name: str) -> bool:
    return name == pattern if isinstance(pattern, str) else bool(pattern.search(name))


class Phone:
    """One person's Telegram with the Mini App open (390 × 844 unless told): every JSON answer it
    got is kept (to check that none holds another's rack), and what went wrong on the page."""

    engine = "?"

    def __init__(self, raw_init_data: str):
        self.raw = raw_init_data
        self.errors: list[str] = []  # the engine's own report (Chromium's page errors)
        self.front: Front | None = None

    @classmethod
    async def open(cls, browser: Browser, url: str, raw_init_data: str, *, forge=None, stub: str = STUB,
                   size: tuple[int, int] = PHONE, front: bool = False) -> "Phone":
        """The page at ``url`` (a WebKit phone, or ``front``: through a front, which counts)."""
        kind = WebKitPhone if browser.name == "webkit" else ChromiumPhone
        phone = kind(raw_init_data)
        if browser.name == "webkit" or front:
            upstream = re.match(r"https?://[^/]+", url)[0]
            phone.front = await Front(upstream, stub_script(raw_init_data, stub), forge).start()
            url = phone.front.url(url)
        await phone._start(browser, url, size, forge, stub)
        return phone

    # ---- what the page shows --------------------------------------------------------------------

    @property
    def answers(self) -> list[tuple[int, str, str]]:
        """(status, url, body) of every answer of the API the page got."""
        return self.front.answers if self.front else self._answers

    @property
    def api_statuses(self) -> list[int]:
        return [status for status, _, _ in self.answers]

    async def page_errors(self) -> list[str]:
        """Everything that went wrong on the page so far (the engine's and the page's own note)."""
        noted = await self.js("() => window.__errors || []")
        return self.errors + [e for e in noted if e not in self.errors]

    async def text(self, selector: str) -> str:
        return await self.js("(s) => { const n = document.querySelector(s); return n ? n.innerText : null; }", selector)

    async def count(self, selector: str) -> int:
        return await self.js("(s) => document.querySelectorAll(s).length", selector)

    async def attribute(self, selector: str, name: str) -> str | None:
        return await self.js("([s, a]) => { const n = document.querySelector(s); return n ? n.getAttribute(a) : null; }",
                             [selector, name])

    async def box(self, selector: str) -> dict:
        x, y, w, h = await self.js("(s) => { const r = document.querySelector(s).getBoundingClientRect();"
                                   " return [r.left, r.top, r.width, r.height]; }", selector)
        return {"x": x, "y": y, "width": w, "height": h}

    async def controls(self) -> list[tuple[int, str, bool]]:
        return [tuple(c) for c in await self.js(CONTROLS)]

    async def named_buttons(self) -> list[str]:
        """The accessible names of the controls one may tap now: every visible, enabled button
        (a <button> or role="button"), as a screen reader would read them out."""
        return [name for _, name, enabled in await self.controls() if enabled]

    async def button_count(self, name) -> int:
        """How many visible controls have this name (enabled or not)."""
        return sum(_matches(name, n) for _, n, _ in await self.controls())

    async def button_text(self, name) -> str:
        return next(n for _, n, _ in await self.controls() if _matches(name, n))

    # ---- waiting ---------------------------------------------------------------------------------

    async def wait(self, selector: str, *, state: str = "visible", timeout: float = 15_000) -> None:
        """Until ``selector`` matches (and shows, unless ``state="attached"``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout / 1000
        while not await self.js(SHOWN, [selector, state == "visible"]):
            if loop.time() > deadline:
                raise AssertionError(f"{self.engine}: no {selector} within {timeout / 1000:.0f} s; "
                                     f"page errors {await self.page_errors()}; {self._requests()}")
            await asyncio.sleep(0.05)

    async def settled(self, timeout: float = 15_000) -> None:
        """Until no request a tap made is under way (the page counts them from the tap itself:
        body[data-asking]) and the page has drawn what they answered."""
        await self.wait("body:not([data-asking]), body[data-asking='0']", state="attached", timeout=timeout)
        await self.js(self.DRAWN)

    # What the answers' callbacks still had to do (a task later: the page draws no frames of its own).
    DRAWN = "() => new Promise((done) => requestAnimationFrame(() => setTimeout(() => done(true), 0)))"

    async def version(self) -> int:
        return int(await self.attribute("body", "data-version") or -1)

    async def ready(self, timeout: float = 15_000) -> None:
        await self.wait("body[data-ready='1']", state="attached", timeout=timeout)

    async def turn(self) -> int:
        return int(await self.attribute("body", "data-turn") or -1)

    async def wait_turn_past(self, turn: int, timeout: float = 15_000) -> None:
        """Until the page shows a later turn."""
        await self.wait(f"body[data-turn]:not([data-turn='{turn}'])", state="attached", timeout=timeout)

    async def wait_version_past(self, version: int, timeout: float = 15_000) -> None:
        await self.wait(f"body[data-version]:not([data-version='{version}'])", state="attached", timeout=timeout)

    # ---- tapping ---------------------------------------------------------------------------------

    async def press(self, name, timeout: float = 15_000) -> None:
        """A tap on the first enabled control with this name (a string: the whole name; or a
        pattern), once there is one; not waiting for what it asks."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout / 1000
        while True:
            found = next((i for i, n, enabled in await self.controls() if enabled and _matches(name, n)), None)
            if found is not None:
                x, y, w, h = await self.js(MARK, found)
                if await self._tap_marked(x + w / 2, y + h / 2):
                    return
                if loop.time() > deadline:
                    raise AssertionError(f"{self.engine}: the control {name!r} could not be tapped")
                continue  # redrawn between finding and tapping it (a long poll's answer), or not still yet
            if loop.time() > deadline:
                raise AssertionError(f"{self.engine}: no control {name!r} to tap: {await self.named_buttons()}")
            await asyncio.sleep(0.05)

    async def tap(self, name) -> None:
        await self.press(name)
        await self.settled()

    def _requests(self) -> str:
        passed = self.front.passed if self.front else []
        return "requests: " + ", ".join(f"{p.method} {p.path} {p.status}" for p in passed[-20:])

    async def close(self) -> None:
        await self._close()
        if self.front is not None:
            await self.front.close()


class ChromiumPhone(Phone):
    engine = "chromium"

    async def _start(self, browser: Browser, url: str, size, forge, stub) -> None:
        self._answers: list[tuple[int, str, str]] = []
        context = await browser.chromium.new_context(viewport={"width": size[0], "height": size[1]},
                                                     device_scale_factor=2, has_touch=True, is_mobile=True)
        page = self.page = await context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        raw = self.raw

        async def telegram_js(route):
            await route.fulfill(status=200, content_type="text/javascript", body=stub_script(raw, stub))

        if self.front is None:  # (a route turns Chromium's cache off: a front serves the stub instead)
            await page.route(TELEGRAM_JS, telegram_js)
        if forge is not None and self.front is None:
            async def forged(route):
                headers = dict(route.request.headers)
                headers["authorization"] = "tma " + forge(raw)
                await route.continue_(headers=headers)
            await page.route("**/app/api/**", forged)

        async def noted(response):
            if "/app/api/" in response.url and self.front is None:
                try:
                    body = await response.text()
                except Exception:  # a long poll cut when the page closes
                    body = ""
                self._answers.append((response.status, response.url, body))

        page.on("response", noted)
        await page.goto(url)

    async def js(self, function: str, arg=None):
        return await self.page.evaluate(function, arg)

    async def wait(self, selector: str, *, state: str = "visible", timeout: float = 15_000) -> None:
        await self.page.wait_for_selector(selector, state=state, timeout=timeout)

    async def _tap_marked(self, x: float, y: float) -> bool:
        """Tapped (Playwright's checks: shown, still, enabled); False when it could not be within
        a few seconds, e.g. the marked control was replaced meanwhile (a long poll's answer
        redrew it): then it is found again."""
        try:
            await self.page.locator("[data-tap]").click(timeout=5_000)
        except PlaywrightTimeout:
            return False
        return True

    async def goto(self, url: str) -> None:
        await self.page.goto(self.front.url(url) if self.front else url)

    async def wheel(self, selector: str, delta_y: int) -> None:
        box = await self.box(selector)
        await self.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        await self.page.mouse.wheel(0, delta_y)

    async def pinch(self, selector: str, spreads: list[float]) -> None:
        """Two fingers on the element's centre moved apart (touch events through the DevTools
        protocol, as a phone sends them)."""
        box = await self.box(selector)
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        touch = await self.page.context.new_cdp_session(self.page)

        def fingers(spread: float) -> list[dict]:
            return [{"x": cx - spread, "y": cy, "id": 1}, {"x": cx + spread, "y": cy, "id": 2}]
        await touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": fingers(spreads[0])})
        for spread in spreads[1:]:
            await touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": fingers(spread)})
        await touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    async def screenshot(self, path: str) -> None:
        await self.page.screenshot(path=path)

    async def _close(self) -> None:
        await self.page.context.close()


class WebKitPhone(Phone):
    engine = "webkit"

    async def _start(self, browser: Browser, url: str, size, forge, stub) -> None:
        self.session = await webkit.Session.start(*size)
        try:
            await self.goto(url)
            width = await self.js("() => document.documentElement.clientWidth")
            assert width == size[0], f"MiniBrowser's page is {width} px wide, not {size[0]}"
        except BaseException:
            await self.session.close()
            raise

    async def js(self, function: str, arg=None):
        return await self.session.js(function, arg)

    async def goto(self, url: str) -> None:
        await self.session.call(self.session.driver.get, self.front.url(url))

    async def _tap_marked(self, x: float, y: float) -> bool:
        await self.session.tap(x, y)  # a finger at that point: whatever is drawn there now
        return True

    async def wheel(self, selector: str, delta_y: int) -> None:
        box = await self.box(selector)
        await self.session.wheel(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, delta_y)

    async def pinch(self, selector: str, spreads: list[float]) -> None:
        """WebKitGTK's driver turns a touch action into a mouse (one pointer, never two): the two
        fingers' pointer events are dispatched on the element instead, as WebKit on a phone
        delivers them (Chromium's run sends real touches)."""
        await self.js(PINCH, [selector, spreads])

    async def screenshot(self, path: str) -> None:
        await self.session.call(self.session.driver.save_screenshot, path)

    async def _close(self) -> None:
        await self.session.close()


async def seen_to_the_end(phone: Phone, over: str, runner, game, seat: int) -> int:
    """The page shows the game over and its places, nothing went wrong on it, no answer it got
    held another seat's secret, and the group got the results. How many answers held the game."""
    await phone.wait(".story .result")
    assert over in await phone.text("#status")
    assert not await phone.page_errors(), await phone.page_errors()
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
    await phone.wait("#tg-main:not([hidden])")


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
        assert names, f"nothing to tap on: {await phone.text('body')!r}"
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
