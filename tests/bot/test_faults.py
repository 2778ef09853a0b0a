"""A sick Telegram: a share of the bot's requests fail (429 with retry_after, 500, time-outs,
dropped connections). A game still plays to its end, nothing is lost or doubled, no traceback,
and every press is answered unless the fault swallowed the answer itself."""
from __future__ import annotations

import logging

from engines import cones
from tests.bot.harness import Player, button_data

GROUP = -1004000


async def test_a_game_plays_to_its_end_with_one_request_in_seven_failing(fake, runner, caplog):
    caplog.set_level(logging.WARNING)
    fake.add_group(GROUP, "Bad line")
    people = {i: Player(fake, runner, i, name) for i, name in ((1, "Anna"), (2, "Boris"))}
    for p in people.values():
        await p.start_private()
    await people[1].say(GROUP, "/new cones")
    lobby = fake.last_bot_message(GROUP)
    await people[2].press(GROUP, lobby.message_id, button_data(lobby, text="Join"))
    await people[1].press(GROUP, lobby.message_id, button_data(lobby, text="Start"))
    game = next(g for g in await runner.games() if g.status == "running")
    fake.set_faults(0.15, ("429", "500", "slow", "drop"), seed=7, slow_seconds=6.0)
    presses = []
    for _ in range(200):
        game = await runner.game(game.id)
        if game.status != "running":
            break
        if game.table_msg is None:  # its post failed: it comes again
            await runner.idle(timeout=60)
            continue
        state = await runner.state(game.id)
        seat = cones.current_player(state)
        legal = cones.legal_actions(state, seat)
        data = f"{game.short_id}:{cones.turn(state)}:{cones.encode_action(legal[len(presses) % len(legal)])}"
        presses.append(fake.user_presses(game.seats[seat].user_id, GROUP, game.table_msg, data))
        await runner.idle(timeout=60)
    fake.set_faults(0)
    await runner.idle(timeout=60)
    game = await runner.game(game.id)
    assert game.status == "finished" and fake.faults, "the game ended although requests failed"
    log = await runner.store.actions(game.id)
    assert len(log) == cones.turn(await runner.state(game.id)), "every move applied exactly once"
    # Every press was answered, unless the fault swallowed the answer (then a retry came later).
    swallowed = {f.request.params.get("callback_query_id") for f in fake.faults if f.method == "answerCallbackQuery"}
    stats = {s.id: s for s in fake.callback_stats()}
    for qid in presses:
        assert stats[qid].times_answered >= 1 or qid in swallowed, stats[qid]
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert not tracebacks, [r.getMessage() for r in tracebacks[:3]]
    # The results reached the group once.
    assert sum("results" in (m.text or "") for m in fake.messages(GROUP)) == 1
