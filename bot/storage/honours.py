"""What the stores keep of seasons and achievements, in the SQL both databases speak (mixed into
``bot/storage/sql.py``'s ``SqlStore``, whose primitives it uses: ``_rows``, ``_script``).

Seasons: each rated game counted once in its season's ratings (``season_games`` guards it), a
season closed once (``seasons``) with its champions (``season_titles``) and the message due to
each group that played in it (``season_news``: the message's id once sent; ``NEWS_LEAVING``
while it may be on its way, ``NEWS_UNREACHABLE`` when the group cannot be reached).
Achievements: a person's, once each, with the game that earned it. ``marks``: what the bot notes
of its own work (the season it last knew, the catalogue the records were last read with).
"""
from __future__ import annotations

from typing import Any

from bot.storage.store import Earned, GameRecord, PlayedGame, Rating, SeasonNews, SeasonTitle

BY_END = "ORDER BY r.ended, r.game_id"  # records in the order they ended
TITLE_COLUMNS = "season, kind, chat_id, user_id, figure, games"
# /forgetme: a person's achievements, season ratings and titles go with their records.
FORGET_USER = ["DELETE FROM achievements WHERE user_id=?", "DELETE FROM season_ratings WHERE user_id=?",
               "DELETE FROM season_titles WHERE user_id=?"]
CHUNK = 500  # ids in one IN (…): well below every database's limit of parameters


def _chunks(ids: list[int]) -> list[list[int]]:
    return [ids[i:i + CHUNK] for i in range(0, len(ids), CHUNK)]


class HonoursSql:
    """The season and achievement methods of ``GameStore`` (``bot/storage/store.py``)."""

    async def _rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        raise NotImplementedError

    async def _script(self, statements: list[tuple[str, Any]], *, guarded: bool = False) -> list[int] | None:
        raise NotImplementedError

    async def _records(self, where: str, params: tuple, *, order: str = "", many: bool = False
                       ) -> list[GameRecord]:
        raise NotImplementedError  # (SqlStore's)

    # ---- marks -------------------------------------------------------------------------

    async def mark(self, name: str) -> str | None:
        rows = await self._rows("SELECT value FROM marks WHERE name=?", (name,))
        return rows[0][0] if rows else None

    async def set_mark(self, name: str, value: str) -> None:
        await self._script([("INSERT INTO marks (name, value) VALUES (?,?) ON CONFLICT (name) DO UPDATE SET "
                             "value=excluded.value", (name, value))])

    # ---- a season's ratings ----------------------------------------------------------------

    async def season_ratings(self, season: str, kind: str, user_ids: list[int]) -> dict[int, Rating]:
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        rows = await self._rows(f"SELECT user_id, kind, mu, sigma, figure, games FROM season_ratings WHERE season=? "
                                f"AND kind=? AND user_id IN ({marks})", (season, kind, *user_ids))
        return {row[0]: Rating(*row) for row in rows}

    async def count_season_game(self, game_id: int, season: str, ratings: list[Rating]) -> bool:
        """Count a rated game in its season, with the season ratings it moved, in one
        transaction; False (and nothing changed) when it was counted already."""
        return await self._script([
            ("INSERT INTO season_games (game_id, season) VALUES (?,?) ON CONFLICT (game_id) DO NOTHING",
             (game_id, season)),
            ("INSERT INTO season_ratings (season, kind, user_id, mu, sigma, figure, games) VALUES (?,?,?,?,?,?,?) "
             "ON CONFLICT (season, kind, user_id) DO UPDATE SET mu=excluded.mu, sigma=excluded.sigma, "
             "figure=excluded.figure, games=excluded.games",
             [(season, x.kind, x.user_id, x.mu, x.sigma, x.figure, x.games) for x in ratings]),
        ], guarded=True) is not None

    async def uncounted_records(self, since: float = 0.0) -> list[GameRecord]:
        """Rated games not counted in their season yet, that ended at ``since`` or later, in the
        order they ended."""
        return await self._records(
            "WHERE r.rated=1 AND r.status='finished' AND r.ended >= ? AND NOT EXISTS "
            "(SELECT 1 FROM season_games c WHERE c.game_id = r.game_id)", (since,), order=BY_END, many=True)

    async def counted_seasons(self) -> set[str]:
        return {row[0] for row in await self._rows("SELECT DISTINCT season FROM season_games")}

    async def season_top(self, season: str, kind: str, *, start: float, end: float, min_games: int, limit: int,
                         chat_id: int | None = None) -> list[tuple[Rating, str]]:
        """A season's best at ``kind`` (``min_games`` rated games of the season or more), with
        names: everyone's, or of the people who played it in ``chat_id`` during the season
        (``start`` to ``end``). As ``top``: people who asked to be forgotten have none."""
        sql = ("SELECT x.user_id, x.kind, x.mu, x.sigma, x.figure, x.games, COALESCE(NULLIF(u.name, ''), "
               "(SELECT s.name FROM record_seats s WHERE s.user_id = x.user_id AND s.name IS NOT NULL "
               "ORDER BY s.game_id DESC LIMIT 1), '') "
               "FROM season_ratings x LEFT JOIN users u ON u.user_id = x.user_id "
               "WHERE x.season=? AND x.kind=? AND x.games>=? AND COALESCE(u.forgotten, 0)=0 ")
        params: tuple = (season, kind, min_games)
        if chat_id is not None:
            sql += ("AND x.user_id IN (SELECT s.user_id FROM records r JOIN record_seats s ON s.game_id = r.game_id "
                    "WHERE r.chat_id=? AND r.kind=? AND r.ended >= ? AND r.ended < ?) ")
            params += (chat_id, kind, start, end)
        rows = await self._rows(sql + "ORDER BY x.figure DESC, x.games DESC, x.user_id LIMIT ?", params + (limit,))
        return [(Rating(*row[:6]), row[6]) for row in rows]

    # ---- a season's end ---------------------------------------------------------------------

    async def season_played(self, start: float, end: float) -> list[tuple[int, int, str, bool]]:
        """The finished games of groups (not private chats) between ``start`` and ``end``, in the
        order they ended: (group, forum topic, game, rated)."""
        rows = await self._rows("SELECT chat_id, thread_id, kind, rated FROM records WHERE ended >= ? AND ended < ? "
                                "AND chat_id < 0 AND status='finished' ORDER BY ended, game_id", (start, end))
        return [(chat_id, thread_id, kind, bool(rated)) for chat_id, thread_id, kind, rated in rows]

    async def close_season(self, season: str, closed: float, news: list[SeasonNews],
                           titles: list[SeasonTitle]) -> bool:
        """Close a season, its champions and the messages due to its groups in one transaction;
        False (and nothing changed) when it was closed already."""
        return await self._script([
            ("INSERT INTO seasons (season, closed) VALUES (?,?) ON CONFLICT (season) DO NOTHING", (season, closed)),
            ("INSERT INTO season_news (season, chat_id, thread_id) VALUES (?,?,?)",
             [(n.season, n.chat_id, n.thread_id) for n in news]),
            (f"INSERT INTO season_titles ({TITLE_COLUMNS}) VALUES (?,?,?,?,?,?)",
             [(x.season, x.kind, x.chat_id, x.user_id, x.figure, x.games) for x in titles]),
        ], guarded=True) is not None

    async def closed_seasons(self) -> set[str]:
        return {row[0] for row in await self._rows("SELECT season FROM seasons")}

    async def due_season_news(self) -> list[SeasonNews]:
        """The season messages not sent yet (nor perhaps on their way)."""
        rows = await self._rows("SELECT season, chat_id, thread_id FROM season_news WHERE message_id IS NULL "
                                "ORDER BY season, chat_id")
        return [SeasonNews(*row) for row in rows]

    async def set_season_news(self, season: str, chat_id: int, message_id: int | None) -> None:
        await self._script([("UPDATE season_news SET message_id=? WHERE season=? AND chat_id=?",
                             (message_id, season, chat_id))])

    async def season_titles(self, season: str, chat_id: int) -> list[SeasonTitle]:
        rows = await self._rows(f"SELECT {TITLE_COLUMNS} FROM season_titles WHERE season=? AND chat_id=? ORDER BY kind",
                                (season, chat_id))
        return [SeasonTitle(*row) for row in rows]

    async def titles_of(self, user_id: int) -> list[SeasonTitle]:
        """A person's titles, the latest season first."""
        rows = await self._rows(
            f"SELECT {', '.join('t.' + c for c in TITLE_COLUMNS.split(', '))} FROM season_titles t "
            "LEFT JOIN seasons z ON z.season = t.season WHERE t.user_id=? "
            "ORDER BY COALESCE(z.closed, 0) DESC, t.season DESC, t.kind, t.chat_id", (user_id,))
        return [SeasonTitle(*row) for row in rows]

    async def records_between(self, chat_id: int, start: float, end: float) -> list[GameRecord]:
        """A chat's finished games between ``start`` and ``end``, in the order they ended."""
        return await self._records("WHERE r.chat_id=? AND r.status='finished' AND r.ended >= ? AND r.ended < ?",
                                   (chat_id, start, end), order=BY_END, many=True)

    # ---- achievements ----------------------------------------------------------------------

    async def grant(self, earned: list[Earned]) -> None:
        """Keep achievements; one a person holds already stays as it was (its game, its time)."""
        if earned:
            await self._script([("INSERT INTO achievements (user_id, code, game_id, earned) VALUES (?,?,?,?) "
                                 "ON CONFLICT (user_id, code) DO NOTHING",
                                 [(e.user_id, e.code, e.game_id, e.earned) for e in earned])])

    async def achievements_of(self, user_id: int) -> list[Earned]:
        """A person's achievements, the earliest first."""
        rows = await self._rows("SELECT user_id, code, game_id, earned FROM achievements WHERE user_id=? "
                                "ORDER BY earned, game_id, code", (user_id,))
        return [Earned(*row) for row in rows]

    async def achievements_of_game(self, game_id: int) -> list[Earned]:
        """The achievements a game earned (its people's)."""
        rows = await self._rows("SELECT user_id, code, game_id, earned FROM achievements WHERE game_id=? "
                                "ORDER BY user_id, code", (game_id,))
        return [Earned(*row) for row in rows]

    async def achievement_counts(self) -> tuple[dict[str, int], int]:
        """How many people hold each achievement, and how many people have finished a game."""
        held = dict(await self._rows("SELECT code, COUNT(*) FROM achievements GROUP BY code"))
        rows = await self._rows("SELECT COUNT(DISTINCT s.user_id) FROM record_seats s JOIN records r "
                                "ON r.game_id = s.game_id WHERE r.status='finished' AND s.kind='human' "
                                "AND s.user_id IS NOT NULL")
        return held, rows[0][0]

    async def history(self, user_id: int) -> list[PlayedGame]:
        """Every finished game of a person, oldest first (``PlayedGame``)."""
        rows = await self._rows(
            "SELECT r.game_id, r.kind, r.ended, s.place, "
            "(SELECT COUNT(*) FROM record_seats o WHERE o.game_id = r.game_id), "
            "(SELECT COUNT(*) FROM record_seats o WHERE o.game_id = r.game_id AND o.kind = 'computer'), "
            "s.autoplayed, s.after FROM record_seats s JOIN records r ON r.game_id = s.game_id "
            "WHERE s.user_id=? AND r.status='finished' ORDER BY r.ended, r.game_id", (user_id,))
        return [PlayedGame(gid, kind, ended, place, players, computers, bool(auto), after)
                for gid, kind, ended, place, players, computers, auto, after in rows]

    async def finished_records(self) -> list[GameRecord]:
        """Every finished game's record, in the order they ended."""
        return await self._records("WHERE r.status='finished'", (), order=BY_END, many=True)

    async def replay_inputs(self, game_ids: list[int]) -> dict[int, tuple[int, list[tuple[int, str]]]]:
        """Each game's seed and move log ((seat, action code), in order), to replay it; a game
        whose log was deleted (TABLEBOT_KEEP_ACTIONS_DAYS) is left out."""
        out: dict[int, tuple[int, list[tuple[int, str]]]] = {}
        for chunk in _chunks(sorted(set(game_ids))):
            marks = ",".join("?" * len(chunk))
            seeds = dict(await self._rows(f"SELECT id, seed FROM games WHERE id IN ({marks})", tuple(chunk)))
            logs: dict[int, list[tuple[int, str]]] = {}
            for game_id, seat, code in await self._rows(
                    f"SELECT game_id, seat, action FROM actions WHERE game_id IN ({marks}) ORDER BY game_id, n",
                    tuple(chunk)):
                logs.setdefault(game_id, []).append((seat, code))
            out.update({gid: (seeds[gid], log) for gid, log in logs.items() if gid in seeds})
        return out
