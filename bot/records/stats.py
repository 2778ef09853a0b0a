"""What the records show: /stats, /top, /history; and /forgetme, /forgetgroup.

Every command returns its answer as HTML text (and a keyboard where a confirmation is asked);
the handlers post it. Every name goes through ``in_text``; a person who asked to be forgotten
reads «a player»; names a reader could mistake for each other in one answer are told apart (the
person's @username where there is one, else the table's « (2)»). Dates are ISO (2026-11-22,
UTC): the same in both languages.

/top shows the season now running (``bot/records/seasons.py``), /top <game> all the whole time;
a person's /stats puts each game's rating of all time and of the season side by side, the seasons
they were a champion in (🏆 March 2027 · «Ingenious») and their achievements (how many, the
latest); a group's /stats its leaders of all time and of the season. /achievements lists them all.

A game's leaderboard is one list, whoever asks: the people with PROVISIONAL_GAMES rated games
or more by their figure, then those with fewer, marked «?», by theirs. ``/top`` shows its first
TOP, a group's ``/stats`` its first LEADERS, so the two never disagree on who leads; wherever a
«?» is shown, a line says once what it means.
"""
from __future__ import annotations

import time
import unicodedata
from collections import Counter
from functools import partial
from typing import Awaitable, Callable

from engines import registry
from render.chart import Line, rating_chart
from render.common import picture_of
from bot.outgoing import keyboard
from bot.games import kit_for
from bot.words.format import MEDALS, medal, message_link
from bot.words.i18n import LANGS, nt, t
from bot.outgoing.keyboard import MENU, Button
from bot.outgoing.messenger import Messenger
from bot.outgoing.uploads import Picture
from bot.words.names import clean, in_text, likeness, tell_apart
from bot.table.people import People, Person
from bot.records.achievements.keeper import Achievements
from bot.records.calendar import Season, season
from bot.records.rating import PROVISIONAL_GAMES, provisional_note, shown
from bot.records.seasons import SeasonRatings, leaderboard
from bot.words.refusals import Refused
from bot.storage.store import GameRecord, GameStore, Rating, RecordSeat
from bot.words.texts import find_game, game_name, kind_name

LAST_RESULTS = 5  # in a group's /stats
HISTORY = 10  # games in /history
TOP = 10  # people in /top
LEADERS = 3  # people per game in a group's /stats
FORGET_ME, FORGET_GROUP = "f.me", "f.gr"  # the confirmation buttons' actions


def _date(when: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(when))


def _name(s: RecordSeat, lang: str) -> str:
    # (a computer's name begins with 🤖 already: players.computer_name)
    return in_text(s.name) if s.name is not None else t(lang, "a player")



def _games_list(lang: str) -> str:
    return ", ".join(f"{gi.id} ({game_name(gi, lang)})" for gi in registry.all_infos())


def result_line(record: GameRecord, lang: str) -> str:
    """«2026-11-22 Cones: 🥇 Anna · 🥈 Bob · 🥉 🤖 Bot 1» (or «cancelled»)."""
    head = f"{_date(record.ended)} <b>{kind_name(record.kind, lang)}</b>"
    if record.status != "finished":
        names = ", ".join(_name(s, lang) for s in record.seats)
        return f"{head}: {names} — " + t(lang, "cancelled")
    seats = sorted(record.seats, key=lambda s: (s.place or 99, s.seat))
    if len(seats) == 1:
        return f"{head}: {_name(seats[0], lang)} — " + t(lang, "solo, score {n}", n=seats[0].score)
    return f"{head}: " + " · ".join(f"{medal(s.place)} {_name(s, lang)}" for s in seats)


# Words after /top that ask for all time rather than the season now running (and the word
# "all" in each language: /top cones all).
ALL_TIME = {"all", "alltime", "ever"}
TITLES = 5  # a person's latest season titles in their /stats


def _all_time(word: str) -> bool:
    """Whether a word after /top asks for all time: «all», or the word for it in a language,
    however it is accented (a letter with or without its diaeresis alike)."""
    bare = "".join(c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c))
    return bare in ALL_TIME or any(bare == t(lang, "all") for lang in LANGS)


class Stats:
    def __init__(self, store: GameStore, people: People, messenger: Messenger, seasons: SeasonRatings,
                 achievements: Achievements, *, render: Callable[[Callable[[], bytes]], Awaitable[bytes]]):
        self.store = store
        self.people = people
        self.messenger = messenger
        self.seasons = seasons  # which season runs now (bot/records/seasons.py)
        self.achievements = achievements  # a person's (bot/records/achievements/keeper.py)
        self.render = render  # draws a picture job in the drawing process (bot/workers/pool.py)

    # ---- /stats --------------------------------------------------------------------------

    async def group(self, chat_id: int, title: str | None, lang: str) -> str:
        """A group's /stats: games played here by game, its leaders, the last few results."""
        counts = await self.store.chat_counts(chat_id)
        records = await self.store.chat_records(chat_id, LAST_RESULTS)
        if not counts and not records:
            return t(lang, "No games have been played here yet. Start one with /new.")
        played = ", ".join(nt(lang, "{game} — {n} game", "{game} — {n} games", n, game=kind_name(k, lang))
                           for k, n in sorted(counts.items()))
        lines = [t(lang, "📊 <b>Played here</b>: {games}", games=played or "0")]
        boards = {kind: await self.leaderboard(kind, chat_id, LEADERS) for kind in sorted(counts)}
        running = self.seasons.now()
        now = {kind: await self.leaderboard(kind, chat_id, LEADERS, running) for kind in sorted(counts)}
        label = await self._labels([entry for board in (*boards.values(), *now.values()) for entry in board], lang)

        def leaders(of: dict[str, list[tuple[Rating, str]]]) -> list[str]:
            return [f"{kind_name(kind, lang)}: " + ", ".join(f"{label[r.user_id]} {shown(r.figure, r.games)}"
                                                         for r, _ in board) for kind, board in of.items() if board]
        if leaders(boards):
            lines += ["", t(lang, "🏆 <b>Leaders</b>")] + leaders(boards)
        if leaders(now):
            lines += ["", t(lang, "🗓 <b>This season</b> ({season})", season=running.label(lang))] + leaders(now)
        if any(r.games < PROVISIONAL_GAMES for board in (*boards.values(), *now.values()) for r, _ in board):
            lines.append(provisional_note(lang))
        lines += ["", t(lang, "🕑 <b>Last games</b>")] + [result_line(r, lang) for r in records]
        return "\n".join(lines)

    async def leaderboard(self, kind: str, chat_id: int | None, limit: int,
                          season: Season | None = None) -> list[tuple[Rating, str]]:
        """The first ``limit`` of a game's leaderboard (of all time, or of ``season``), with
        names: everyone's, or of the people who played it in ``chat_id`` (``seasons.leaderboard``)."""
        return await leaderboard(self.store, kind, chat_id, limit, season)

    async def _labels(self, board: list[tuple[Rating, str]], lang: str) -> dict[int, str]:
        """Each person's name as a leaderboard shows it (HTML): names a reader could mistake for
        each other («Anna», «Ａｎｎａ», «𝐀𝐧𝐧𝐚») get the person's @username, else a « (2)» as
        at a table."""
        people: dict[int, str] = {}
        for r, name in board:
            people.setdefault(r.user_id, clean(name) or t(lang, "a player"))
        alike = Counter(likeness(name) for name in people.values())
        names = []
        for user_id, name in people.items():
            if alike[likeness(name)] > 1:
                user = await self.store.user(user_id)
                if user is not None and user.username:
                    name = f"{name} (@{user.username})"
            names.append(name)
        return {user_id: in_text(name) for user_id, name in zip(people, tell_apart(names))}

    async def person(self, user_id: int, name: str, lang: str) -> str:
        """A person's own record, per game: games, wins, places, best score, rating, streak."""
        played = [p for p in await self.store.played(user_id) if p.status == "finished"]
        if not played:
            return t(lang, "{name}: no finished games with me yet.", name=in_text(name))
        lines = [t(lang, "📊 {name}: <b>games and ratings</b>", name=in_text(name))]
        provisional = False  # (a «?» in a name must not bring the note)
        running = self.seasons.now()
        for kind in sorted({p.kind for p in played}):
            mine = [p for p in played if p.kind == kind]
            adapter = kit_for(kind).ui
            places = Counter(p.place for p in mine if p.players > 1)
            wins = places.get(1, 0)
            scores = [p.score for p in mine if p.score is not None]
            streak = 0
            for p in reversed(mine):
                if p.place != 1 or p.players < 2:
                    break
                streak += 1
            rated = (await self.store.ratings(kind, [user_id])).get(user_id)
            now = (await self.store.season_ratings(running.key, kind, [user_id])).get(user_id)
            provisional = provisional or any(r is not None and r.games < PROVISIONAL_GAMES for r in (rated, now))
            parts = [t(lang, "games: {n}", n=len(mine)), t(lang, "wins: {n}", n=wins)]
            if places:
                parts.append(t(lang, "places: {places}", places=" ".join(
                    f"{MEDALS.get(p, str(p))}×{n}" for p, n in sorted(places.items()))))
            if scores:
                parts.append(adapter.best_score_text(min(scores) if adapter.low_score_wins else max(scores), lang))
            if rated is not None:
                parts.append(t(lang, "rating: {figure}", figure=shown(rated.figure, rated.games)))
            if now is not None:
                parts.append(t(lang, "this season: {figure}", figure=shown(now.figure, now.games)))
            if streak > 1:
                parts.append(t(lang, "wins in a row: {n}", n=streak))
            lines.append(f"<b>{kind_name(kind, lang)}</b>: " + " · ".join(parts))
        lines += await self._titles(user_id, lang)
        earned = await self.achievements.summary(user_id, lang)
        if earned:
            lines += ["", earned]
        if provisional:
            lines += ["", provisional_note(lang)]
        return "\n".join(lines)

    async def _titles(self, user_id: int, lang: str) -> list[str]:
        """«🏆 March 2027 · «Ingenious»»: the seasons a person was a champion in, the latest first."""
        seen: dict[tuple[str, str], None] = {}
        for title in await self.store.titles_of(user_id):
            seen.setdefault((title.season, title.kind), None)
        lines = [f"🏆 {season(key).label(lang)} · «{kind_name(kind, lang)}»" for key, kind in list(seen)[:TITLES]]
        if len(seen) > TITLES:
            lines.append(t(lang, "… and {n} more", n=len(seen) - TITLES))
        return [""] + lines if lines else []

    async def chart(self, user_id: int, name: str, lang: str) -> Picture | None:
        """The picture of a person's rating over time, one line per game (``render/chart.py``),
        drawn in the drawing process when it may go out; None unless they have two rated games
        of some game (one game is a step, not a trend), and so none for a forgotten person."""
        history = await self.store.rating_history(user_id)
        lines = []
        for kind in sorted({h.kind for h in history}):
            mine = [h for h in history if h.kind == kind]
            # From the figure before their first rated game, then one point after each.
            figures = (mine[0].before,) + tuple(h.after for h in mine)
            provisional = (mine[0].games - 1 < PROVISIONAL_GAMES,) + tuple(h.games < PROVISIONAL_GAMES for h in mine)
            lines.append(Line(kit_for(kind).look, kind_name(kind, lang), figures, provisional, shown(mine[-1].after, mine[-1].games)))
        if not any(len(line.figures) > 2 for line in lines):
            return None
        job = partial(picture_of, rating_chart, lines, title=t(lang, "Rating: {name}", name=clean(name)),
                      axis=t(lang, "rated games"), provisional_note=t(lang, "dashed: provisional"))
        return lambda: self.render(job)

    async def achievements_of(self, user_id: int, name: str, lang: str) -> str:
        """/achievements: every achievement, the person's marked (``keeper.listing``)."""
        return await self.achievements.listing(user_id, name, lang)

    @staticmethod
    def chart_caption(name: str, lang: str) -> str:
        """The chart's own caption, when the statistics are too long to be it."""
        return t(lang, "📈 Rating over time: {name}", name=in_text(name))

    # ---- /top and /history ---------------------------------------------------------------

    async def top(self, words: list[str], chat_id: int | None, lang: str) -> str:
        """/top <game>: this group's leaderboard (in private: everyone's) of the season now
        running; /top <game> all: of all time."""
        ever = any(_all_time(w) for w in words)
        words = [w for w in words if not _all_time(w)]
        info = (find_game(" ".join(words)) or find_game(words[0])) if words else None
        if info is None:
            return t(lang, "Which game? Write /top and a game: {names}. This season's best; of all time: /top cones all.",
                     names=_games_list(lang))
        running = None if ever else self.seasons.now()
        best = await self.leaderboard(info.id, chat_id, TOP, running)
        name, here = game_name(info, lang), chat_id is not None
        other = (t(lang, "This season: /top {game}.", game=info.id) if ever
                 else t(lang, "Of all time: /top {game} all.", game=info.id))
        if not best and ever:
            return (t(lang, "{game}: nobody here has a rated game yet.", game=name) if here
                    else t(lang, "{game}: nobody has a rated game yet.", game=name))
        if not best:
            return "\n".join([t(lang, "{game}: nobody here has a rated game this season ({season}) yet.", game=name,
                                 season=running.label(lang)) if here else
                              t(lang, "{game}: nobody has a rated game this season ({season}) yet.", game=name,
                                season=running.label(lang)), other])
        if ever:
            head = (t(lang, "🏆 <b>{game}</b>: the best here of all time", game=name) if here
                    else t(lang, "🏆 <b>{game}</b>: the best everywhere of all time", game=name))
        else:
            head = (t(lang, "🏆 <b>{game}</b>: the best here this season ({season})", game=name,
                      season=running.label(lang)) if here
                    else t(lang, "🏆 <b>{game}</b>: the best everywhere this season ({season})", game=name,
                           season=running.label(lang)))
        label = await self._labels(best, lang)
        lines = [head] + [f"{i}. {label[r.user_id]} — {shown(r.figure, r.games)} "
                          f"({t(lang, 'games: {n}', n=r.games)})" for i, (r, _) in enumerate(best, start=1)]
        if best[-1][0].games < PROVISIONAL_GAMES:
            lines += ["", t(lang, "«?»: provisional while there are fewer than {n} rated games; such ratings "
                                  "come after the others.", n=PROVISIONAL_GAMES)]
        return "\n".join(lines + ["", other])

    async def history(self, chat_id: int, lang: str) -> str:
        """/history: the last games here, each with a link to its results."""
        records = await self.store.chat_records(chat_id, HISTORY)
        if not records:
            return t(lang, "No games have been played here yet. Start one with /new.")
        lines = [t(lang, "🕑 <b>Last games here</b>")]
        for r in records:
            line = result_line(r, lang)
            link = message_link(chat_id, r.results_msg or None)
            if link and r.status == "finished":
                line += f' · <a href="{link}">{t(lang, "results")}</a>'
            lines.append(line)
        return "\n".join(lines)

    # ---- forgetting ----------------------------------------------------------------------

    def ask_forget_me(self, private: bool, lang: str) -> tuple[str, object]:
        if not private:
            return t(lang, "Write /forgetme to me in private: I ask there before I forget your games."), None
        markup = keyboard.markup(MENU, None, [[Button(t(lang, "🗑 Yes, forget my games"), FORGET_ME, turn_free=True)]])
        return t(lang, "Forget your games? Your ratings (of all time and of each season), statistics and "
                       "achievements are deleted, and in past results you become «a player». I will not record your "
                       "games from now on."), markup

    async def ask_forget_group(self, chat_id: int, person: Person, lang: str) -> tuple[str, object]:
        if chat_id > 0:
            return t(lang, "/forgetgroup works in a group: its admins may delete the group's records there."), None
        if not await self.people.is_admin(chat_id, person.id):
            return t(lang, "Only an admin of this group may delete its records."), None
        markup = keyboard.markup(MENU, None, [[Button(t(lang, "🗑 Yes, forget this group's games"), FORGET_GROUP,
                                                      turn_free=True)]])
        return t(lang, "Forget every game played in this group? Its statistics and history are deleted "
                       "(players keep their ratings)."), markup

    async def confirm(self, person: Person, chat_id: int, message_id: int | None, action: str) -> str:
        """A confirmation button was pressed: forget, and say so (the button goes)."""
        lang = person.lang
        if action == FORGET_ME:
            if chat_id != person.id:
                raise Refused("bad_button")
            await self.store.forget_user(person.id)
            done = t(lang, "Done: I have forgotten your games.")
        else:
            if chat_id > 0 or not await self.people.is_admin(chat_id, person.id):
                raise Refused("bad_button")
            await self.store.forget_chat(chat_id)
            lang = await self.people.chat_lang(chat_id)
            done = t(lang, "Done: I have forgotten the games of this group.")
        if message_id is not None:
            await self.messenger.edit_text(chat_id, message_id, done, None)
        return done
