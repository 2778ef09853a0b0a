"""Every kind of game is recorded when it ends: places and scores for people and computers, the
person's rating moved and the computer's not. Through the real client and the fake Bot API, as
cheaply as a whole game allows: one person against one easy computer, in private."""
from __future__ import annotations

import pytest

from tests.bot.harness import Player, play_against_a_computer


@pytest.mark.parametrize("kind", ["lucky", "cones", "genial", "trio"])
async def test_a_game_of_every_kind_is_recorded_and_rates_the_person_only(fake, runner, kind):
    anna = Player(fake, runner, 1, "Anna")
    await anna.start_private()
    game = await play_against_a_computer(fake, runner, anna, kind, seed=7)
    record = await runner.store.game_record(game.id)
    assert record is not None and record.kind == kind and record.status == "finished" and record.rated
    assert len(record.seats) == 2
    for seat in record.seats:
        assert seat.place == game.outcome["places"][seat.seat] and seat.place in (1, 2)
        assert seat.score is not None
    person = next(s for s in record.seats if not s.is_computer)
    computer = next(s for s in record.seats if s.is_computer)
    assert person.user_id == anna.id and person.name == "Anna"
    assert person.before == 1500 and person.after is not None and person.after != person.before
    assert person.games == 1
    assert computer.level == "easy" and (computer.before, computer.after) == (None, None)
    ratings = await runner.store.ratings(kind, [anna.id, computer.user_id])
    assert list(ratings) == [anna.id] and ratings[anna.id].figure == person.after
