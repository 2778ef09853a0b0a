"""``python -m bench route``: the path one press takes through ``bot/``, counted.

A 2-player cones game runs against the fake Bot API (tests/fakebotapi); the press that plays a
move (✅ under the table) is traced from the moment its update arrives until the bot is idle
again, the group table's edit included. Counted are the calls of functions defined in ``bot/``
(not their resumptions after an ``await``), as a route of files:

- stops: calls into ``bot/``;
- files: the distinct files among them;
- returns: calls that enter a file the route had left before (back-and-forth between modules).

design-review-2 counted 78 stops, 14 files and 42 returns this way before the reshaping.
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


class Route:
    """The calls into bot/ while it is switched on (sys.setprofile, this thread only: the
    database's thread and the drawing processes are outside the route)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def _profile(self, frame, event, arg) -> None:
        if event != "call":
            return
        path = frame.f_code.co_filename
        if not path.startswith(_BOT_DIR):
            return
        if frame.f_lasti > 0:  # a coroutine resumed after an await, not a new call
            return
        caller = frame.f_back.f_code.co_filename if frame.f_back is not None else ""
        if caller.startswith(_TESTS_DIR):  # the harness asking whether the bot is idle
            return
        self.calls.append((path[len(_BOT_DIR):], frame.f_code.co_name))

    def __enter__(self) -> "Route":
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc) -> None:
        sys.setprofile(None)

    def figures(self) -> tuple[int, int, int]:
        files: list[str] = []
        returns = 0
        for path, _ in self.calls:
            if files and files[-1] == path:
                continue
            if path in files:
                returns += 1
            files.append(path)
        return len(self.calls), len(set(files)), returns


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
                pile = next(b["callback_data"] for row in table.reply_markup["inline_keyboard"] for b in row
                            if b["text"].isdigit())
                await mover.press(group, table.message_id, pile)
                table = fake.message(group, game.table_msg)
                confirm = button_data(table, text="✅")
                with Route() as route:
                    await mover.press(group, table.message_id, confirm)
                assert cones.turn(await runner.state(game.id)) == cones.turn(state) + 1, "the move was played"
                return route
            finally:
                await runner.stop()
    finally:
        fake.stop()


def figures(argv: list[str]):
    route = asyncio.run(_one_press())
    stops, files, returns = route.figures()
    if "-v" in argv:
        for path, name in route.calls:
            print(f"  {path}:{name}")
    yield "one cones press (✅) through bot/: stops", stops, "calls"
    yield "  files", files, "files"
    yield "  returns into a file already left", returns, "calls"
