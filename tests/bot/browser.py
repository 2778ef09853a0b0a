"""A real headless browser (Debian's chromium through Playwright) opening the Mini App as
Telegram would: ``telegram-web-app.js`` is answered by a stub whose ``initData`` is signed with
the test bot's token, its MainButton a real button on the page (``#tg-main``), its haptics noted.

A browser that cannot start fails the test (no skip): the Mini App is part of the bot.
"""
from __future__ import annotations

import json
import random
from contextlib import asynccontextmanager
from urllib.parse import parse_qsl

from playwright.async_api import async_playwright

from tests.bot.harness import buttons

CHROMIUM = "/usr/bin/chromium"
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


@asynccontextmanager
async def chromium():
    """A headless chromium; raises when it cannot start. (Playwright gives every launch a fresh
    profile of its own, in a temporary directory.)"""
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


def user_of(raw_init_data: str) -> dict:
    return json.loads(dict(parse_qsl(raw_init_data))["user"])


def page_url(fake, seat) -> str:
    """The address the rack message's «On the board» button opens."""
    private = fake.message(seat.user_id, seat.dm_msg)
    (url,) = [b["web_app"]["url"] for b in buttons(private) if "web_app" in b]
    return url


async def tap_a_move(phone: Phone, rng: random.Random | None = None) -> None:
    """Tap a tile that fits somewhere (turning it now and then), a lit cell, then ✅ on
    Telegram's MainButton; or, when the rack may be swapped, Swap or Keep."""
    page = phone.page
    if await page.locator("[data-act='S']").count():
        await page.locator("[data-act='K']" if rng is None or rng.random() < 0.5 else "[data-act='S']").click()
        return
    await choose_a_placement(phone, rng)
    assert "✅" in await page.locator("#tg-main").inner_text()
    await page.locator("#tg-main").click()


async def choose_a_placement(phone: Phone, rng: random.Random | None = None) -> None:
    """Everything of a move but ✅: a tile that fits somewhere (turned now and then), a lit
    cell, until the MainButton offers the move."""
    page = phone.page
    tiles = page.locator(".tile:not([disabled])")
    for k in range(await tiles.count()):
        tile = tiles.nth(k)
        name = await tile.get_attribute("data-tile")
        await tile.click()
        await page.wait_for_selector(f".tile.selected[data-tile='{name}']")
        if rng is not None and rng.random() < 0.3:
            await tile.click()  # turned: another direction lights other cells
        if await page.locator(".cell.lit").count():
            break
    lit = page.locator(".cell.lit")
    await lit.nth(rng.randrange(await lit.count()) if rng is not None else 0).click()
    await page.wait_for_selector("#tg-main:not([hidden])")
