"""``python -m bot migrate --from FILE --to postgresql://…`` as the operator runs it: a database the
bot played in (games of every kind and state, records, ratings, a series, settings, a forgotten
person) is copied whole to a real PostgreSQL, which then reads the same, and the bot continues a
running game from it."""
from __future__ import annotations

import fcntl
import random

import pytest

from bot.storage import instance
from bot.storage.choose import make_store
from bot.storage.migrate import TABLES
from bot.storage.store import Earned, Rating, SeasonNews, SeasonTitle
from tests.bot.harness import BotRunner, Player, play_against_a_computer, press_until_over, start_game
from tests.bot.test_cli import run_bot

GROUP, OTHER_GROUP = -1003000, -1003001


async def _played_database(fake, path) -> int:
    """A bot's SQLite database with a row in every table; the id of the game left running."""
    runner = await BotRunner(fake, path).start()
    fake.add_group(GROUP, "Friday games", admins=[1])
    fake.add_group(OTHER_GROUP, "Other games", admins=[2])
    anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Борис")
    for p in (anna, boris):
        await p.start_private()
    for kind, seed in (("lucky", 1), ("cones", 2)):  # finished, recorded, rated
        await play_against_a_computer(fake, runner, anna, kind, seed)
    trio = await start_game(fake, runner, GROUP, "trio", [anna, boris])  # hidden hands, left running
    await press_until_over(fake, runner, trio.id, random.Random(3), most=3)
    await boris.say(OTHER_GROUP, "/new genial")  # a lobby
    await runner.store.set_chat_setting(GROUP, "turn_timeout", 120)
    await runner.store.create_series(GROUP, "lucky", 3, [1, 2])
    await runner.store.forget_user(77)
    # A season closed, with its champion and its message to the group (the games above are
    # counted in the season now running, and earned their players achievements).
    await runner.store.close_season("2027-03", 1.0, [SeasonNews("2027-03", GROUP, 0)],
                                    [SeasonTitle("2027-03", "cones", GROUP, 1, 1500, 1)])
    await runner.store.count_season_game(10**6, "2027-03", [Rating(1, "cones", 25.0, 8.0, 1500, 1)])
    await runner.store.grant([Earned(1, "first_game", 1, 1.0)])
    await runner.store.set_mark("test", "1")
    await runner.stop()
    return trio.id


def _counts(stdout: str) -> dict[str, tuple[int, int]]:
    rows = [line.split() for line in stdout.splitlines()]
    return {row[0]: (int(row[1]), int(row[2])) for row in rows if row and row[0] in TABLES}


async def test_a_played_database_is_copied_whole_and_the_bot_continues_on_postgresql(fake, tmp_path, postgres_url):
    path = tmp_path / "tablebot.sqlite3"
    running = await _played_database(fake, path)

    result = run_bot(["migrate", "--from", str(path), "--to", postgres_url], {})
    assert result.returncode == 0, result.stderr
    counts = _counts(result.stdout)
    assert list(counts) == TABLES
    for table, (sqlite_rows, pg_rows) in counts.items():
        assert sqlite_rows == pg_rows > 0, (table, result.stdout)
    assert "migrated" in result.stdout.splitlines()[-1]
    status = run_bot(["status"], {"TABLEBOT_DB": postgres_url})  # the operator's view of the new database
    assert status.returncode == 0, status.stderr
    assert len(status.stdout.splitlines()) == counts["games"][0]

    lite, pg = await make_store(str(path)).open(), await make_store(postgres_url).open()
    try:
        games = await lite.all_games()
        assert {g.kind for g in games} == {"lucky", "cones", "trio", "genial"}
        assert await pg.all_games() == games
        for game in games:
            assert await pg.actions(game.id) == await lite.actions(game.id)
            assert await pg.game_record(game.id) == await lite.game_record(game.id)
        for user_id in (1, 2, 77):
            assert await pg.user(user_id) == await lite.user(user_id)
            assert await pg.played(user_id) == await lite.played(user_id)
            assert await pg.rating_history(user_id) == await lite.rating_history(user_id)
        for chat_id in (GROUP, OTHER_GROUP, 1):
            assert await pg.chat(chat_id) == await lite.chat(chat_id)
            assert await pg.chat_records(chat_id, 10) == await lite.chat_records(chat_id, 10)
        for kind in ("lucky", "cones"):
            assert await pg.top(kind, min_games=0, limit=10) == await lite.top(kind, min_games=0, limit=10)
        assert await pg.series(1) == await lite.series(1)
        assert (await pg.create_series(GROUP, "trio", 2, [1, 2])).id == 2  # ids go on after the copied ones
    finally:
        await lite.close()
        await pg.close()

    runner = await BotRunner(fake, postgres_url).start()
    try:
        assert await press_until_over(fake, runner, running, random.Random(4))
        await runner.idle(timeout=60)
        assert await runner.store.game_record(running) is not None
        await Player(fake, runner, 1, "Anna").say(GROUP, "/new lucky")
        lobby = await runner.store.open_game_at(GROUP)
        assert lobby.id == max(g.id for g in games) + 1
    finally:
        await runner.stop()


async def test_a_target_that_holds_rows_is_refused_unless_forced(fake, tmp_path, postgres_url):
    path = tmp_path / "tablebot.sqlite3"
    store = await make_store(str(path)).open()
    await store.touch_user(1, "Anna", None, "en")
    await store.close()
    target = await make_store(postgres_url).open()
    await target.touch_user(2, "Boris", None, "en")
    await target.touch_user(3, "Cleo", None, "en")
    await target.close()

    refused = run_bot(["migrate", "--from", str(path), "--to", postgres_url], {})
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and "is not empty (2 users)" in refused.stderr and "--force" in refused.stderr
    forced = run_bot(["migrate", "--from", str(path), "--to", postgres_url, "--force"], {})
    assert forced.returncode == 0, forced.stderr
    assert _counts(forced.stdout)["users"] == (1, 1)
    target = await make_store(postgres_url).open()
    try:
        assert [await target.user(u) is not None for u in (1, 2, 3)] == [True, False, False]  # replaced, not mixed
    finally:
        await target.close()


@pytest.mark.parametrize("problem", ["running", "missing", "not postgresql", "no server"])
def test_what_cannot_be_migrated_is_one_line_and_exit_code_2(tmp_path, postgres_server, problem):
    path = tmp_path / "tablebot.sqlite3"
    target = postgres_server.get_uri()
    if problem == "running":
        path.write_bytes(b"")
        held = open(instance.lock_path(str(path)), "w")
        fcntl.flock(held, fcntl.LOCK_EX)  # as a running bot holds it
    elif problem == "missing":
        path = tmp_path / "nothing-here.sqlite3"
    elif problem == "not postgresql":
        path.write_bytes(b"")
        target = str(tmp_path / "other.sqlite3")
    else:
        path.write_bytes(b"")
        target = f"postgresql://tablebot:s3cret@/tablebot?host={tmp_path}"
    result = run_bot(["migrate", "--from", str(path), "--to", target], {})
    if problem == "running":
        held.close()
    assert result.returncode == 2 and result.stderr.startswith("tablebot: ") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr and "s3cret" not in result.stderr
    assert {"running": "stop it first", "missing": "no such file", "not postgresql": "--to",
            "no server": "cannot reach"}[problem] in result.stderr
