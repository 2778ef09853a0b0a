"""Every end seen, across a stop of the real process (``python -m bot``): a game's results reach
the group exactly once, and each person's own result in private at most once when the process
is killed (exactly once when it is stopped in order), however the stop falls.

The game is played to its last move in this process (the same database, the fake Telegram);
the last move is pressed on a real bot process, which is then stopped with SIGTERM (a deploy,
``docker stop``) or SIGKILL, and started again.
"""
from __future__ import annotations

import asyncio
import random
import signal
import sqlite3
import time

import pytest

from bot.games import kit_for
from engines import registry
from tests.bot.harness import BotRunner, Player, buttons, start_game
from tests.bot.test_cli import launch_bot

GROUP = -100777


async def one_move_left(runner, game_id: int, seed: int = 5) -> tuple[int, str]:
    """Play the game (as computers would, moves that do not end it) until a move that ends it
    is possible; that move's seat and its code."""
    match = await runner.bot.book.load(game_id)
    eng, rng = match.eng, random.Random(seed)
    for _ in range(5000):
        state = match.state
        seat = eng.current_player(state)
        actions = eng.legal_actions(state, seat)
        ending = [a for a in actions if eng.outcome(eng.apply(state, seat, a)[0]) is not None]
        if ending:
            return seat, eng.encode_action(ending[0])
        await runner.bot.play.act(game_id, seat, eng.turn(state), rng.choice(actions), by="computer")
    raise AssertionError("the game never came to its last move")


async def group_game_one_move_left(fake, runner, kind: str) -> tuple:
    """Anna and Boris (both with the private chat open) play ``kind`` in the group until one
    move is left: (the game, the people, the last move's seat and its code)."""
    fake.add_group(GROUP, "Game night")
    people = [Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")]
    for p in people:
        await p.start_private()
    game = await start_game(fake, runner, GROUP, kind, people)
    return (game, people) + await one_move_left(runner, game.id)


async def game_at_its_last_move(fake, db, kind: str) -> tuple:
    """A two-player group game of ``kind`` one move from its end, and the bot stopped."""
    runner = await BotRunner(fake, db).start()
    try:
        game, _, seat, code = await group_game_one_move_left(fake, runner, kind)
        await runner.idle(timeout=60)
        game = await runner.game(game.id)
    finally:
        await runner.stop()
    user, eng = game.seats[seat].user_id, registry.engine(kind)
    # The move is pressed where the game takes it: the table, or the player's private message.
    where, message = (user, game.seats[seat].dm_msg) if kit_for(kind).ui.moves_in_private else (GROUP, game.table_msg)
    return game, user, where, message, f"{game.short_id}:{eng.turn(eng.from_json(game.state))}:{code}"


def started(fake, proc, polls_before: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while len(fake.calls("getUpdates")) <= polls_before:
        assert proc.poll() is None, proc.stdout.read()
        assert time.monotonic() < deadline, "the bot never polled"
        time.sleep(0.05)


def stopped(proc, how: int) -> str:
    proc.send_signal(how)
    output, _ = proc.communicate(timeout=30)
    if how == signal.SIGTERM:
        assert proc.returncode == 0, output
    assert "Traceback" not in output, output
    return output


def status(db, game_id: int) -> str:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT status FROM games WHERE id=?", (game_id,)).fetchone()[0]
    finally:
        conn.close()


def results(fake) -> list:
    return [m for m in fake.messages(GROUP) if m.from_bot and (m.text or "").startswith("🏁")]


def private_results(fake, user_id: int) -> list:
    return [r for r in fake.calls("sendMessage", user_id)
            if "To the results" in str(r.params.get("reply_markup"))]


def stored(db, game_id: int) -> tuple:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT results_msg, end_shown FROM games WHERE id=?", (game_id,)).fetchone()
    finally:
        conn.close()


def run_until(fake, tmp_path, condition, *, timeout: float = 30.0, **env) -> None:
    """Start the bot again on the same database until ``condition()`` holds, and stop it in order."""
    proc = launch_bot(fake, tmp_path, TABLEBOT_DB=str(tmp_path / "end.sqlite3"), **env)
    try:
        started(fake, proc, len(fake.calls("getUpdates")))
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, "the end was not shown after the restart"
            time.sleep(0.1)
        time.sleep(1.0)  # anything more it would send (it must not)
    finally:
        stopped(proc, signal.SIGTERM)


async def test_an_orderly_stop_at_the_last_move_leaves_the_results_for_the_next_start(fake, tmp_path):
    """Cones at a group's pace: the final table takes the group's write, the results wait their
    turn, SIGTERM comes: they are neither posted nor marked, and the next start posts them once."""
    db = tmp_path / "end.sqlite3"
    game, user, where, message, data = await game_at_its_last_move(fake, db, "cones")
    # Seven writes a minute: no burst, a write every 10 s: the final table's edit spends the
    # group's write, the results wait 10 s more: past the stop's grace (4 s at most).
    proc = launch_bot(fake, tmp_path, TABLEBOT_DB=str(db), TABLEBOT_GROUP_WRITES_PER_MINUTE="7")
    started(fake, proc, len(fake.calls("getUpdates")))
    qid = fake.user_presses(user, where, message, data)
    await fake.wait_for(lambda: fake.callback_answer(qid), timeout=15)
    # The final table is shown (its buttons gone): the results are next, waiting their turn.
    await fake.wait_for(lambda: not buttons(fake.message(GROUP, game.table_msg)), timeout=25)
    await asyncio.sleep(0.2)
    output = stopped(proc, signal.SIGTERM)
    assert not results(fake), output
    assert stored(db, game.id) == (None, 0)  # not posted, not marked: the next start posts them
    run_until(fake, tmp_path, lambda: results(fake))
    assert len(results(fake)) == 1
    assert not buttons(fake.message(GROUP, game.table_msg))  # the final table, without buttons
    assert stored(db, game.id) == (results(fake)[0].message_id, 1)


@pytest.mark.parametrize("kind,how", [("lucky", signal.SIGKILL), ("lucky", signal.SIGTERM),
                                      ("genial", signal.SIGKILL)])
async def test_a_stop_as_the_results_go_out_shows_them_once(fake, tmp_path, kind, how):
    """Stopped the moment the group's results reach Telegram: after the restart they are there
    once; each person's own result in private (lucky) arrives at most once after a kill, and
    exactly once after an orderly stop."""
    db = tmp_path / "end.sqlite3"
    game, user, where, message, data = await game_at_its_last_move(fake, db, kind)
    proc = launch_bot(fake, tmp_path, TABLEBOT_DB=str(db))
    started(fake, proc, len(fake.calls("getUpdates")))
    fake.user_presses(user, where, message, data)
    deadline = time.monotonic() + 20
    while not results(fake):
        assert time.monotonic() < deadline and proc.poll() is None, "no results"
        await asyncio.sleep(0.005)
    stopped(proc, how)
    run_until(fake, tmp_path, lambda: stored(db, game.id)[1] == 1)
    assert len(results(fake)) == 1, [m.text for m in results(fake)]
    if kind == "lucky":
        told = [len(private_results(fake, seat.user_id)) for seat in game.seats]
        assert all(n <= 1 for n in told) if how == signal.SIGKILL else told == [1, 1], told


def said_why(fake) -> list:
    return [m for m in fake.messages(GROUP) if m.from_bot and "cancelled by" in (m.text or "")]


async def restarted(fake, db, **config) -> None:
    """The bot started again on ``db``: idle, then stopped in order."""
    runner = await BotRunner(fake, db, **config).start()
    await runner.idle(timeout=30)
    await runner.stop()


async def test_why_a_game_was_cancelled_is_said_once_across_kills(fake, tmp_path):
    """The group hears once why a running game was cancelled: the bot killed while its request
    was with Telegram does not say it again; killed while it still waited for the group's pace, it
    says it at the next start."""
    db = tmp_path / "end.sqlite3"
    runner = await BotRunner(fake, db).start()
    fake.add_group(GROUP, "Game night")
    people = [Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")]
    for p in people:
        await p.start_private()
    first = await start_game(fake, runner, GROUP, "lucky", people)
    # Telegram takes the message but its answer never comes back before the kill.
    fake.set_faults(1.0, ("slow",), methods={"sendMessage"}, slow_seconds=60.0)
    fake.user_sends(1, GROUP, "/cancel")
    await fake.wait_for(lambda: said_why(fake), timeout=15)
    await runner.crash()
    fake.set_faults(0)
    await restarted(fake, db)
    await restarted(fake, db)
    assert len(said_why(fake)) == 1 and stored(db, first.id)[1] == 1
    # A second game; the bot starts again at a pace so slow that, once its table is redrawn, the
    # message waits: killed then, the next start says it, once.
    runner = await BotRunner(fake, db).start()
    second = await start_game(fake, runner, GROUP, "lucky", [Player(fake, runner, 1, "Anna"),
                                                            Player(fake, runner, 2, "Boris")])
    await runner.stop()
    runner = await BotRunner(fake, db, group_writes_per_minute=7, group_fast_spacing=1.0,
                             group_window_seconds=600.0).start()
    await runner.idle(timeout=30)
    fake.user_sends(1, GROUP, "/cancel")
    await fake.wait_for(lambda: status(db, second.id) == "cancelled", timeout=10)
    await asyncio.sleep(0.5)  # the message waits for the group's next write, minutes away
    assert len(said_why(fake)) == 1 and stored(db, second.id)[1] == 0
    await runner.crash()
    fake.set_down(False)
    await restarted(fake, db)
    assert len(said_why(fake)) == 2 and stored(db, second.id)[1] == 1
    await restarted(fake, db)
    assert len(said_why(fake)) == 2
