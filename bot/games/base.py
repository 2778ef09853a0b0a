"""How a game shows itself in Telegram: the adapter every game module in ``bot/games`` provides.

The platform (lobby, storage, pacing, errors) is shared; an adapter only turns engine views and
events into text, pictures and buttons, and a button press into an engine action. Adapters do
no I/O: they return :class:`View` and :class:`Reply` values.

Button actions are short strings: an engine action code (applied through the engine), or a
navigation code starting with ``~`` (choose a colour, a tile, a row... before the real move),
or ``?`` codes for things that only show an alert (a goal colour).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable

from telegram.helpers import create_deep_linked_url

from engines import registry
from bot.words.i18n import t
from bot.outgoing.keyboard import Button
from bot.words.names import clean, in_text
from bot.words.refusals import Refused
from bot.storage.store import Game
from bot.words.format import MEDALS, message_link, whole
from bot.words.texts import game_name, option_label


def image_key(*parts: object) -> str:
    """A short key of everything a picture depends on (equal keys: the picture is unchanged)."""
    return hashlib.sha1(repr(parts).encode()).hexdigest()


def cancelled(ctx: "Ctx") -> bool:
    """The game was cancelled (or closed): its table says so instead of asking for a move."""
    return str(getattr(ctx.game, "status", "")) == "cancelled"


def cancelled_line(lang: str) -> str:
    """The last line of a cancelled game's table, in place of the prompt."""
    return t(lang, "🚫 This game was cancelled.")


def place_words(lang: str, place: int, places: list[int]) -> str:
    """One seat's place for its private result: "you won", "you share first place",
    "place 2 of 3", "you share place 2 of 4" (``places`` of every seat or team)."""
    shared = places.count(place) > 1
    if place == 1:
        return t(lang, "you share first place") if shared else t(lang, "you won")
    if shared:
        return t(lang, "you share place {place} of {n}", place=place, n=len(places))
    return t(lang, "place {place} of {n}", place=place, n=len(places))


def points_by_place(places: list[int]) -> list[float]:
    """Series points of one game by place: one for every player (or team) finishing below you and
    a half for every one tied with you, so n players get n-1, ..., 1, 0 and players who share
    places share those places' points (two tied first of three: 1½ each). docs/series.md."""
    out = []
    for place in places:
        below = sum(1 for other in places if other > place)
        tied = places.count(place) - 1
        out.append(whole(below + tied / 2))
    return out


def series_rule(lang: str) -> str:
    """The paragraph of /rules on series, the same for every game scored by place."""
    return t(lang, "<b>Series</b> (the option «{series}»: one game per player, so that everyone starts once, "
                   "or as many games as the host chooses): each game gives a point for every player you finish "
                   "ahead of and half a point for every player you tie with; the most points after the last "
                   "game wins the series, and a tie shares it.", series=option_label("series", lang))


@dataclass
class Ctx:
    """Everything an adapter may look at for one rendering or one press."""

    game: Game
    eng: ModuleType
    state: Any
    lang: str
    bot_username: str
    seat_user_ids: list[int] = field(default_factory=list)

    @property
    def plain_names(self) -> list[str]:
        return [clean(s.name) for s in self.game.seats]

    def name(self, seat: int) -> str:
        """The seat's name, escaped for HTML; 🤖 marks a person's seat a computer plays now."""
        s = self.game.seats[seat]
        return in_text(s.name) + (" 🤖" if s.autoplayed and not s.is_computer else "")

    def mention(self, seat: int) -> str:
        s = self.game.seats[seat]
        return f'<a href="tg://user?id={s.user_id}">{in_text(s.name)}</a>'

    def public_view(self) -> dict:
        return self.eng.view(self.state, None)

    def seat_view(self, seat: int) -> dict:
        return self.eng.view(self.state, seat)

    @property
    def turn(self) -> int:
        return self.eng.turn(self.state)

    @property
    def current(self) -> int | None:
        return self.eng.current_player(self.state)

    def private_link(self, payload: str = "") -> str:
        return create_deep_linked_url(self.bot_username, payload or None)

    @property
    def table_link(self) -> str | None:
        """A link to the game's table in its group (None: a plain group, a game played in the
        private chat itself, or a table not posted yet)."""
        return message_link(getattr(self.game, "chat_id", 0), getattr(self.game, "table_msg", None))

    def your_turn(self, line: str) -> str:
        """The first line of a private message when it is the reader's turn: ``line`` (the
        game's sign and name and «your turn», :meth:`GameUI.your_turn_line`, or the same in the
        game's own words) and a link to the table in the group where there is one."""
        link = self.table_link
        if link:
            line += f' <a href="{link}">{t(self.lang, "➡️ To the table")}</a>'
        return line


@dataclass
class View:
    """One message: HTML text (caption when there is a picture), an optional picture and buttons.

    ``image`` produces the picture's bytes (JPEG); make it ``functools.partial(render.common.picture_of, draw_fn, ...)``
    so it can run in the drawing process (bot/workers/pool.py). It is called only when ``image_key``
    differs from what the message already shows.
    """

    text: str
    rows: list[list[Button]] = field(default_factory=list)
    image: Callable[[], bytes] | None = None
    image_key: str | None = None


@dataclass(frozen=True)
class Act:
    """Apply this engine action."""

    action: Any


@dataclass(frozen=True)
class Nav:
    """Show the same message at another step of a move being composed."""

    path: str


@dataclass(frozen=True)
class Alert:
    """Answer the press with this text and change nothing."""

    text: str
    popup: bool = True


Reply = Act | Nav | Alert


class GameUI:
    """Base adapter. Subclasses override what their game needs."""

    kind: str = ""
    # The game's sign (🎲 🔺 ⬢ 🔷), the same wherever its name is: the menu, the lobby, the
    # table, private messages and results.
    sign: str = ""
    # Each person has a private message of the game (a goal, a rack, a hand): see ``private``.
    has_private: bool = False
    # Moves are chosen in the private chat (the table shows a button to open it).
    moves_in_private: bool = False
    # Moves may also be made on the Mini App's page (bot/webapp; every game is); False: a read-only board there.
    moves_on_page: bool = True

    def table(self, ctx: Ctx, path: str = "") -> View:
        raise NotImplementedError

    def table_picture(self, view: dict, names: list[str], lang: str, events: list[dict]) -> Callable[[], Any]:
        """The group table's picture of a public ``view`` (``events``: those of the move that led
        to it, which the picture may mark) as a picklable job returning a ``PIL.Image``: the
        table's own picture and each frame of the replay (bot/ending/replays.py) are drawn by it."""
        raise NotImplementedError

    def private(self, ctx: Ctx, seat: int, path: str = "") -> View | None:
        """The seat's private message, or None when the game has nothing private."""
        return None

    def press(self, ctx: Ctx, seat: int | None, where: str, action: str) -> Reply:
        """Turn a button press into a reply (or raise Refused). ``where`` is "table" or "private"."""
        if seat is None:
            raise Refused("not_playing")
        if action.startswith("~"):
            return Nav(action[1:])
        try:
            return Act(ctx.eng.decode_action(action))
        except ValueError:
            raise Refused("bad_button") from None

    def typed(self, ctx: Ctx, seat: int, text: str) -> Reply | None:
        """A move typed in the private chat, or None when the game takes no typed moves."""
        return None

    def forced_move(self, state: Any) -> Any | None:
        """The engine action the player to act must make anyway (the bot makes it at once), or
        None when they have a choice."""
        return None

    def series_points(self, state: Any, seats: int) -> list[float]:
        """What each seat of a finished game adds to its series' standings (halves for ties)."""
        return [0] * seats

    # The records keep one score per seat (see ``score``); True where fewer is better.
    low_score_wins: bool = False

    def score(self, outcome: dict, seat: int) -> int | None:
        """The seat's result as one number for statistics (a person's best is shown), from the
        stored outcome (``Game.outcome``); None for a game without one."""
        return None

    def best_score_text(self, best: int, lang: str) -> str:
        """A person's best ``score`` in their /stats, saying what the number counts (in trio it
        is the tiles left in hand, where «best score: 0» read as no points at all)."""
        return t(lang, "best score: {n}", n=best)

    def teams(self, options: dict, seats: int) -> list[int]:
        """The side each seat plays on (rated together); by default everyone plays alone."""
        return list(range(seats))

    def opening_events(self, ctx: Ctx) -> list[dict]:
        """Events that happened in the engine's set-up and belong in the first caption (a die roll)."""
        return []

    def narrate(self, ctx: Ctx, events: list[dict]) -> list[str]:
        """Caption lines for recent engine events, oldest first."""
        return []

    def story(self, ctx: Ctx, events: list[dict]) -> list[str]:
        """Caption lines for recent events: the platform's own (a timeout) and the engine's."""
        out: list[str] = []
        run: list[dict] = []
        for e in events:
            if e.get("kind") == "TimedOut":
                out += self.narrate(ctx, run)
                run = []
                out.append(t(ctx.lang, "⏰ {name} ran out of time, so I moved for them.",
                             name=ctx.name(e["seat"])))
            else:
                run.append(e)
        return out + self.narrate(ctx, run)

    def results(self, ctx: Ctx) -> str:
        raise NotImplementedError

    def private_result(self, ctx: Ctx, seat: int) -> str | None:
        """The seat's own result in one short HTML line for its private chat, once the game is
        over: medal, the game, the place ("you won", "place 2 of 3"), the score and what decided
        it (a tie-break only where one was needed). None while the game runs, after a cancel,
        and for games with no result to tell."""
        return None

    def private_line(self, ctx: Ctx, place: int, places: list[int], detail: str) -> str:
        """"🥈 <b>Cones</b>: place 2 of 3 · 5 piles of 🟠 orange": the shape of every private result
        (past a medal, the game's sign: a lone "4." would read as the number of a list)."""
        title = game_name(registry.info(self.kind), ctx.lang)
        mark = MEDALS.get(place) or self.sign
        return f"{mark} <b>{title}</b>: {place_words(ctx.lang, place, places)} · {detail}"

    def your_turn_line(self, ctx: Ctx) -> str:
        """"⬢ <b>Ingenious</b>: your turn!": the first line of a private message on the reader's turn."""
        return t(ctx.lang, "{sign} <b>{game}</b>: your turn!", sign=self.sign,
                 game=game_name(registry.info(self.kind), ctx.lang))

    def rules(self, lang: str) -> str:
        raise NotImplementedError

    def start_notice(self, ctx: Ctx) -> str:
        """Extra line for the group when the game starts (e.g. "goals were sent privately")."""
        return ""
