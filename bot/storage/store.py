"""What the bot keeps: the records (games, seats, series, users, chats) and the store protocol
they live behind.

SQLite (``bot/storage/sqlite.py``) and PostgreSQL (``bot/storage/postgres.py``) implement :class:`GameStore`
with the same schema (their shared SQL is ``bot/storage/sql.py``); :func:`make_store` picks one from
the ``TABLEBOT_DB`` value. The
records are plain dataclasses, shared by every implementation, so nothing above the store imports
a database.
"""
from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass, field
from typing import Any, Protocol


class Status(enum.StrEnum):
    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        """A lobby or a running game: it occupies its chat (or forum topic)."""
        return self in (Status.LOBBY, Status.RUNNING)


class StoreError(Exception):
    """The database cannot be used; the message is one line for the operator."""


class StoreUnavailable(StoreError):
    """The database cannot be reached now (the server is down, starting up or shutting down, a
    connection dropped, a timeout, a disk that fails for a moment): nothing for a person to
    fix, try again later. A ``StoreError`` that is not one of these needs a person (a refused
    login, a missing database, no rights, a newer schema)."""


class StaleVersion(Exception):
    """The game changed in the database since it was read."""


class PlaceTaken(Exception):
    """A lobby or running game already occupies this chat (or forum topic)."""

    def __init__(self, game_id: int):
        super().__init__(game_id)
        self.game_id = game_id


@dataclass
class Seat:
    seat: int
    user_id: int
    name: str
    kind: str = "human"  # "human" or "computer"
    dm_msg: int | None = None
    # The computer level playing this seat: always for a computer, and for a person's seat
    # while they have handed it over (None: the person plays it).
    level: str | None = None
    dm_version: int = 0  # the game version the private message shows
    result_sent: bool = False  # the person's own result went (or may have gone) out in private

    def __post_init__(self) -> None:
        self.result_sent = bool(self.result_sent)

    @property
    def is_computer(self) -> bool:
        return self.kind == "computer"

    @property
    def autoplayed(self) -> bool:
        """A computer makes this seat's moves now."""
        return self.level is not None

    def moved_to(self, seat: int) -> "Seat":
        """The same player at another seat of a new game (a person plays their own seat again)."""
        return Seat(seat, self.user_id, self.name, self.kind, None, self.level if self.is_computer else None)

    def needs_redraw(self, version: int) -> bool:
        return self.kind == "human" and self.dm_version < version


@dataclass
class Game:
    id: int
    kind: str
    chat_id: int
    thread_id: int
    status: Status
    host_id: int
    options: dict[str, Any]
    seed: int
    state: dict[str, Any] | None
    version: int
    lobby_msg: int | None
    table_msg: int | None
    results_msg: int | None
    last_events: list[dict[str, Any]]
    outcome: dict[str, Any] | None  # finished: places, reason, scores; cancelled: why it closed, by whom
    series_id: int | None
    created: float
    updated: float
    idle_turns: int = 0
    table_version: int = 0  # the game version the table message shows
    end_shown: bool = False  # its end is all shown: the results and the private ones, or why it was cancelled
    # A game in a chat the bot is not in: the message posted via the bot there (inline mode), its
    # lobby, then its table, then its results; ``chat_id`` is that chat's key (``inline_chat``).
    inline_msg: str | None = None
    seats: list[Seat] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.status = Status(self.status)
        self.end_shown = bool(self.end_shown)

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    @property
    def is_open(self) -> bool:
        return self.status.is_open

    @property
    def short_id(self) -> str:
        return to_base36(self.id)

    @property
    def inline(self) -> bool:
        """Played on a message posted via the bot in a chat the bot is not in."""
        return self.inline_msg is not None

    @property
    def lobby_shown(self) -> int | str | None:
        """The message that shows the lobby: the inline message, or the lobby message."""
        return self.inline_msg or self.lobby_msg

    @property
    def table_shown(self) -> int | str | None:
        """The message that shows the table: the inline message, or the table message."""
        return self.inline_msg or self.table_msg

    @property
    def table_lags(self) -> bool:
        """The table message shows an older version than the store holds (or none at all)."""
        return self.state is not None and (self.table_msg is None or self.table_version < self.version)

    @property
    def host_name(self) -> str:
        return self.name_of(self.host_id, "?")

    def name_of(self, user_id: int, default: str) -> str:
        """The person's name at this table (the group's language, told apart from the others'),
        else ``default`` (someone who does not sit here: an admin)."""
        return next((s.name for s in self.seats if s.user_id == user_id), default)


@dataclass(frozen=True)
class User:
    """A person the bot knows. ``lang`` is the language they chose (``lang_chosen``), else their
    Telegram app's; ``private_ok``: they opened the private chat with the bot; ``notify``: turn
    pings on; ``ping_msg``: the last private ping, deleted when the next one comes."""

    user_id: int
    name: str
    username: str | None
    lang: str | None
    lang_chosen: bool
    private_ok: bool
    notify: bool
    ping_msg: int | None
    forgotten: bool = False  # asked the bot (/forgetme) to keep no record of their games


@dataclass(frozen=True)
class Chat:
    """A group the bot plays in: its language, its settings (lobby and turn timeouts), its title.
    ``settings`` is the caller's own copy: changing it changes nothing in the store."""

    chat_id: int
    lang: str | None
    settings: dict[str, Any]
    title: str | None


@dataclass
class Series:
    """Several games in a row by the same people; their points add up (halves for shared places)."""

    id: int
    chat_id: int
    kind: str
    total: int
    played: int
    users: list[int]
    points: dict[str, float]
    counted: list[int] = field(default_factory=list)  # games already added, so none counts twice


@dataclass
class RecordSeat:
    """One seat of a recorded game. ``user_id`` and ``name`` are None for a person who asked to
    be forgotten (shown as «a player»); a computer keeps its level. ``autoplayed``: a computer
    made most of the seat's moves. ``before``/``after``: the person's shown rating around this
    game (None when it was not rated), ``games``: their rated games of this kind after it."""

    seat: int
    user_id: int | None
    name: str | None
    kind: str = "human"
    level: str | None = None
    place: int | None = None
    score: int | None = None
    team: int = 0
    autoplayed: bool = False
    before: int | None = None
    after: int | None = None
    games: int = 0

    @property
    def is_computer(self) -> bool:
        return self.kind == "computer"


@dataclass
class GameRecord:
    """A game that is over, as remembered for statistics: ``status`` "finished" or "cancelled";
    ``rated``: it moved ratings (finished, two sides or more, a person made a move)."""

    game_id: int
    kind: str
    chat_id: int
    thread_id: int
    status: str
    rated: bool
    options: dict[str, Any]
    series_id: int | None
    started: float
    ended: float
    seats: list[RecordSeat] = field(default_factory=list)
    results_msg: int | None = None  # the results message in the chat (from the game)


@dataclass(frozen=True)
class Rating:
    """A person's skill at one game (openskill's mu and sigma), the figure shown for it, and the
    rated games behind it."""

    user_id: int
    kind: str
    mu: float
    sigma: float
    figure: int
    games: int


@dataclass(frozen=True)
class PlayedSeat:
    """One game of a person, for their own statistics."""

    kind: str
    place: int | None
    players: int
    score: int | None
    status: str
    ended: float


@dataclass(frozen=True)
class RatedGame:
    """One rated game of a person, for the picture of their rating over time: the figure shown
    before and after it, and their rated games of this kind after it (provisional below
    ``rating.PROVISIONAL_GAMES``)."""

    kind: str
    before: int
    after: int
    games: int
    ended: float


@dataclass(frozen=True)
class PlayedGame:
    """One finished game of a person, as their achievements read it (oldest first): the seat's
    place, how many seats the game had and how many of them computers played, whether a
    computer played most of this person's moves, and the rating after it (None: not rated)."""

    game_id: int
    kind: str
    ended: float
    place: int | None
    players: int
    computers: int
    autoplayed: bool
    after: int | None


@dataclass(frozen=True)
class Earned:
    """An achievement of a person (``code``: ``bot/records/achievements/catalogue.py``), with
    the game that earned it and when it was granted."""

    user_id: int
    code: str
    game_id: int
    earned: float


@dataclass(frozen=True)
class SeasonTitle:
    """The champion of a game in a group for a season (``chat_id`` 0: everyone's), with the
    season's rating figure and rated games behind it."""

    season: str
    kind: str
    chat_id: int
    user_id: int
    figure: int
    games: int


@dataclass(frozen=True)
class SeasonNews:
    """A season's end message due to a group (its forum topic: where it played last)."""

    season: str
    chat_id: int
    thread_id: int


# What a season's end message is while it is not simply sent (its id): may be on its way (sent,
# or perhaps sent: never again), or the group cannot be reached (not tried again).
NEWS_LEAVING, NEWS_UNREACHABLE = 0, -1


# A message id that stands for "sent, or perhaps sent, but its id never learnt" (Telegram's ids
# start at 1): the results of a game are posted once, so after a stop in the middle of posting
# them they are not posted again.
UNKNOWN_MESSAGE = 0

# The chat of an inline game is known by Telegram's ``chat_instance`` only (a string, the same for
# everyone in that chat): its key here is a number below every chat id Telegram gives (those fit
# in 52 bits), so that it has a pace, a language and settings of its own, as a group does.
INLINE_CHATS_BELOW = -(2 ** 53)


def inline_chat(chat_instance: str) -> int:
    """The key of the chat an inline message lives in, by its ``chat_instance``."""
    digest = hashlib.sha1(chat_instance.encode()).digest()
    return INLINE_CHATS_BELOW - int.from_bytes(digest[:6], "big")


def is_inline_chat(chat_id: int) -> bool:
    """A chat the bot is not in, where it plays on messages posted via it."""
    return chat_id <= INLINE_CHATS_BELOW


def to_base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def from_base36(text: str) -> int:
    return int(text, 36)


class GameStore(Protocol):
    """Everything the bot stores. Every write is one transaction, committed before it returns;
    ``save_game`` is checked against the version that was read (optimistic concurrency) and
    bumps it.

    A store may cache users and chats (read on every update): its own writes keep the cache
    right, but not another process's; a process becomes the active one once in its life (a
    standby that takes over starts from the store), so no cache outlives another's writes."""

    async def open(self) -> "GameStore": ...
    async def close(self) -> None: ...
    async def schema_version(self) -> int: ...
    async def ping(self) -> None:
        """Ask the database something that needs it to answer (``/healthz``); raise StoreError
        when it does not."""
    async def games_by_status(self) -> dict[str, int]:
        """How many games there are of each status (``/metrics``); cheap: one grouped count."""

    # games
    async def get_game(self, game_id: int) -> Game | None: ...
    async def open_game_at(self, chat_id: int, thread_id: int = 0) -> Game | None: ...
    async def open_games(self) -> list[Game]: ...
    async def open_games_of(self, user_id: int) -> list[Game]: ...
    async def all_games(self) -> list[Game]: ...
    async def unshown_ends(self) -> list[Game]: ...
    async def create_game(self, *, kind: str, chat_id: int, thread_id: int, host: Seat,
                          options: dict[str, Any], seed: int, series_id: int | None = None,
                          inline_msg: str | None = None) -> Game: ...
    async def game_on_inline(self, inline_msg: str) -> Game | None: ...
    async def save_game(self, game: Game, *, action: tuple[int, str] | None = None,
                        by_computer: bool = False, seats_changed: bool = False) -> None: ...
    async def save_messages(self, game: Game) -> None: ...
    async def actions(self, game_id: int) -> list[tuple[int, int, str]]: ...
    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> list[int]: ...

    # people and chats
    async def touch_user(self, user_id: int, name: str, username: str | None, lang_code: str | None) -> None: ...
    async def user(self, user_id: int) -> User | None: ...
    async def set_private_ok(self, user_id: int, ok: bool) -> None: ...
    async def set_user_lang(self, user_id: int, lang: str) -> None: ...
    async def set_notify(self, user_id: int, on: bool) -> None: ...
    async def set_ping(self, user_id: int, message_id: int | None) -> None: ...
    async def chat(self, chat_id: int) -> Chat | None: ...
    async def set_chat(self, chat_id: int, *, lang: str | None = None, title: str | None = None,
                       settings: dict[str, Any] | None = None) -> None: ...
    async def set_chat_setting(self, chat_id: int, key: str, value: Any) -> None: ...

    # series
    async def create_series(self, chat_id: int, kind: str, total: int, users: list[int]) -> Series: ...
    async def series(self, series_id: int) -> Series | None: ...
    async def save_series(self, series: Series) -> None: ...

    # records and ratings (bot/records/records.py)
    async def unrecorded_games(self) -> list[Game]: ...
    async def move_counts(self, game_id: int) -> dict[int, tuple[int, int]]: ...
    async def record_game(self, record: GameRecord, ratings: list[Rating]) -> bool: ...
    async def game_record(self, game_id: int) -> GameRecord | None: ...
    async def ratings(self, kind: str, user_ids: list[int]) -> dict[int, Rating]: ...
    async def top(self, kind: str, *, min_games: int, limit: int, chat_id: int | None = None) -> list[tuple[Rating, str]]: ...
    async def chat_records(self, chat_id: int, limit: int) -> list[GameRecord]: ...
    async def chat_counts(self, chat_id: int) -> dict[str, int]: ...
    async def played(self, user_id: int) -> list[PlayedSeat]: ...
    async def rating_history(self, user_id: int) -> list[RatedGame]: ...
    async def forget_user(self, user_id: int) -> None: ...
    async def forget_chat(self, chat_id: int) -> int: ...
    async def prune_actions(self, before: float) -> int: ...

    # seasons (bot/records/seasons.py) and achievements (bot/records/achievements/)
    async def mark(self, name: str) -> str | None: ...
    async def set_mark(self, name: str, value: str) -> None: ...
    async def season_ratings(self, season: str, kind: str, user_ids: list[int]) -> dict[int, Rating]: ...
    async def count_season_game(self, game_id: int, season: str, ratings: list[Rating]) -> bool: ...
    async def uncounted_records(self, since: float = 0.0) -> list[GameRecord]: ...
    async def counted_seasons(self) -> set[str]: ...
    async def season_top(self, season: str, kind: str, *, start: float, end: float, min_games: int, limit: int,
                         chat_id: int | None = None) -> list[tuple[Rating, str]]: ...
    async def season_played(self, start: float, end: float) -> list[tuple[int, int, str, bool]]: ...
    async def close_season(self, season: str, closed: float, news: list[SeasonNews],
                           titles: list[SeasonTitle]) -> bool: ...
    async def closed_seasons(self) -> set[str]: ...
    async def due_season_news(self) -> list[SeasonNews]: ...
    async def set_season_news(self, season: str, chat_id: int, message_id: int | None) -> None: ...
    async def season_titles(self, season: str, chat_id: int) -> list[SeasonTitle]: ...
    async def titles_of(self, user_id: int) -> list[SeasonTitle]: ...
    async def records_between(self, chat_id: int, start: float, end: float) -> list[GameRecord]: ...
    async def grant(self, earned: list[Earned]) -> None: ...
    async def achievements_of(self, user_id: int) -> list[Earned]: ...
    async def achievements_of_game(self, game_id: int) -> list[Earned]: ...
    async def achievement_counts(self) -> tuple[dict[str, int], int]: ...
    async def history(self, user_id: int) -> list[PlayedGame]: ...
    async def finished_records(self) -> list[GameRecord]: ...
    async def replay_inputs(self, game_ids: list[int]) -> dict[int, tuple[int, list[tuple[int, str]]]]: ...

    # the owner's figures (bot/ops/owner.py)
    async def activity(self, since: float) -> tuple[int, int]: ...
