"""``python -m bench arena``: computer players against each other, one JSON line of figures.

    python -m bench arena --game cones --players 2 --a hard --b random --games 200 --seed 1

Seat A plays level ``--a``, every other seat level ``--b``; A moves through the seats from
game to game so that no level keeps the first move. ``a_share`` is A's average result: 1 for
a win, 1/k for a first place shared by k, 0 otherwise. ``move_ms_*`` time A's decisions.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from engines import ai, registry
from bench.measure import percentile
from engines.base import options_from_dict


def play(game: str, players: int, levels: list[str], seed: int, times: dict[int, list[float]] | None = None):
    """One game with ``levels[seat]`` at each seat; returns the engine's Outcome."""
    eng = registry.engine(game)
    state = eng.setup(players, options_from_dict(eng.Options, None), seed)
    while (seat := eng.current_player(state)) is not None:
        view = eng.view(state, seat)
        started = time.perf_counter()
        action = ai.choose(game, view, seat, levels[seat], ai.seed_for(seed, eng.turn(state), seat))
        if times is not None and seat in times:
            times[seat].append(time.perf_counter() - started)
        state, _ = eng.apply(state, seat, action)
    return eng.outcome(state)


def arena(game: str, players: int, a: str, b: str, games: int, seed: int) -> dict:
    share = 0.0
    moves: list[float] = []
    for k in range(games):
        seat_a = k % players
        levels = [b] * players
        levels[seat_a] = a
        times: dict[int, list[float]] = {seat_a: []}
        result = play(game, players, levels, seed * 1_000_003 + k, times)
        moves += times[seat_a]
        winners = result.winners
        if seat_a in winners:
            share += 1 / len(winners)
    return {"game": game, "players": players, "a": a, "b": b, "games": games,
            "a_share": round(share / games, 4) if games else 0.0,
            "move_ms_p50": round(percentile(moves, 0.50) * 1000, 2), "move_ms_p99": round(percentile(moves, 0.99) * 1000, 2), "seed": seed}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench arena", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, choices=registry.game_ids())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--a", default="hard", choices=ai.ARENA_LEVELS)
    parser.add_argument("--b", default="random", choices=ai.ARENA_LEVELS)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    info = registry.info(args.game)
    if not max(2, info.min_players) <= args.players <= info.max_players:
        parser.error(f"{args.game} is for {info.min_players}-{info.max_players} players")
    print(json.dumps(arena(args.game, args.players, args.a, args.b, args.games, args.seed)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
