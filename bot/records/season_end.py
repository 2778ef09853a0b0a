"""A season's end: each group that played in it gets one short message, once; the others none.

The season the bot last knew is a mark in the store. When a check finds the clock past that
season's end (and its grace: a last game's record comes in), the season is closed in one
transaction: its champions in each group (the first of the season's leaderboard among those who
played the game there) and the message due to each group that finished a game in it, in the
forum topic it played in last (not a chat the bot is not in: an inline game's). Then every
message still due goes out, each as a background job, as a broadcast (``Messenger.broadcast``:
at most 30 a second, nobody waits for it), without a sound.

Exactly once, as the results of a game (``bot/ending/finisher.py``): a message's intent is stored
when its request leaves for Telegram, not while it waits its turn (``NEWS_LEAVING``): a stop before
then leaves it due, and the next start sends it; a stop after it never sends it again (a kill in
the milliseconds of the request may lose it, never double it). A closed season is never closed
again, so a restart or a kill at the turn finds the same messages due. A group that cannot be
reached (the bot was removed, the group became a supergroup) is not tried again.

The checks: one at start-up, then one at each season's end (the JobQueue, ``bot/table/timers.py``).
A first start with seasons names the champions of the seasons before it, without a word to anyone.
"""
from __future__ import annotations

import logging
import time
from collections import defaultdict

from bot.outgoing.messenger import Messenger, Result
from bot.records.calendar import Season, is_season, season
from bot.records.rating import shown
from bot.records.seasons import SeasonRatings, leaderboard
from bot.storage.store import (NEWS_LEAVING, NEWS_UNREACHABLE, GameRecord, SeasonNews, SeasonTitle,
                               StoreUnavailable, is_inline_chat)
from bot.table.background import Background, TryLater
from bot.table.people import People
from bot.table.timers import Timers
from bot.words.format import medal
from bot.words.i18n import t
from bot.words.names import in_text
from bot.words.texts import kind_name

log = logging.getLogger(__name__)

MARK = "season"  # the store's mark: the key of the season the bot last knew
RETRY_SECONDS = 60.0  # a check that failed is made again this much later


class SeasonEnd:
    def __init__(self, seasons: SeasonRatings, messenger: Messenger, people: People, background: Background,
                 timers: Timers):
        self.seasons = seasons
        self.store = seasons.store
        self.calendar = seasons.calendar
        self.messenger = messenger
        self.people = people
        self.background = background
        self.timers = timers

    def watch(self) -> None:
        """Check now, and at the end of every season from now on (at start-up)."""
        self.timers.watch("season", 0, self._watched)

    async def _watched(self, game_id: int, now: float) -> float:
        """``check`` for the JobQueue: a failure (a bug, logged) does not stop the watching."""
        try:
            return await self.check(game_id, now)
        except StoreUnavailable:
            raise  # (the timer looks again soon: bot/table/timers.py)
        except Exception:
            log.exception("the season's end could not be checked; looking again in %.0f s", RETRY_SECONDS)
            return now + RETRY_SECONDS

    async def check(self, _: int = 0, now: float | None = None) -> float:
        """Close the season the bot last knew if it is over, send what is due; when to look again."""
        now = self.seasons.clock() if now is None else now
        current = self.calendar.at(now)
        known = await self.store.mark(MARK)
        if known is not None and not is_season(known):
            log.warning("the season mark %r names no season: starting from %s", known, current.key)
            known = None
        if known is None:  # the first start with seasons: those before it end without a word
            await self.store.set_mark(MARK, current.key)
            self.background.schedule(("seasons", "named"), self._name_past)
        elif known != current.key:
            ended = season(known)
            same_scheme = self.calendar.at(ended.start).key == ended.key
            if same_scheme and now < ended.end + ended.grace:
                return ended.end + ended.grace  # (a clock that went back, or the grace not over)
            await self.seasons.caught_up.wait()
            if await self.close(ended, now, announce=True):
                log.info("season %s is over", ended.key)
            await self.store.set_mark(MARK, current.key)
        await self.send_due()
        return current.end + current.grace

    async def close(self, ended: Season, now: float, *, announce: bool) -> bool:
        """Close a season: its champions in every group that played, and (``announce``) the
        message due to each of them; False when it was closed already."""
        played = await self.store.season_played(ended.start, ended.end)
        topic: dict[int, int] = {}
        rated: dict[int, set[str]] = defaultdict(set)
        for chat_id, thread_id, kind, was_rated in played:
            topic[chat_id] = thread_id  # the last game's topic (they come in order)
            if was_rated:
                rated[chat_id].add(kind)
        titles = []
        for chat_id, kinds in rated.items():
            for kind in sorted(kinds):
                board = await leaderboard(self.store, kind, chat_id, 1, ended)
                if board:
                    best = board[0][0]
                    titles.append(SeasonTitle(ended.key, kind, chat_id, best.user_id, best.figure, best.games))
        news = [SeasonNews(ended.key, chat_id, thread_id) for chat_id, thread_id in topic.items()
                if not is_inline_chat(chat_id)] if announce else []  # (the bot cannot write in an inline game's chat)
        return await self.store.close_season(ended.key, now, news, titles)

    async def _name_past(self) -> None:
        """The champions of every season before the first one the bot knew (no word to anyone)."""
        await self.seasons.caught_up.wait()
        running = self.seasons.now().key
        for key in sorted(await self.store.counted_seasons() - await self.store.closed_seasons() - {running}):
            await self.close(season(key), self.seasons.clock(), announce=False)

    async def send_due(self) -> None:
        for news in await self.store.due_season_news():
            self.background.schedule(("season news", news.season, news.chat_id), lambda news=news: self._send(news))

    async def _send(self, news: SeasonNews) -> None:
        """One group's message, once (see the module's docstring)."""
        lang = await self.people.chat_lang(news.chat_id)
        text = await self.text(news, lang)

        async def leaving() -> None:
            await self.store.set_season_news(news.season, news.chat_id, NEWS_LEAVING)
        sent = await self.messenger.broadcast(news.chat_id, text, thread_id=news.thread_id, notify=False,
                                              leaving=leaving)
        if sent.message is not None:
            await self.store.set_season_news(news.season, news.chat_id, sent.message.message_id)
        elif sent.result == Result.FAILED:  # surely not posted: again later
            await self.store.set_season_news(news.season, news.chat_id, None)
            raise TryLater()
        elif sent.result in (Result.FORBIDDEN, Result.MIGRATED, Result.MISSING):
            await self.store.set_season_news(news.season, news.chat_id, NEWS_UNREACHABLE)
        # UNSURE: it may be there, so it stays as it is: never sent again.

    # ---- the words -------------------------------------------------------------------------

    async def text(self, news: SeasonNews, lang: str) -> str:
        """«🏁 Season over: March 2027», the champions here, the season's numbers here, the next."""
        ended = season(news.season)
        records = await self.store.records_between(news.chat_id, ended.start, ended.end)
        names = {s.user_id: s.name for r in records for s in r.seats if s.user_id is not None and s.name}
        lines = [t(lang, "🏁 <b>Season over: {season}</b>", season=ended.label(lang))]
        titles = await self.store.season_titles(ended.key, news.chat_id)
        if titles:
            lines.append(t(lang, "🏆 Champions here:"))
            lines += [f"«{kind_name(x.kind, lang)}»: {in_text(names.get(x.user_id) or t(lang, 'a player'))} "
                      f"({shown(x.figure, x.games)})" for x in titles]
        lines.append(t(lang, "🎲 Games played: {n}", n=len(records)))
        if records:
            longest = max(records, key=lambda r: (r.ended - r.started, r.ended))
            lines.append(t(lang, "⏱ The longest game: {game}, {time} ({date})", game=f"«{kind_name(longest.kind, lang)}»",
                           time=duration(longest.ended - longest.started, lang), date=_date(longest.ended)))
        close = closest(records)
        if close is not None:
            record, seats = close
            places = " · ".join(f"{medal(s.place)} {in_text(s.name) if s.name else t(lang, 'a player')} {s.score}"
                                for s in seats)
            lines.append(t(lang, "🤏 The closest finish: {game}, {date}: {places}",
                           game=f"«{kind_name(record.kind, lang)}»", date=_date(record.ended), places=places))
        lines.append(t(lang, "🌱 A new season has begun: /top shows it from scratch."))
        return "\n".join(lines)


def closest(records: list[GameRecord]) -> tuple[GameRecord, list] | None:
    """The finished game whose first two sides ended nearest in score (a shared first place: 0),
    the latest of equals, with those two sides' best seats; None when no game has two scores."""
    found = None
    for record in records:
        seats = sorted((s for s in record.seats if s.place is not None and s.score is not None),
                       key=lambda s: (s.place, s.seat))
        if not seats:
            continue
        first = seats[0]
        other = next((s for s in seats if s.team != first.team), None)
        if other is None:
            continue
        margin = abs(first.score - other.score)
        if found is None or margin <= found[0]:
            found = (margin, record, [first, other])
    return (found[1], found[2]) if found is not None else None


def duration(seconds: float, lang: str) -> str:
    """«1 h 12 min», «35 min», «40 s»."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return t(lang, "{n} s", n=seconds)
    hours, minutes = divmod(seconds // 60, 60)
    if not hours:
        return t(lang, "{n} min", n=minutes)
    return t(lang, "{h} h {m} min", h=hours, m=minutes)



def _date(when: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(when))
