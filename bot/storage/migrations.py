"""The schema, as numbered migrations both stores run at start (each in one transaction): SQLite
as written, PostgreSQL with its own column types (``bot/storage/postgres.py``), so both databases
have the same tables, columns and schema versions."""
from __future__ import annotations

from bot.storage.store import StoreError

# Schema versions: migration n (counted from 1) brings a database from version n-1 to n. Written
# for SQLite; PostgreSQL runs the same text with its column types (INTEGER is 64 bits in SQLite).
MIGRATIONS: list[str] = [
    # 1: the first schema.
    """
    CREATE TABLE chats (
        chat_id   INTEGER PRIMARY KEY,
        lang      TEXT,
        settings  TEXT NOT NULL DEFAULT '{}',
        title     TEXT
    );
    CREATE TABLE users (
        user_id       INTEGER PRIMARY KEY,
        name          TEXT NOT NULL DEFAULT '',
        username      TEXT,
        lang          TEXT,
        lang_chosen   INTEGER NOT NULL DEFAULT 0,
        private_ok    INTEGER NOT NULL DEFAULT 0,
        updated       REAL NOT NULL DEFAULT 0
    );
    CREATE TABLE series (
        id        INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id   INTEGER NOT NULL,
        kind      TEXT NOT NULL,
        total     INTEGER NOT NULL,
        played    INTEGER NOT NULL DEFAULT 0,
        users     TEXT NOT NULL,
        points    TEXT NOT NULL,
        created   REAL NOT NULL
    );
    CREATE TABLE games (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        kind         TEXT NOT NULL,
        chat_id      INTEGER NOT NULL,
        thread_id    INTEGER NOT NULL DEFAULT 0,
        status       TEXT NOT NULL CHECK (status IN ('lobby','running','finished','cancelled')),
        host_id      INTEGER NOT NULL,
        options      TEXT NOT NULL DEFAULT '{}',
        seed         INTEGER NOT NULL,
        state        TEXT,
        version      INTEGER NOT NULL DEFAULT 0,
        lobby_msg    INTEGER,
        table_msg    INTEGER,
        results_msg  INTEGER,
        last_events  TEXT NOT NULL DEFAULT '[]',
        outcome      TEXT,
        series_id    INTEGER REFERENCES series(id),
        created      REAL NOT NULL,
        updated      REAL NOT NULL
    );
    CREATE UNIQUE INDEX games_one_open_per_place ON games(chat_id, thread_id)
        WHERE status IN ('lobby', 'running');
    CREATE INDEX games_by_status ON games(status);
    CREATE TABLE seats (
        game_id   INTEGER NOT NULL REFERENCES games(id),
        seat      INTEGER NOT NULL,
        user_id   INTEGER NOT NULL,
        name      TEXT NOT NULL,
        kind      TEXT NOT NULL DEFAULT 'human',
        dm_msg    INTEGER,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id)
    );
    CREATE TABLE actions (
        game_id   INTEGER NOT NULL REFERENCES games(id),
        n         INTEGER NOT NULL,
        seat      INTEGER NOT NULL,
        action    TEXT NOT NULL,
        at        REAL NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    """,
    # 2: turns in a row the bot played for absent players (a game nobody plays is closed).
    """
    ALTER TABLE games ADD COLUMN idle_turns INTEGER NOT NULL DEFAULT 0
    """,
    # 3: turn pings (a person may switch them off; the last one is deleted when the next comes),
    # computer players (the level playing a seat), each game counted once in its series, and the
    # version each game message shows (after a crash, what lags behind the store is redrawn).
    """
    ALTER TABLE games ADD COLUMN table_version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN dm_version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE users ADD COLUMN notify INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE users ADD COLUMN ping_msg INTEGER;
    ALTER TABLE seats ADD COLUMN level TEXT;
    ALTER TABLE series ADD COLUMN counted TEXT NOT NULL DEFAULT '[]'
    """,
    # 4: records of games that are over, ratings, who made each move (a person, or a computer
    # for them), people who asked to be forgotten. Games already over are recorded by
    # bot/records/records.py at the next start (ratings need openskill, not SQL).
    """
    ALTER TABLE actions ADD COLUMN auto INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE users ADD COLUMN forgotten INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE records (
        game_id    INTEGER PRIMARY KEY,
        kind       TEXT NOT NULL,
        chat_id    INTEGER NOT NULL,
        thread_id  INTEGER NOT NULL DEFAULT 0,
        status     TEXT NOT NULL,
        rated      INTEGER NOT NULL,
        options    TEXT NOT NULL DEFAULT '{}',
        series_id  INTEGER,
        started    REAL NOT NULL,
        ended      REAL NOT NULL
    );
    CREATE INDEX records_by_chat ON records(chat_id, ended);
    CREATE INDEX records_by_chat_kind ON records(chat_id, kind);
    CREATE TABLE record_seats (
        game_id    INTEGER NOT NULL REFERENCES records(game_id),
        seat       INTEGER NOT NULL,
        user_id    INTEGER,
        name       TEXT,
        kind       TEXT NOT NULL,
        level      TEXT,
        place      INTEGER,
        score      INTEGER,
        team       INTEGER NOT NULL DEFAULT 0,
        autoplayed INTEGER NOT NULL DEFAULT 0,
        before     INTEGER,
        after      INTEGER,
        games      INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX record_seats_by_user ON record_seats(user_id, game_id);
    CREATE TABLE ratings (
        kind     TEXT NOT NULL,
        user_id  INTEGER NOT NULL,
        mu       REAL NOT NULL,
        sigma    REAL NOT NULL,
        figure   INTEGER NOT NULL,
        games    INTEGER NOT NULL,
        PRIMARY KEY (kind, user_id)
    );
    CREATE INDEX ratings_by_figure ON ratings(kind, figure DESC)
    """,
    # 5: a game's end fully shown (its results, then each person's own result in private), and
    # each seat's private result sent: a restart shows what an end left unshown, once. The games
    # whose results went out before this version count as shown.
    """
    ALTER TABLE games ADD COLUMN end_shown INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET end_shown = 1 WHERE results_msg IS NOT NULL OR status = 'cancelled';
    ALTER TABLE seats ADD COLUMN result_sent INTEGER NOT NULL DEFAULT 0
    """,
    # 6: seasons and achievements. Each game's rating also per season (fresh each season), each
    # rated game counted once in its season; a season closed once, with its champions in each
    # group that played in it and the message each such group gets (sent once: the message's id,
    # 0 while it may be on its way, -1 when the group cannot be reached); each person's
    # achievements, with the game that earned them; a few marks the bot keeps of its own work
    # (the season it last knew, the achievements catalogue the records were last read with).
    """
    CREATE TABLE season_ratings (
        season   TEXT NOT NULL,
        kind     TEXT NOT NULL,
        user_id  INTEGER NOT NULL,
        mu       REAL NOT NULL,
        sigma    REAL NOT NULL,
        figure   INTEGER NOT NULL,
        games    INTEGER NOT NULL,
        PRIMARY KEY (season, kind, user_id)
    );
    CREATE INDEX season_ratings_by_figure ON season_ratings(season, kind, figure DESC);
    CREATE INDEX season_ratings_by_user ON season_ratings(user_id);
    CREATE TABLE season_games (
        game_id  INTEGER PRIMARY KEY,
        season   TEXT NOT NULL
    );
    CREATE TABLE seasons (
        season  TEXT PRIMARY KEY,
        closed  REAL NOT NULL
    );
    CREATE TABLE season_news (
        season      TEXT NOT NULL,
        chat_id     INTEGER NOT NULL,
        thread_id   INTEGER NOT NULL DEFAULT 0,
        message_id  INTEGER,
        PRIMARY KEY (season, chat_id)
    );
    CREATE TABLE season_titles (
        season   TEXT NOT NULL,
        kind     TEXT NOT NULL,
        chat_id  INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        figure   INTEGER NOT NULL,
        games    INTEGER NOT NULL,
        PRIMARY KEY (season, kind, chat_id)
    );
    CREATE INDEX season_titles_by_user ON season_titles(user_id);
    CREATE INDEX records_by_ended ON records(ended);
    CREATE TABLE achievements (
        user_id  INTEGER NOT NULL,
        code     TEXT NOT NULL,
        game_id  INTEGER NOT NULL,
        earned   REAL NOT NULL,
        PRIMARY KEY (user_id, code)
    );
    CREATE INDEX achievements_by_game ON achievements(game_id);
    CREATE TABLE marks (
        name   TEXT PRIMARY KEY,
        value  TEXT NOT NULL
    )
    """,
    # 7: games played in a chat the bot is not in, on a message posted via the bot (inline mode):
    # the message's inline_message_id, one game a message.
    """
    ALTER TABLE games ADD COLUMN inline_msg TEXT;
    CREATE UNIQUE INDEX games_by_inline_msg ON games(inline_msg) WHERE inline_msg IS NOT NULL
    """,
]


def newer_schema(where: str, version: int) -> StoreError:
    """The refusal of a database written by a newer version of the bot (``where``: the file, or the
    server and database)."""
    return StoreError(f"{where} was written by a newer version of tablebot (schema {version}; this version knows "
                      f"up to {len(MIGRATIONS)}): run the newer version, or restore a backup made before the upgrade")
