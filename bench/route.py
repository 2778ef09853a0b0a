"""``python -m bench route``: the path one press takes through ``bot/``, counted.

A 2-player cones game runs against the fake Bot API (tests/fakebotapi); the press that plays a
move (a pile under the table, or the ✅ of its preview) is traced from the moment its update arrives until the bot is idle
again, the group table's edit included. Counted are the calls of functions defined in ``bot/``
(not their resumptions after an ``await``), as a route of files:

- stops: calls into ``bot/``;
- files: the distinct files among them;
- returns: calls that enter a file the route had left before (back-and-forth between modules).

Counted twice: every call, and the platform's own route, without property reads, comprehensions
and the leaf modules that only word and draw (the game adapters, catalogues, keyboards and
button actions, texts, refusals and the store's record classes). design-review-2 counted 78 stops, 14 files and 42
returns by hand before the reshaping.

Also counted, for the same press: the rooms of ``bot/`` it crosses (a package, or a module at the
top of ``bot/``) and how often it comes back into a room it had left; the database transactions
it commits (the store's own transactions, whatever called them); and the Bot API calls it makes
(answer, edits, messages; the long poll not counted).
"""
from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

import bot

_BOT_DIR = os.path.dirname(os.path.abspath(bot.__file__)) + os.sep
_TESTS_DIR = os.path.join(os.path.dirname(os.path.dirname(_BOT_DIR)), "tests") + os.sep
# Modules that only word and draw, or hold records: leaves of the route, not stops on it.
_LEAVES = ("i18n.py", "keyboard.py", "actions.py", "texts.py", "refusals.py", "store.py", "lobby_view.py")


def _property_codes() -> set:
    """The code of every property getter in bot/ (a read of ``match.turn`` is not a stop)."""
    import inspect
    codes = set()
    for name, module in list(sys.modules.items()):
        if not (name == "bot" or name.startswith("bot.")) or module is None:
            continue
        for _, cls in inspect.getmembers(module, inspect.isclass):
            for value in vars(cls).values():
                if isinstance(value, property) and value.fget is not None and hasattr(value.fget, "__code__"):
                    codes.add(value.fget.__code__)
    return codes


class Route:
    """The calls into bot/ while it is switched on (sys.setprofile, this thread only: the
    database's thread and the drawing processes are outside the route)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self._frames: dict[int, object] = {}  # every frame seen (kept, so that no id is reused)
        self.coded: list[tuple[str, str, object]] = []
        self.properties = _property_codes()

    def _profile(self, frame, event, arg) -> None:
        if event != "call":
            return
        path = frame.f_code.co_filename
        if not path.startswith(_BOT_DIR):
            return
        if id(frame) in self._frames:  # a coroutine resumed after an await, not a new call
            return
        self._frames[id(frame)] = frame
        caller = frame.f_back.f_code.co_filename if frame.f_back is not None else ""
        if caller.startswith(_TESTS_DIR):  # the harness asking whether the bot is idle
            return
        self.calls.append((path[len(_BOT_DIR):], frame.f_code.co_name))
        self.coded.append((path[len(_BOT_DIR):], frame.f_code.co_name, frame.f_code))

    def __enter__(self) -> "Route":
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc) -> None:
        sys.setprofile(None)

    def platform(self) -> list[tuple[str, str]]:
        """The calls without property reads, comprehensions and leaf modules."""
        return [(path, name) for path, name, code in self.coded
                if code not in self.properties and not name.startswith("<") and not _leaf(path)]

    @staticmethod
    def figures(calls: list[tuple[str, str]]) -> tuple[int, int, int]:
        files: list[str] = []
        returns = 0
        for path, _ in calls:
            if files and files[-1] == path:
                continue
            if path in files:
                returns += 1
            files.append(path)
        return len(calls), len(set(files)), returns

    def rooms(self) -> tuple[int, int]:
        """The rooms of bot/ (a package, or a module at its top) the platform's route enters, and
        how often it enters one it had left."""
        return self.figures([(_room(path), name) for path, name in self.platform()])[1:]


def _leaf(path: str) -> bool:
    """Whether a file of bot/ only words and draws (by its name, so that the figures of the flat
    layout before the packages can be counted by the same rule)."""
    return path.startswith("games/") or path.rsplit("/", 1)[-1] in _LEAVES


def _room(path: str) -> str:
    return path.split("/", 1)[0] if "/" in path else path


def _store_method(frame) -> str:
    """The store's method a transaction was begun for: the outermost caller inside the store."""
    name = "?"
    while frame is not None and ("/storage/" in frame.f_code.co_filename
                                 or "/bot/store" in frame.f_code.co_filename):
        name = frame.f_code.co_name
        frame = frame.f_back
    return name


class Io:
    """The database transactions and the Bot API calls made while it is switched on."""

    def __init__(self, store, fake) -> None:
        self.store, self.fake = store, fake
        self.transactions: list[str] = []

    def __enter__(self) -> "Io":
        import inspect
        self._calls = len(self.fake.calls())
        begin = self.store._transaction
        transactions = self.transactions

        async def counted(*args, **kwargs):
            transactions.append(_store_method(inspect.currentframe().f_back))
            return await begin(*args, **kwargs)
        self.store._transaction = counted
        return self

    def __exit__(self, *exc) -> None:
        del self.store._transaction
        self.api = [c.method for c in self.fake.calls()[self._calls:] if c.method != "getUpdates"]


async def _one_press() -> Route:
    from tests.bot.harness import BotRunner, Player, button_data
    from tests.fakebotapi import FakeBotAPI

    fake = FakeBotAPI()
    fake.start()
    group = -100900
    try:
        with tempfile.TemporaryDirectory() as folder:
            runner = BotRunner(fake, Path(folder) / "route.sqlite3")
            await runner.start()
            try:
                fake.add_group(group, "Route")
                people = [Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")]
                for p in people:
                    await p.start_private()
                await people[0].say(group, "/new cones")
                lobby = fake.last_bot_message(group)
                await people[1].press(group, lobby.message_id, button_data(lobby, text="Join"))
                await people[0].press(group, lobby.message_id, button_data(lobby, text="Start"))
                game = (await runner.games())[0]
                from engines import cones
                state = await runner.state(game.id)
                mover = people[0] if game.seats[cones.current_player(state)].user_id == 1 else people[1]
                table = fake.message(group, game.table_msg)
                colour = next(b["callback_data"] for row in table.reply_markup["inline_keyboard"] for b in row
                              if b.get("callback_data", "").split(":")[-1].startswith("~c."))
                await mover.press(group, table.message_id, colour)
                table = fake.message(group, game.table_msg)
                move = next(b["callback_data"] for row in table.reply_markup["inline_keyboard"] for b in row
                            if b["text"].isdigit())
                if move.split(":")[-1].startswith("~"):  # a pile previewed first: the move is its ✅
                    await mover.press(group, table.message_id, move)
                    table = fake.message(group, game.table_msg)
                    move = button_data(table, text="✅")
                with Route() as route, Io(runner.store, fake) as io:
                    await mover.press(group, table.message_id, move)
                assert cones.turn(await runner.state(game.id)) == cones.turn(state) + 1, "the move was played"
                route.io = io
                return route
            finally:
                await runner.stop()
    finally:
        fake.stop()


def figures(argv: list[str]):
    route = asyncio.run(_one_press())
    if "-v" in argv:
        for path, name in route.platform():
            print(f"  {path}:{name}")
    if "--files" in argv:
        import collections
        for path, n in collections.Counter(p for p, _ in route.platform()).most_common():
            print(f"  {n:4d}  {path}")
    rooms, back = route.rooms()
    yield "one cones press (a move): rooms of bot/ crossed", rooms, "rooms"
    yield "  entries into a room already left", back, "times"
    io = route.io
    yield "  database transactions", len(io.transactions), "transactions (" + ", ".join(io.transactions) + ")"
    yield "  Bot API calls", len(io.api), "calls (" + ", ".join(io.api) + ")"
    for label, calls in (("every call", route.calls), ("the platform's route", route.platform())):
        stops, files, returns = route.figures(calls)
        yield f"one cones press (a move) through bot/, {label}: stops", stops, "calls"
        yield "  files", files, "files"
        yield "  returns into a file already left", returns, "calls"
