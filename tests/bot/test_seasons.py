"""Seasons: which season a moment belongs to, each game's rating per season, /top of the season or
of all time, and a season's end: one message to each group that played in it, none to the
others, once across a restart or a kill at the turn. The bot wired as in bot/app.py over a real
store and a recording messenger, with a clock the test moves."""
from __future__ import annotations

import asyncio
import random
import time

import pytest

from bot.ops.config import ConfigError, from_env
from bot.records.calendar import Calendar, parse, season
from bot.records.season_end import closest, duration
from bot.storage.store import NEWS_LEAVING, GameRecord, RecordSeat
from tests.bot.recording import RecordingMessenger, build_core

GROUP, QUIET, OLD_FRIENDS = -100700, -100701, -100702
HOUR = 3600
NAMES = {1: "Anna", 2: "Boris", 3: "Cleo", 4: "Dora"}


class Clock:
    """The time as the test says it is."""

    def __init__(self, now: float):
        self.now = now

    def __call__(self) -> float:
        return self.now


def record(game_id: int, chat_id: int, ended: float, users=(1, 2), *, kind: str = "cones", places=None,
           scores=None, minutes: float = 10, thread_id: int = 0) -> GameRecord:
    places = places or list(range(1, len(users) + 1))
    scores = scores or [len(users) - i for i in range(len(users))]
    seats = [RecordSeat(i, u, NAMES[u], place=places[i], score=scores[i], team=i) for i, u in enumerate(users)]
    return GameRecord(game_id, kind, chat_id, thread_id, "finished", True, {}, None, ended - minutes * 60, ended, seats)


async def recorded(core, *records: GameRecord) -> None:
    """Games recorded and counted in their seasons, as the bot does at each game's end."""
    for r in records:
        await core.store.record_game(r, [])
        await core.seasons.count(r)


def sent(core, chat_id: int) -> list[str]:
    return [c.text for c in core.messenger.calls if c.chat_id == chat_id and c.method == "sendMessage"]


@pytest.fixture
def clock():
    return Clock(HOUR * 500_000 + 60)  # a minute into an hour: a season of "1h"


@pytest.fixture
async def core(clock):
    built = await build_core(season="1h", clock=clock)
    yield built
    await built.close()


# ---- the calendar ----------------------------------------------------------------------------

def test_a_season_is_a_month_a_week_or_a_length_and_says_its_name():
    march = Calendar("month").at(1805000000)  # 2027-03-14 04:53 UTC, a Sunday
    assert march.key == "2027-03" and march.label("en") == "March 2027" and march.label("ru") == "Март 2027"
    assert time.gmtime(march.start)[:3] == (2027, 3, 1) and time.gmtime(march.end)[:3] == (2027, 4, 1)
    assert Calendar("month").at(march.end).key == "2027-04" and Calendar("month").at(march.end - 1).key == "2027-03"
    assert season("2027-12").end == season("2028-01").start
    week = Calendar("week").at(1805000000)
    assert week.key == "2027-W10" and week.end - week.start == 7 * 86400 and time.gmtime(week.start).tm_wday == 0
    assert week.label("en") == "Week 10, 2027" and week.label("ru") == "Неделя 10, 2027"
    short = Calendar("10m").at(1805000000)
    assert (short.start, short.end) == (1804999800, 1805000400) and short.key == "600s-3008333"
    assert short.label("en") == "2027-03-14 04:50 UTC" and Calendar("90s").at(0).label("en") == "1970-01-01 00:00:00 UTC"
    for key in ("2027-03", "2027-W10", "600s-3008333"):
        assert season(key).key == key
    assert march.grace == 5.0 and Calendar("20s").at(0).grace == 1.0
    assert parse("week") == "week" and parse(" 3d") == 3 * 86400 and parse("12H") == 12 * 3600


@pytest.mark.parametrize("value", ["month", "week", "Week", "10m", "12h", "3d", "30s", " 2 h ", "0", "0m", "1y",
                                   "monthly", "-5m", "m", "1.5h"])
def test_the_configuration_takes_exactly_the_seasons_the_calendar_knows(value):
    try:
        parse(value)
        calendar_takes = True
    except ValueError:
        calendar_takes = False
    try:
        from_env({"TELEGRAM_BOT_TOKEN": "1:x", "TABLEBOT_SEASON": value})
        config_takes = True
    except ConfigError:
        config_takes = False
    assert config_takes == calendar_takes


# ---- ratings per season, /top and /stats -------------------------------------------------------

async def play(core, kind: str, users: list[int], seed: int = 1):
    """A real game of ``kind`` in the group, played to its end by random legal moves."""
    from engines import registry
    people = [await core.person(u, NAMES[u]) for u in users]
    info = registry.info(kind)
    match = await core.lobby.open(chat_id=GROUP, thread_id=0, person=people[0], info=info,
                                  options=info.default_options(), chat_lang="en")
    for p in people[1:]:
        await core.lobby.join(match, p)
    await core.lobby.start(match, people[0])
    rng = random.Random(seed)
    while match.running:
        seat = match.current
        await core.play.act(match.id, seat, match.turn, rng.choice(match.eng.legal_actions(match.state, seat)))
    await core.idle()
    return match


async def test_each_game_is_rated_again_in_its_season_and_top_shows_the_season_or_all_time():
    core = await build_core()  # this month, the real clock: a game played now ends in it
    try:
        await recorded(core, record(10_000, GROUP, time.time() - 40 * 86400, users=(3, 4)))  # a season before
        match = await play(core, "cones", [1, 2])
        running = core.seasons.now()
        counted = await core.store.season_ratings(running.key, "cones", [1, 2, 3, 4])
        alltime = await core.store.ratings("cones", [1, 2])
        assert set(counted) == {1, 2} and {u: r.figure for u, r in counted.items()} == \
            {u: r.figure for u, r in alltime.items()}  # the first game of both: the same figures
        await core.seasons.count(await core.store.game_record(match.id))  # heard again: counted once
        assert await core.store.season_ratings(running.key, "cones", [1, 2]) == counted
        season_top = await core.stats.top(["cones"], GROUP, "en")
        assert season_top.startswith(f"🏆 <b>Cones</b>: the best here this season ({running.label('en')})")
        assert "Anna" in season_top and "Boris" in season_top and "Cleo" not in season_top
        assert season_top.endswith("Of all time: /top cones all.")
        ever = await core.stats.top(["cones", "all"], GROUP, "en")
        assert ever.startswith("🏆 <b>Cones</b>: the best here of all time") and ever.endswith("This season: /top cones.")
        assert (await core.stats.top(["все", "конусы"], None, "ru")).startswith(
            "🏆 <b>Конусы</b>: лучшие везде за всё время")
        mine = await core.stats.person(1, "Anna", "en")
        figure = counted[1].figure
        assert f"rating: {figure}? · this season: {figure}?" in mine
        group = await core.stats.group(GROUP, "Friday", "en")
        assert f"🗓 <b>This season</b> ({running.label('en')})" in group and group.count("«?»: provisional") == 1
    finally:
        await core.close()


async def test_a_new_season_starts_empty(core, clock):
    await recorded(core, record(1, GROUP, clock.now, users=(1, 2)))
    assert "1. " in await core.stats.top(["cones"], GROUP, "en")
    clock.now += HOUR
    empty = await core.stats.top(["cones"], GROUP, "en")
    assert empty.startswith("Cones: nobody here has a rated game this season") and "/top cones all" in empty
    assert (await core.stats.top(["cones"], None, "ru")).startswith(
        "Конусы: в этом сезоне (")


# ---- a season's end --------------------------------------------------------------------------

async def test_each_group_that_played_gets_one_message_at_the_seasons_end_and_the_others_none(core, clock):
    await core.season_end.check(0, clock.now)  # the first start: this season is the one it knows
    start = clock.now - 60
    await recorded(core, record(1, OLD_FRIENDS, start - 600))  # the season before
    await recorded(core, record(2, GROUP, start + 600, places=[1, 2], scores=[7, 3], minutes=25),
                   record(3, GROUP, start + 900, users=(2, 3), places=[1, 2], scores=[5, 4], minutes=5, thread_id=9),
                   record(4, GROUP, start + 1200, users=(1, 2), kind="trio", places=[1, 2], scores=[0, 3]),
                   record(5, 77, start + 1300))  # a private chat: no group to tell
    assert await core.season_end.check(0, clock.now + 600) == start + HOUR + 5.0  # (not over: wait for its end)
    await core.idle()
    assert not [c for c in core.messenger.calls if c.method == "sendMessage"]
    clock.now = start + HOUR + 5.0  # the end, and its grace
    assert await core.season_end.check(0, clock.now) == start + 2 * HOUR + 5.0
    await core.idle()
    [text] = sent(core, GROUP)
    assert not sent(core, OLD_FRIENDS) and not sent(core, QUIET) and not sent(core, 77)
    label = season(core.seasons.calendar.at(start).key).label("en")
    assert text.startswith(f"🏁 <b>Season over: {label}</b>\n🏆 Champions here:\n")
    assert "«Cones»: \u2068Anna\u2069 (" in text and "«Trio»: \u2068Anna\u2069 (" in text
    assert "🎲 Games played: 3" in text and "⏱ The longest game: «Cones», 25 min" in text
    assert "🤏 The closest finish: «Cones», " in text and "🥇 \u2068Boris\u2069 5 · 🥈 \u2068Cleo\u2069 4" in text
    assert text.endswith("🌱 A new season has begun: /top shows it from scratch.")
    for later in (clock.now + 1, clock.now + 600):  # checked again: nothing more
        await core.season_end.check(0, later)
    await core.idle()
    assert len(sent(core, GROUP)) == 1 and (await core.store.due_season_news()) == []
    assert [(t.kind, t.user_id) for t in await core.store.titles_of(1)] == [("cones", 1), ("trio", 1)]
    mine = await core.stats.person(1, "Anna", "en")
    assert f"🏆 {label} · «Cones»" in mine and f"🏆 {label} · «Trio»" in mine


async def test_a_message_goes_to_the_forum_topic_the_group_played_in_last(core, clock):
    await core.season_end.check(0, clock.now)
    await recorded(core, record(1, GROUP, clock.now, thread_id=4), record(2, GROUP, clock.now + 5, thread_id=9))
    await core.season_end.close(core.seasons.now(), clock.now, announce=True)
    assert [(n.chat_id, n.thread_id) for n in await core.store.due_season_news()] == [(GROUP, 9)]


class Gate(RecordingMessenger):
    """A messenger whose sends wait where the test holds them: for their turn in the bot's pace
    (``turn``, before the request leaves) or on their way to Telegram (``way``)."""

    def __init__(self):
        super().__init__()
        self.turn = asyncio.Event()
        self.way = asyncio.Event()

    async def send_text(self, chat_id, text, markup=None, *, leaving=None, **_):
        await self.turn.wait()
        if leaving is not None:
            await leaving()
        await self.way.wait()
        return self._sent("sendMessage", chat_id, text, markup)


@pytest.mark.parametrize("stop", ["before the messages were asked for", "waiting for their turn",
                                  "on their way"])
async def test_a_kill_at_the_turn_of_the_season_sends_each_message_once(tmp_path, stop):
    db, clock = str(tmp_path / "bot.sqlite3"), Clock(HOUR * 500_000 + 60)
    gate = Gate()
    core = await build_core(db=db, season="1h", clock=clock, messenger=gate)
    await core.season_end.check(0, clock.now)
    await recorded(core, record(1, GROUP, clock.now), record(2, QUIET - 1, clock.now + 1))
    clock.now += HOUR
    if stop == "before the messages were asked for":
        ended = core.seasons.calendar.at(clock.now - HOUR)
        await core.season_end.close(ended, clock.now, announce=True)  # closed; then killed
    else:
        await core.season_end.check(0, clock.now)
        await asyncio.sleep(0.05)
        if stop == "on their way":
            gate.turn.set()
            await asyncio.sleep(0.05)
    # kill -9: whatever was not sent is never sent; nothing is drained
    await core.background.cancel()
    await core.store.close()
    assert not [c for c in gate.calls if c.method == "sendMessage"]

    again = await build_core(db=db, season="1h", clock=clock)
    try:
        await again.season_end.check(0, clock.now)
        await again.idle()
        await again.season_end.check(0, clock.now + 60)  # and once more: nothing more
        await again.idle()
        if stop == "on their way":  # they may have arrived: never sent twice (perhaps lost)
            assert not sent(again, GROUP) and not sent(again, QUIET - 1)
        else:
            assert len(sent(again, GROUP)) == 1 and len(sent(again, QUIET - 1)) == 1
        assert await again.store.due_season_news() == []
    finally:
        await again.close()


async def test_a_new_length_of_season_ends_the_one_running_at_once(core, clock):
    await core.store.set_mark("season", "2027-03")  # a month, as the bot knew it before
    march = season("2027-03")
    await recorded(core, record(1, GROUP, march.start + 3600))
    assert await core.season_end.check(0, clock.now) == core.seasons.now().end + core.seasons.now().grace
    await core.idle()
    assert len(sent(core, GROUP)) == 1 and "March 2027" in sent(core, GROUP)[0]
    assert await core.store.mark("season") == core.seasons.now().key


async def test_a_mark_that_names_no_season_starts_afresh(core, clock):
    await core.store.set_mark("season", "what")
    await core.season_end.check(0, clock.now)
    assert await core.store.mark("season") == core.seasons.now().key


async def test_a_message_telegram_surely_did_not_take_is_sent_again_later(core, clock):
    await core.season_end.check(0, clock.now)
    await recorded(core, record(1, GROUP, clock.now))
    clock.now += HOUR
    failing = {"left": 1}
    real = core.messenger.send_text

    async def flaky(chat_id, text, markup=None, *, leaving=None, **kw):
        if leaving is not None:
            await leaving()
        if failing["left"]:
            failing["left"] -= 1
            from bot.outgoing.messenger import Result, Sent
            return Sent(Result.FAILED)
        return await real(chat_id, text, markup, **kw)
    core.messenger.send_text = flaky
    await core.season_end.check(0, clock.now)
    await asyncio.sleep(0.05)
    assert not sent(core, GROUP) and [(n.chat_id) for n in await core.store.due_season_news()] == [GROUP]
    await core.season_end.send_due()  # (the background job tries again 10 s later: here at once)
    await core.idle()
    assert len(sent(core, GROUP)) == 1 and await core.store.due_season_news() == []


async def test_a_first_start_names_the_champions_of_earlier_seasons_without_a_word(core, clock):
    old = record(1, GROUP, clock.now - 5 * HOUR, users=(2, 1))
    await core.store.record_game(old, [])  # recorded by an older version: counted in no season yet
    await core.seasons.catch_up()
    await core.seasons.catch_up_past()
    await core.season_end.check(0, clock.now)
    await core.idle()
    assert not [c for c in core.messenger.calls if c.method == "sendMessage"]
    [title] = await core.store.titles_of(2)
    assert title.season == core.seasons.calendar.at(old.ended).key and title.chat_id == GROUP
    assert await core.store.due_season_news() == []


async def test_a_season_message_reads_in_russian():
    from bot.records.season_end import SeasonEnd
    core = await build_core(season="1h", clock=Clock(HOUR * 500_000))
    try:
        end: SeasonEnd = core.season_end
        await core.season_end.check(0, HOUR * 500_000)
        await recorded(core, record(1, GROUP, HOUR * 500_000 + 60, places=[1, 1], scores=[4, 4], minutes=75))
        await end.close(core.seasons.now(), HOUR * 500_001, announce=True)
        [news] = await core.store.due_season_news()
        text = await end.text(news, "ru")
        assert text.startswith("🏁 <b>Сезон окончен: ")
        assert "🏆 Чемпионы здесь:\n«Конусы»: \u2068" in text and "🎲 Сыграно партий: 1" in text
        assert "⏱ Самая долгая партия: «Конусы», 1 ч 15 мин" in text
        assert "🤏 Самый плотный финиш: «Конусы», " in text and "🥇 \u2068Anna\u2069 4 · 🥇 \u2068Boris\u2069 4" in text
        assert text.endswith("🌱 Начался новый сезон: /top показывает его с нуля.")
    finally:
        await core.close()


def test_the_closest_finish_and_a_games_length():
    near = record(1, GROUP, 100.0, users=(1, 2, 3), places=[2, 1, 3], scores=[5, 6, 1])
    tie = record(2, GROUP, 50.0, users=(1, 2), places=[1, 1], scores=[3, 3])
    far = record(3, GROUP, 200.0, places=[1, 2], scores=[9, 1])
    assert closest([near, far]) == (near, [near.seats[1], near.seats[0]])
    assert closest([near, tie, far])[0] is tie
    solo = record(4, GROUP, 10.0, users=(1,), places=[1], scores=[20])
    assert closest([solo]) is None
    assert (duration(40, "en"), duration(35 * 60 + 59, "en"), duration(72 * 60, "ru")) == ("40 s", "35 min", "1 ч 12 мин")
