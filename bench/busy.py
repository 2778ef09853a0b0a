"""``python -m bench busy [--seed N] [--quick]``: how a busy group is served at Telegram's pace for
a group (20 writes a minute, 1 s apart); the bot runs in this process against the fake Bot API and
people act in real time. Figures, not asserts. Four games of lucky:

1. Human pace: 3 players, all with the private chat open, a move 1.5-4 s after the last. A turn is
   due a ping when it passes to someone who pressed no button of the game for 15 s (the bot's
   quiet time): were those pings sent before the person moved, how soon, and none after?
2. Slow turns: 4 players, Dan never opened the private chat (a mention in the group pings him),
   no quiet time, every turn lasting 6 s or more: did each person's phone ring within 6 s?
3. Commands: moves every 1-2 s keep the table's edits filling the group's budget while four
   members take turns writing a command every ~5 s: command → its reply.
4. A flood: one who is not playing writes 50 commands in 2 s; the player to move presses amid
   it: that press and the next two → their answers, table re-posts and replies the flood got.

Times are on ``time.monotonic()``, the clock the fake stamps requests with. A turn passes at the
press that passed it, as its person sees it, so a ping's delay includes the handling of that press.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import math
import pathlib
import random
import tempfile
import time

from bench.measure import TracebackCounter, percentile
from engines import lucky
from tests.bot.harness import BotRunner, Player, start_game
from tests.fakebotapi import FakeBotAPI

GROUP = -1009000
PACE = dict(group_writes_per_minute=20, group_fast_spacing=1.0)  # Telegram's pace for a group
QUIET = 15.0  # the bot's default ping_quiet_seconds
TURN = 6.0  # scenario 2: the least a turn lasts, and how soon its ping should ring
WINDOW = 10.0  # bot/updates/floods.py's CommandGuard pause: a member's next command within it waits more
# scenario 3's commands, and how each one's reply begins (the replies quote nothing: matched by text)
COMMANDS = {"/rules trio": "<b>Trio</b>", "/help": "<b>tablebot</b>", "/rules lucky": "<b>Totally Genial</b>",
            "/rules cones": "<b>Cones</b>", "/rules genial": "<b>Ingenious</b>"}
FLOOD = ("/help", "/board", "/new mixed", "/rules trio")


def _spread(label: str, seconds: list[float]) -> tuple[str, float, str]:
    """A row of delays in ms: p50, then p99 and the max (NaN when there are none)."""
    p99, top = percentile(seconds, 0.99) * 1000, max(seconds, default=math.nan) * 1000
    return f"{label}, p50 / p99 / max", percentile(seconds, 0.5) * 1000, f"ms / {p99:.1f} / {top:.1f} ms"


@contextlib.asynccontextmanager
async def _bot(**config):
    """A fresh fake Telegram with the group in it, and the bot at Telegram's pace."""
    fake = FakeBotAPI()
    fake.start()
    fake.add_group(GROUP, "Busy night")
    runner = await BotRunner(fake, pathlib.Path(tempfile.mkdtemp()) / "busy.sqlite3", **PACE, **config).start()
    try:
        yield fake, runner
    finally:
        await runner.stop()
        fake.stop()


class Table:
    """A running lucky game in the group, and the presses made on its table (the only presses of
    the game made here; the bot's quiet time counts no Join or Start either)."""

    def __init__(self, fake, runner, game_id: int, rng: random.Random):
        self.fake, self.runner, self.game_id, self.rng = fake, runner, game_id, rng
        self.presses: list[tuple[float, int, str]] = []  # (when, user, query id)
        self.refused = 0

    async def move(self, draw: float = 0.6) -> tuple[float, str, int, int | None] | None:
        """The player to move makes a move that does not end the game, and it is answered: a draw
        with probability ``draw``, else bank or take, which pass the turn (so that it changes
        hands). (When pressed, query id, who, who moves next); None: only an ending move is left."""
        game = await self.runner.game(self.game_id)
        state = await self.runner.state(self.game_id)
        seat = lucky.current_player(state)  # None once the game is over: no legal actions then
        fits = [a for a in lucky.legal_actions(state, seat) if lucky.outcome(lucky.apply(state, seat, a)[0]) is None]
        if not fits:
            return None
        draws = [a for a in fits if isinstance(a, lucky.Draw)]
        others = [a for a in fits if not isinstance(a, lucky.Draw)]
        action = draws[0] if draws and (not others or self.rng.random() < draw) else others[0]
        user = game.seats[seat].user_id
        at, qid = await self.press(user, f"{game.short_id}:{lucky.turn(state)}:{lucky.encode_action(action)}")
        await self.fake.wait_for(lambda: self.fake.callback_answer(qid), timeout=30)
        after = await self.runner.state(self.game_id)  # a move is stored before its answer
        self.refused += lucky.turn(after) == lucky.turn(state)
        nxt = lucky.current_player(after)
        return at, qid, user, None if nxt is None else game.seats[nxt].user_id

    async def press(self, user: int, data: str) -> tuple[float, str]:
        """Press on the table as it is now (a /board re-post moves it); (when, query id)."""
        while True:
            table_msg = (await self.runner.game(self.game_id)).table_msg
            at = time.monotonic()
            with contextlib.suppress(ValueError):  # the old table is gone, the new one not known yet
                qid = self.fake.user_presses(user, GROUP, table_msg, data)
                self.presses.append((at, user, qid))
                return at, qid
            await asyncio.sleep(0.05)

    def next_press(self, user: int, after: float) -> float:
        return min((at for at, u, _ in self.presses if u == user and at > after), default=math.inf)

    def last_press(self, user: int, before: float) -> float:
        return max((at for at, u, _ in self.presses if u == user and at < before), default=-math.inf)


async def open_lucky(fake, runner, names: tuple[str, ...], rng: random.Random, *, no_private=()) -> Table:
    """A lucky game of ``names`` (users 1, 2, ...), all but ``no_private`` with the private chat open."""
    people = [Player(fake, runner, i + 1, n, opened_private=n not in no_private) for i, n in enumerate(names)]
    for p in [p for p in people if p.name not in no_private]:
        await p.start_private()
    game = await start_game(fake, runner, GROUP, "lucky", people)
    return Table(fake, runner, game.id, rng)


async def play(table: Table, more, gap) -> list[tuple[float, int]]:
    """Moves while ``more(moves made so far)``, each ``gap(whether the last passed the turn)``
    seconds after the last was pressed (at once if its answer came later). The turns passed:
    (when, to whom)."""
    made, passes = 0, []
    next_at = time.monotonic()
    while more(made):
        await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        moved = await table.move()
        if moved is None:
            break
        at, _, mover, to = moved
        made, passed = made + 1, to not in (None, mover)
        if passed:
            passes.append((at, to))
        next_at = at + gap(passed)
    return passes


def ping_times(fake, user: int) -> list[float]:
    """When turn pings for ``user`` reached Telegram: in their private chat, or a mention in the group."""
    mention = f"tg://user?id={user}"
    return sorted(r.time for r in fake.calls("sendMessage", user) + fake.calls("sendMessage", GROUP)
                  if r.ok and (r.params.get("text") or "").startswith("🔔")
                  and (r.chat_id == user or mention in r.params["text"]))


def rung(fake, table: Table, passes: list[tuple[float, int]]) -> tuple[list[float | None], int]:
    """Per turn passed (when, to whom): seconds to the first ping of that person after it and
    before they moved (None: none); and how many pings went out after their person had moved."""
    delays, late = [], 0
    for at, user in passes:
        moved = table.next_press(user, at)
        delays.append(next((p - at for p in ping_times(fake, user) if at < p < moved), None))
    for user in {u for _, u in passes}:
        theirs = sorted(at for at, u in passes if u == user)
        for ping in ping_times(fake, user):
            passed = [at for at in theirs if at < ping]  # the turn this ping was for
            late += bool(passed) and table.next_press(user, passed[-1]) < ping
    return delays, late


async def human_pace(seed: int, moves: int) -> list[tuple[str, float, str]]:
    async with _bot(ping_quiet_seconds=QUIET) as (fake, runner):
        rng = random.Random(seed)
        table = await open_lucky(fake, runner, ("Anna", "Boris", "Clara"), rng)
        passes = await play(table, lambda n: n < moves, lambda passed: rng.uniform(1.5, 4.0))
        await asyncio.sleep(5)  # the last ping on its way
    delays, late = rung(fake, table, passes)
    due = [at - table.last_press(user, at) >= QUIET for at, user in passes]
    arrived = [d for d, is_due in zip(delays, due) if is_due and d is not None]
    label = "1 human pace"
    return [
        (f"{label}, 3 players, a move 1.5-4 s after the last: moves", float(len(table.presses)),
         f"moves ({table.refused} refused)"),
        (f"{label}: turns passed", float(len(passes)), "turns"),
        (f"{label}: turns due a ping (to someone {QUIET:.0f} s without a press)", float(sum(due)), "turns"),
        (f"{label}:   of them, pinged before they moved", float(len(arrived)), "turns"),
        (f"{label}: pings sent late (after the person had moved)", float(late), "pings"),
        (f"{label}: pings not due (the person had pressed within {QUIET:.0f} s)",
         float(sum(d is not None and not is_due for d, is_due in zip(delays, due))), "pings"),
        _spread(f"{label}: ping delay after the turn passed", arrived),
    ]


async def slow_turns(seed: int, seconds: float) -> list[tuple[str, float, str]]:
    async with _bot(ping_quiet_seconds=0.0) as (fake, runner):
        rng = random.Random(seed)
        table = await open_lucky(fake, runner, ("Anna", "Boris", "Clara", "Dan"), rng, no_private=("Dan",))
        start = time.monotonic()
        # the new player taps TURN s after their turn began; a next step of the same turn 1-2 s on
        passes = await play(table, lambda n: time.monotonic() - start < seconds,
                            lambda passed: TURN if passed else rng.uniform(1.0, 2.0))
        await asyncio.sleep(TURN)  # the last turn lasts long enough too
        ended = time.monotonic()
    delays, late = rung(fake, table, passes)
    long = [(user, d) for (at, user), d in zip(passes, delays)
            if min(table.next_press(user, at), ended) - at >= TURN - 0.05]
    rang = [d for _, d in long if d is not None and d <= TURN]
    dan = [d for user, d in long if user == 4]  # Dan: no private chat, pinged in the group
    label = "2 slow turns"
    return [
        (f"{label}, 4 players, Dan without the private chat, no quiet: turns >= {TURN:.0f} s", float(len(long)),
         f"turns ({table.refused} moves refused)"),
        (f"{label}:   of them, rung within {TURN:.0f} s", float(len(rang)), "turns"),
        (f"{label}: Dan's turns (pinged by a mention in the group)", float(len(dan)), "turns"),
        (f"{label}:   of them, rung within {TURN:.0f} s", float(sum(d is not None and d <= TURN for d in dan)), "turns"),
        (f"{label}: pings sent late (after the person had moved)", float(late), "pings"),
        _spread(f"{label}: ping delay after the turn passed", rang),
        _spread(f"{label}: Dan's mention delay", [d for d in dan if d is not None]),
    ]


def reply_delays(fake, asked: list[tuple[float, int, str]]) -> list[float | None]:
    """Per command, seconds to the first later message of the bot in the group that answers it;
    None: none came. One message may answer two askers of the same command (the bot sends a reply
    once while the same one waits to go out: whoever asked meanwhile sees it come after)."""
    sent = [(r.time, r.params.get("text") or "") for r in fake.calls("sendMessage", GROUP) if r.ok]
    return [next((t - at for t, text in sent if t > at and text.startswith(COMMANDS[command])), None)
            for at, _, command in asked]


async def commands(seed: int, seconds: float) -> list[tuple[str, float, str]]:
    async with _bot(ping_quiet_seconds=QUIET) as (fake, runner):
        table = await open_lucky(fake, runner, ("Anna", "Boris", "Clara"), random.Random(seed))
        members = [Player(fake, runner, 20 + i, n).id for i, n in enumerate(("Dora", "Emil", "Fay", "Gus"))]
        asked: list[tuple[float, int, str]] = []  # (when, member, command)
        talk = random.Random(seed + 1)  # its own: two tasks drawing from one would race

        async def ask() -> None:
            start = time.monotonic()
            while time.monotonic() - start < seconds:  # members in turn, a different command each time
                k = len(asked)
                asked.append((time.monotonic(), members[k % len(members)], list(COMMANDS)[k % len(COMMANDS)]))
                fake.user_sends(asked[-1][1], GROUP, asked[-1][2])
                await asyncio.sleep(talk.uniform(4.0, 6.0))
        asking = asyncio.create_task(ask())  # the table stays busy for as long as people talk
        await play(table, lambda n: not asking.done(), lambda passed: table.rng.uniform(1.0, 2.0))
        await asking
        busy_until = time.monotonic()
        await asyncio.sleep(30)  # no more moves: what waited behind the table may go now
    delays = reply_delays(fake, asked)
    got = [d for d in delays if d is not None]
    # a member's first command in WINDOW s is served before the table; their next ones are not
    first = [not any(m == member and at - WINDOW < t < at for t, m, _ in asked) for at, member, _ in asked]
    split = {kind: [d for d, f in zip(delays, first) if f == kind and d is not None] for kind in (True, False)}
    label = "3 commands"
    return [
        (f"{label}, moves every 1-2 s, a command every ~5 s: commands", float(len(asked)),
         f"commands ({len(table.presses)} moves meanwhile)"),
        _spread(f"{label}: command → its reply", got),
        (f"{label}: no reply (even 30 s after the moves stopped)", float(len(delays) - len(got)), "commands"),
        (f"{label}: replied only after the moves stopped", float(sum(
            at + d > busy_until for (at, _, _), d in zip(asked, delays) if d is not None)), "replies"),
        _spread(f"{label}:   a member's first in {WINDOW:.0f} s ({sum(first)}): reply", split[True]),
        _spread(f"{label}:   a member's next in {WINDOW:.0f} s ({len(first) - sum(first)}): reply", split[False]),
        (f"{label}: most writes to the group in a minute", float(fake.writes_per_minute(GROUP)), "writes"),
    ]


def answered_in(fake, qid: str, at: float) -> float:
    """Milliseconds from a press to its answerCallbackQuery reaching Telegram (NaN: never)."""
    times = [r.time for r in fake.calls("answerCallbackQuery") if r.params.get("callback_query_id") == qid]
    return (min(times) - at) * 1000 if times else math.nan


async def flood(seed: int) -> list[tuple[str, float, str]]:
    async with _bot(ping_quiet_seconds=QUIET) as (fake, runner):
        table = await open_lucky(fake, runner, ("Anna", "Boris"), random.Random(seed))
        eve = Player(fake, runner, 9, "Eve")
        await play(table, lambda n: n < 3, lambda passed: 1.5)  # a game under way
        await asyncio.sleep(1.5)
        started = time.monotonic()
        middle = None
        for i in range(50):  # 50 commands in 2 s
            fake.user_sends(eve.id, GROUP, FLOOD[i % len(FLOOD)])
            if i == 25:  # the player to move presses in the middle of it
                middle = asyncio.create_task(table.move())
            await asyncio.sleep(0.04)
        moves = [await middle]
        for _ in range(2):  # the next two presses of the game, at a human pace
            await asyncio.sleep(1.5)
            moves.append(await table.move())
        with contextlib.suppress(AssertionError):
            await runner.idle(timeout=120)  # what the flood caused has gone out
    ms = [answered_in(fake, qid, at) for at, qid, _, _ in moves]
    reposts = sum(r.ok and r.time > started for r in fake.calls("sendPhoto", GROUP))
    replies = [r.params.get("text") or "" for r in fake.calls("sendMessage", GROUP)
               if r.ok and r.time > started and not (r.params.get("text") or "").startswith("🔔")]
    label = "4 flood"
    return [
        (f"{label}, 50 commands in 2 s by one who is not playing: a press amid it → answer", ms[0], "ms"),
        (f"{label}: the next two presses → their answers", ms[1], f"ms / {ms[2]:.1f} ms"),
        (f"{label}: table re-posts (sendPhoto to the group)", float(reposts), "photos"),
        (f"{label}: replies to the flooder", float(len(replies)),
         f"messages ({sum('a lot of commands' in t for t in replies)} saying slow down)"),
        (f"{label}: moves refused", float(table.refused), "moves"),
    ]


async def _all(seed: int, quick: bool) -> list[tuple[str, float, str]]:
    counter = TracebackCounter()
    shown = logging.StreamHandler()  # the errors themselves on stderr (a handler silences the default)
    shown.setLevel(logging.ERROR)
    for handler in (counter, shown):
        logging.getLogger().addHandler(handler)
    try:
        rows = await human_pace(seed, 25 if quick else 60)
        rows += await slow_turns(seed, 60 if quick else 150)
        rows += await commands(seed, 50 if quick else 130)
        rows += await flood(seed)
    finally:
        for handler in (counter, shown):
            logging.getLogger().removeHandler(handler)
    return rows + [("tracebacks in the bot's log", float(counter.tracebacks), "tracebacks")]


def figures(argv: list[str] | None = None) -> list[tuple[str, float, str]]:
    parser = argparse.ArgumentParser(prog="python -m bench busy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="shorter scenarios (about a minute each)")
    args = parser.parse_args(argv or [])
    return asyncio.run(_all(args.seed, args.quick))
