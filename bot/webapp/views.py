"""What the page shows of a game to one person, as JSON: never anyone else's secret.

A seated player gets the engine's view of their own seat (their rack, hand or goal, nobody
else's) and, on their turn, the moves they may make with what each would do (``play``, from
the game's kit: bot/games/<game>/page.py); everyone else gets the public view (what the group's table shows). A game
still in its lobby says who sits there and whether this person may join. The page only draws
what the server says.
"""
from __future__ import annotations

from typing import Any

from engines import registry
from bot.table.book import Match
from bot.words.format import plain_text
from bot.storage.store import Status
from bot.games import game_sign, kits
from bot.words.i18n import entries
from bot.words.texts import game_name, option_hint, option_label


def etag(match: Match, seat: int | None, lang: str) -> str:
    """Changes whenever what this person would be shown changes."""
    game = match.game
    handed = "".join("1" if s.autoplayed else "0" for s in game.seats)
    return (f'"{game.id}.{game.version}.{game.status}.{len(game.seats)}.{handed}.'
            f'{seat if seat is not None else "-"}.{lang}"')


def games(lang: str) -> list[dict[str, Any]]:
    """The games there are (the registry's list), each with its board on the page."""
    return [{"id": info.id, "title": game_name(info, lang), "sign": game_sign(info.id)}
            for info in registry.all_infos()]


def page_words(lang: str) -> dict[str, dict[str, str]]:
    """The page's words in ``lang`` from the catalogues, by section: the page's own ("page") and
    each game's board's ("page:<game>"), msgid → text (English sends none: its text is the msgid)."""
    return {section: entries(lang, section) for section in ["page", *(f"page:{kit.id}" for kit in kits())]}


def game_json(match: Match, seat: int | None, lang: str) -> dict[str, Any]:
    """The whole page's data for one game, as ``seat`` (None: not seated there) may see it."""
    game = match.game
    ctx = match.ctx(lang)
    running = game.status == Status.RUNNING and match.state is not None
    own = seat is not None and match.ui.moves_on_page
    view = None
    story: list[str] = []
    if match.state is not None:
        view = match.eng.view(match.state, seat if own else None)
        # The page sets each line as text, never as markup.
        story = [plain_text(line) for line in match.ui.story(ctx, game.last_events)]
    current = match.current
    my_turn = own and running and current == seat and not game.seats[seat].autoplayed
    return {
        "id": game.short_id,
        "kind": game.kind,
        "title": game_name(registry.info(game.kind), lang),
        "status": str(game.status),
        "version": game.version,
        "turn": match.turn,
        "names": ctx.plain_names,
        "computers": [s.is_computer or s.autoplayed for s in game.seats],
        "seat": seat,
        "current": current,
        "my_turn": my_turn,
        "moves": own,
        "variants": variants(game.kind, game.options, lang),
        "view": view,
        "play": match.kit.page_play(match.state, seat) if my_turn else None,
        "story": story,
        "lobby": lobby(match, seat) if game.status == Status.LOBBY else None,
    }


def variants(kind: str, options: dict[str, Any], lang: str) -> list[dict[str, str]]:
    """The rule variants switched on in the lobby, worded as the lobby words them."""
    out = []
    for opt in registry.info(kind).options:
        if opt.kind == "bool" and options.get(opt.key, opt.default):
            out.append({"key": opt.key, "label": option_label(opt.key, lang), "hint": option_hint(opt.key, lang)})
    return out


def lobby(match: Match, seat: int | None) -> dict[str, Any]:
    """A game not started yet: how many sit there (their names are the game's), how many it takes,
    and whether this person may still take a seat (the door decides when they tap Join)."""
    game = match.game
    info = registry.info(game.kind)
    return {"seats": len(game.seats), "min": info.min_players, "max": info.max_players,
            "joined": seat is not None,
            "can_join": seat is None and len(game.seats) < info.max_players}
