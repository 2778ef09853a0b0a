"""What the page shows of a game to one person, as JSON: never anyone else's secret.

A seated player of a game played on the page («Гениально») gets the engine's view of their own
seat (their rack, nobody else's); everyone else, and every game with a read-only board, gets the
public view (what the group's table shows). Legal placements and their points come from the
engine too: the page only draws what the server says.
"""
from __future__ import annotations

from typing import Any

from engines import genial, registry
from engines.genial.core import tile_names
from bot.table.book import Match
from bot.words.format import plain_text
from bot.storage.store import Status
from bot.words.texts import game_name


def etag(match: Match, seat: int | None, lang: str) -> str:
    """Changes whenever what this person would be shown changes."""
    game = match.game
    handed = "".join("1" if s.autoplayed else "0" for s in game.seats)
    return f'"{game.id}.{game.version}.{game.status}.{handed}.{seat if seat is not None else "-"}.{lang}"'


def game_json(match: Match, seat: int | None, lang: str) -> dict[str, Any]:
    """The whole page's data for one game, as ``seat`` (None: a watcher) may see it."""
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
        "my_turn": own and running and current == seat and not game.seats[seat].autoplayed,
        "moves": own,
        "view": view,
        "story": story,
    }


def placements(match: Match, seat: int, tile: str) -> list[dict[str, Any]]:
    """Where ``seat`` may put a tile now, with what each placement would earn: ``tile`` is a
    rack index ("0".."5") or "drawn" (a tile drawn from the bag). Empty when it is not the
    seat's turn to place. Each entry: the cells of the tile's first and second colour, the
    action's code for the move, and the points per colour (engine.placement_score)."""
    state = match.state
    if match.game.kind != "genial" or match.current != seat or state.phase not in (genial.PLACE, genial.BONUS):
        return []
    drawn = state.drawn
    if tile == "drawn":
        if drawn is None:
            return []
        chosen: Any = tile_names(drawn)
    else:
        rack = state.racks[seat]
        if drawn is not None or not tile.isdigit() or not 0 <= int(tile) < len(rack):
            return []
        chosen = tile_names(rack[int(tile)])
    a, b = chosen
    out = []
    for cell_a, cell_b in genial.legal_placements(state, seat, chosen):
        points = genial.placement_score(state, seat, chosen, cell_a, cell_b)
        out.append({"a": list(cell_a), "b": list(cell_b),
                    "code": genial.encode_action(genial.Place(a, b, cell_a, cell_b)),
                    "points": {c: {k: p[k] for k in ("gained", "lost", "bonus", "total")} for c, p in points.items()}})
    return out
