"""WebKit for the browser tests: Debian's WebKitGTK MiniBrowser driven through WebKitWebDriver
(``webkit2gtk-driver``) with selenium, on an Xvfb display (``xvfb``, ``xauth``) that the tests
start themselves. Telegram shows a Mini App in WebKit on iPhone, iPad and Mac.

WebKitWebDriver holds one session at a time, so each phone is a driver and a MiniBrowser of its
own (about half a second to start); one Xvfb serves every phone of a test process. Selenium
blocks, so every call goes to a thread: the bot under test runs in the test's event loop.

Two things of WebKit's driver: an SVG group (a board's cell) is "not interactable" to an element
click when only its children are hit, so a tap is a touch pointer action at the control's centre,
as a finger makes it; and MiniBrowser sizes its window with its frame and toolbar (never under
447 px wide), so it runs full-screen (no toolbar; no window manager: the window keeps its size)
and the page's own width is checked.
"""
from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import socket
import subprocess
import time

from tests.bot.webapp_client import free_port

MINIBROWSER = os.environ.get("TABLEBOT_MINIBROWSER", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
DRIVER = shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"
PACKAGES = "apt-get install webkit2gtk-driver xvfb xauth"
COMMAND_SECONDS = 60  # the longest a driver's command may take (starting a browser takes ~0.5 s)
_display: subprocess.Popen | None = None
_drivers: set[subprocess.Popen] = set()  # still running: ended with the process whatever a test left open
_display_name: str | None = None


def missing() -> str | None:
    """Why WebKit cannot run here (None: it can)."""
    wanted = {"WebKitWebDriver": DRIVER, "MiniBrowser": MINIBROWSER, "Xvfb": shutil.which("Xvfb") or "/usr/bin/Xvfb"}
    absent = [name for name, path in wanted.items() if not (os.path.isfile(path) and os.access(path, os.X_OK))]
    if absent:
        return f"no {', '.join(absent)}: the Mini App's WebKit tests need them ({PACKAGES})"
    try:
        import selenium  # noqa: F401  (the test extra)
    except ImportError:
        return "no selenium: pip install '.[test]'"
    return None


def display() -> str:
    """An Xvfb display for this process's phones, started once (and ended with the process)."""
    global _display, _display_name
    if _display is not None and _display.poll() is None:
        return _display_name
    read, write = os.pipe()
    _display = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                                pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        raise RuntimeError("Xvfb did not start")
    _display_name = f":{number}"
    atexit.register(_display.terminate)
    atexit.register(lambda: [driver.terminate() for driver in list(_drivers)])
    return _display_name


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


class Session:
    """One MiniBrowser under its own WebKitWebDriver: the page at ``width`` × ``height`` CSS px."""

    def __init__(self, driver_process: subprocess.Popen, driver):
        self.process = driver_process
        self.driver = driver

    @classmethod
    async def start(cls, width: int, height: int) -> "Session":
        from selenium import webdriver
        from selenium.webdriver.remote.client_config import ClientConfig
        from selenium.webdriver.remote.remote_connection import RemoteConnection
        from selenium.webdriver.webkitgtk.options import Options
        # No accessibility bus to wait for (a start now and then hung on it), and no compositing:
        # on Xvfb it gets no frames, and animation frames then came three times a second.
        env = {**os.environ, "DISPLAY": display(), "NO_AT_BRIDGE": "1", "GTK_A11Y": "none",
               "WEBKIT_DISABLE_COMPOSITING_MODE": "1"}
        port = free_port()
        process = subprocess.Popen([DRIVER, f"--port={port}"], env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        _drivers.add(process)
        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        options.add_argument("--full-screen")
        deadline = time.monotonic() + 20
        while not _listening(port):  # the driver is still starting
            if time.monotonic() > deadline or process.poll() is not None:
                await asyncio.to_thread(_end, process)
                raise RuntimeError(f"WebKitWebDriver did not start (exit code {process.poll()})")
            await asyncio.sleep(0.05)
        try:
            # Every command with a time-out (selenium's default is none: a browser that never
            # answered held its test, and the run, for ever).
            connection = RemoteConnection(client_config=ClientConfig(f"http://127.0.0.1:{port}",
                                                                     timeout=COMMAND_SECONDS))
            driver = await asyncio.to_thread(webdriver.Remote, command_executor=connection, options=options)
        except BaseException:
            await asyncio.to_thread(_end, process)
            raise
        session = cls(process, driver)
        driver.set_page_load_timeout(30)
        driver.set_script_timeout(30)
        await session.resize(width, height)
        return session

    async def resize(self, width: int, height: int) -> None:
        await asyncio.to_thread(self.driver.set_window_rect, 0, 0, width, height)

    async def call(self, method, *args):
        return await asyncio.to_thread(method, *args)

    async def js(self, function: str, arg=None):
        """``function`` (JavaScript: an arrow function of one argument, maybe async) called in the page."""
        return await asyncio.to_thread(self.driver.execute_script, f"return ({function})(arguments[0])", arg)

    async def tap(self, x: float, y: float) -> None:
        """A finger down and up at (x, y) of the viewport."""
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.actions.pointer_input import PointerInput

        def act():
            actions = ActionBuilder(self.driver, mouse=PointerInput("touch", "finger"))
            actions.pointer_action.move_to_location(int(x), int(y)).pointer_down().pointer_up()
            actions.perform()
        await asyncio.to_thread(act)

    async def wheel(self, x: float, y: float, delta_y: int) -> None:
        from selenium.webdriver import ActionChains
        from selenium.webdriver.common.actions.wheel_input import ScrollOrigin

        def act():
            ActionChains(self.driver).scroll_from_origin(ScrollOrigin.from_viewport(int(x), int(y)), 0, delta_y).perform()
        await asyncio.to_thread(act)

    async def close(self) -> None:
        try:
            await asyncio.to_thread(self.driver.quit)
        finally:
            await asyncio.to_thread(_end, self.process)


def _end(process: subprocess.Popen) -> None:
    """End a driver: terminated, and killed if it does not end within seconds (stuck with its
    browser)."""
    process.terminate()
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)
    _drivers.discard(process)
