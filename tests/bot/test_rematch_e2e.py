"""🔁 under the results, to its small ends: taken off once (a second tap on a client that still
shows it edits nothing again: each edit costs one of the group's paced writes), and given back
when the rematch lobby it opened is cancelled."""
from __future__ import annotations

from tests.bot.harness import button_data, buttons
from tests.bot.test_busy_group import GROUP, lucky_game, play_until_one_move_is_left, results_in


def markup_edits(fake, message_id: int) -> int:
    return sum(1 for r in fake.calls("editMessageReplyMarkup", GROUP) if r.params.get("message_id") == message_id)


async def test_the_rematch_button_goes_once_and_comes_back_when_its_lobby_is_cancelled(fake, runner):
    game, (anna, boris) = await lucky_game(fake, runner)
    mover, data = await play_until_one_move_is_left(runner, game, (anna, boris), fake)
    await mover.press(GROUP, game.table_msg, data)
    await runner.idle()
    results = results_in(fake)[-1]
    rematch = button_data(results, text="Rematch")
    assert "you host it" in (await boris.press(GROUP, results.message_id, rematch))["text"]
    await runner.idle()
    assert [b["text"] for b in buttons(fake.message(GROUP, results.message_id))] == ["🎞 Replay"]
    assert markup_edits(fake, results.message_id) == 1
    # A late tap on 🔁 is told where the lobby is, and the results are not edited again.
    assert "open already" in (await anna.press(GROUP, results.message_id, rematch))["text"]
    await runner.idle()
    assert markup_edits(fake, results.message_id) == 1
    # The host cancels the rematch lobby: the results offer 🔁 again, and it works.
    lobby_game = next(g for g in await runner.games() if g.status == "lobby")
    lobby = fake.message(GROUP, lobby_game.lobby_msg)
    assert "Cancelled" in (await boris.press(GROUP, lobby.message_id, button_data(lobby, text="Cancel")))["text"]
    await runner.idle()
    assert [b["text"] for b in buttons(fake.message(GROUP, results.message_id))] == ["🎞 Replay", "🔁 Rematch"]
    assert "you host it" in (await anna.press(GROUP, results.message_id, rematch))["text"]
    again = next(g for g in await runner.games() if g.status == "lobby")
    assert again.id != lobby_game.id and again.host_id == anna.id
