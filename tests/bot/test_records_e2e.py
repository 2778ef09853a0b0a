"""Records, ratings and the commands that show them, through the real client and the fake Bot API."""
from __future__ import annotations

import random
import sqlite3

from bot.records.rating import PROVISIONAL_GAMES
from bot.storage.store import GameRecord, Rating, RecordSeat
from tests.bot.harness import BotRunner, Player, button_data, play_against_a_computer, press_until_over, start_game

GROUP = -1003000  # a supergroup: its messages have t.me/c/ links


def plain(text: str | None) -> str:
    return (text or "").replace("\u2068", "").replace("\u2069", "").replace("\u2060", "")


async def ask(fake, person: Player, chat: int, text: str, **kw) -> str:
    await person.say(chat, text, **kw)
    return plain(fake.last_bot_message(chat).text)


async def play_three(fake, runner, kind: str = "lucky", seed: int = 3):
    fake.add_group(GROUP, "Friday games", admins=[1])
    people = [Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris"), Player(fake, runner, 3, "Cleo")]
    for p in people:
        await p.start_private()
    game = await start_game(fake, runner, GROUP, kind, people)
    assert await press_until_over(fake, runner, game.id, random.Random(seed))
    await runner.idle(timeout=60)
    return people, await runner.game(game.id)


async def test_a_group_game_is_recorded_rated_and_shown_in_stats_and_history(fake, runner_on_each_db):
    runner = runner_on_each_db
    (anna, boris, cleo), game = await play_three(fake, runner)
    record = await runner.store.game_record(game.id)
    assert record.status == "finished" and record.rated and record.chat_id == GROUP
    assert sorted(s.user_id for s in record.seats) == [1, 2, 3]
    places = {s.user_id: s.place for s in record.seats}
    assert places == {s.user_id: game.outcome["places"][s.seat] for s in game.seats}
    # Winners go up, the last goes down; every person's change is in the results message.
    for s in record.seats:
        assert s.before == 1500 and s.games == 1
        if s.place == 1:
            assert s.after > s.before
        if s.place == max(places.values()):
            assert s.after < s.before
    results = plain(fake.message(GROUP, game.results_msg).text)
    assert "Rating" in results
    for s in record.seats:
        assert f"{s.name}: 1500? → {s.after}? ({s.after - 1500:+d})" in results
    assert results.count("«?»: provisional while there are fewer than 5 rated games.") == 1
    ratings = await runner.store.ratings("lucky", [1, 2, 3])
    assert {u: r.figure for u, r in ratings.items()} == {s.user_id: s.after for s in record.seats}

    stats = await ask(fake, anna, GROUP, "/stats")
    assert "Played here: Totally Genial — 1 game" in stats
    for name in ("Anna", "Boris", "Cleo"):
        assert name in stats
    assert stats.count("«?»: provisional") == 1  # the figures are provisional, and say so once
    leaders = stats.split("Totally Genial: ", 2)[1].split("\n")[0]
    history = fake.last_bot_message(GROUP)
    assert f"https://t.me/c/3000/{game.results_msg}" not in (history.text or "")
    await anna.say(GROUP, "/history")
    history = fake.last_bot_message(GROUP)
    links = [e for e in history.entities or [] if e.get("type") == "text_link"]
    assert [e["url"] for e in links] == [f"https://t.me/c/3000/{game.results_msg}"]

    mine = await ask(fake, anna, anna.id, "/stats")
    assert "Totally Genial" in mine and "games: 1" in mine and "rating: " in mine and "?" in mine
    # As a reply to Boris's message in the group: Boris's record.
    said = fake.user_sends(boris.id, GROUP, "good game")
    theirs = await ask(fake, anna, GROUP, "/stats", reply_to=said["message_id"])
    assert "Played here" not in theirs and "Boris" in theirs and "games: 1" in theirs

    # /top lists whom /stats listed, in the same order (provisional, said once); an unknown game
    # lists the games.
    top = await ask(fake, cleo, GROUP, "/top lucky")
    listed = [line.split(". ", 1)[1].split(" (games")[0] for line in top.split("\n") if line[:2] in ("1.", "2.", "3.")]
    assert ", ".join(x.replace(" — ", " ") for x in listed) == leaders, (top, leaders)
    assert "come after the others" in top
    assert "Which game?" in await ask(fake, cleo, GROUP, "/top chess")
    assert "cones" in await ask(fake, boris, GROUP, "/top")


async def test_a_private_game_against_computers_rates_only_the_person(fake, runner):
    anna = Player(fake, runner, 1, "Anna")
    await anna.start_private()
    await anna.say(anna.id, "/new cones bots=2 level=hard")
    lobby = fake.last_bot_message(anna.id)
    if any("Start" in b["text"] for row in (lobby.reply_markup or {}).get("inline_keyboard", []) for b in row):
        await anna.press(anna.id, lobby.message_id, button_data(lobby, text="Start"))
    game = next(g for g in await runner.games() if g.chat_id == anna.id)
    assert await press_until_over(fake, runner, game.id, random.Random(5))
    await runner.idle(timeout=60)
    record = await runner.store.game_record(game.id)
    assert record.rated
    bots = [s for s in record.seats if s.is_computer]
    assert len(bots) == 2 and all(b.level == "hard" and b.after is None for b in bots)
    person = next(s for s in record.seats if not s.is_computer)
    assert person.after is not None and person.games == 1
    ratings = await runner.store.ratings("cones", [1] + [s.user_id for s in bots])
    assert list(ratings) == [1]  # computers have fixed ratings, never stored or moved


async def _seed_ratings(store, chat_id: int, people: dict[int, str], games: int, first: int = 0) -> None:
    """``games`` recorded two-player games of cones in ``chat_id`` for each pair in ``people``,
    through the store's protocol; ratings set directly (the store keeps what it is given).
    ``first``: the number of the first game (another call for the same chat starts further on)."""
    ids = sorted(people)
    for n in range(first, first + games):
        gid = 10_000 + abs(chat_id) % 10_000 * 100 + n
        seats = [RecordSeat(i, u, people[u], place=i + 1, team=i) for i, u in enumerate(ids)]
        await store.record_game(GameRecord(gid, "cones", chat_id, 0, "finished", True, {}, None, n, n + 1, seats),
                                [Rating(u, "cones", 25.0 + 10 - i, 2.0, 1900 - 50 * i, games)
                                 for i, u in enumerate(ids)])


async def test_top_in_a_group_and_everywhere(fake, runner):
    fake.add_group(GROUP, "Friday games")
    anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")
    cleo = Player(fake, runner, 3, "Cleo")
    await anna.start_private()
    await _seed_ratings(runner.store, GROUP, {1: "Anna", 2: "Boris"}, PROVISIONAL_GAMES)
    await _seed_ratings(runner.store, -1004000, {3: "Cleo"}, PROVISIONAL_GAMES)
    # (ratings seeded in the store, as of games played before seasons: /top of all time)
    here = await ask(fake, anna, GROUP, "/top cones all")
    assert "the best here of all time" in here and "1. Anna — 1900" in here and "2. Boris — 1850" in here
    assert "Cleo" not in here
    everywhere = await ask(fake, anna, anna.id, "/top конусы все")
    assert "Cleo" in everywhere and "Anna" in everywhere
    # Someone with fewer rated games comes after those with enough, marked «?», in both lists.
    await _seed_ratings(runner.store, GROUP, {4: "Dora", 5: "Emil"}, 1, first=PROVISIONAL_GAMES)
    here = await ask(fake, boris, GROUP, "/top cones all")  # (Anna's same command again would be a flood)
    assert "1. Anna — 1900 " in here and "2. Boris — 1850 " in here and "3. Dora — 1900? " in here
    stats = await ask(fake, cleo, GROUP, "/stats")
    assert "Cones: Anna 1900, Boris 1850, Dora 1900?" in stats and stats.count("«?»") == 1


async def test_look_alike_names_are_told_apart_in_stats_and_top(fake, runner):
    """«Ａｎｎａ 1560?, Anna 1540?, 𝐀𝐧𝐧𝐚 1509?» were three people nobody could tell apart: each
    gets their @username, and one without any a « (2)», in /stats and /top alike."""
    fake.add_group(GROUP, "Friday games")
    people = {1: ("Ａｎｎａ", "anna_wide"), 2: ("Anna", None), 3: ("𝐀𝐧𝐧𝐚", "anna_bold"), 4: ("Аnna", None)}
    for user_id, (name, username) in people.items():
        person = Player(fake, runner, user_id, name)
        fake.add_user(user_id, name, username=username)
        await person.start_private()  # the bot learns the name and the username
    await _seed_ratings(runner.store, GROUP, {u: name for u, (name, _) in people.items()}, 2)
    stats = await ask(fake, Player(fake, runner, 9, "Zoe"), GROUP, "/stats")
    shown = stats.split("Cones: ", 1)[1].split("\n")[0].split(", ")
    top = await ask(fake, Player(fake, runner, 9, "Zoe"), GROUP, "/top cones all")
    ranked = [line.split(". ", 1)[1].split(" — ")[0] for line in top.split("\n")[1:5]]
    assert ranked == ["Ａｎｎａ (@anna_wide)", "Anna", "𝐀𝐧𝐧𝐚 (@anna_bold)", "Аnna (2)"], top
    assert [x.rsplit(" ", 1)[0] for x in shown] == ranked[:3], stats
    assert not any(e.get("type") == "mention" for e in fake.last_bot_message(GROUP).entities or [])


async def test_forgetme_asks_then_names_become_a_player_and_the_rating_is_gone(fake, runner):
    (anna, boris, cleo), game = await play_three(fake, runner)
    assert "in private" in await ask(fake, boris, GROUP, "/forgetme")
    await boris.say(boris.id, "/forgetme")
    question = fake.last_bot_message(boris.id)
    assert "Forget your games?" in plain(question.text)
    assert (await runner.store.ratings("lucky", [2]))  # nothing changes before the button
    answer = await boris.press(boris.id, question.message_id, button_data(question, text="Yes"))
    assert "forgotten" in answer["text"]
    assert "forgotten" in plain(fake.message(boris.id, question.message_id).text)
    assert not await runner.store.ratings("lucky", [2])
    history = await ask(fake, anna, GROUP, "/history")
    assert "Boris" not in history and "a player" in history and "Anna" in history
    stats = await ask(fake, anna, GROUP, "/stats")
    assert "Boris" not in stats and "a player" in stats
    assert "no finished games" in await ask(fake, boris, boris.id, "/stats")
    # A later game of his is recorded without him (and does not rate him).
    record = await runner.store.game_record(game.id)
    assert [s.name for s in record.seats if s.user_id is None] == [None]


async def test_forgetgroup_is_for_admins_and_asks_first(fake, runner):
    (anna, boris, cleo), game = await play_three(fake, runner)
    assert "Only an admin" in await ask(fake, boris, GROUP, "/forgetgroup")
    await anna.say(GROUP, "/forgetgroup")
    question = fake.last_bot_message(GROUP)
    assert "Forget every game" in plain(question.text)
    refused = await boris.press(GROUP, question.message_id, button_data(question, text="Yes"))
    assert refused.get("show_alert") and await runner.store.chat_records(GROUP, 10)
    await anna.press(GROUP, question.message_id, button_data(question, text="Yes"))
    assert not await runner.store.chat_records(GROUP, 10)
    assert "No games have been played here" in await ask(fake, anna, GROUP, "/history")
    assert (await runner.store.ratings("lucky", [1]))  # ratings are the players' own


async def test_a_database_of_the_previous_version_is_back_filled_in_order(fake, tmp_path):
    db = tmp_path / "old.sqlite3"
    runner = await BotRunner(fake, db).start()
    try:
        (anna, boris, cleo), first = await play_three(fake, runner, seed=3)
        second = await start_game(fake, runner, GROUP, "lucky", [boris, anna, cleo])
        assert await press_until_over(fake, runner, second.id, random.Random(4))
        await runner.idle(timeout=60)
        expected = {u: r.figure for u, r in (await runner.store.ratings("lucky", [1, 2, 3])).items()}
    finally:
        await runner.stop()
    # Back to the schema of the version before records (3), with the games it would have had.
    conn = sqlite3.connect(db)
    conn.executescript("DROP TABLE season_ratings; DROP TABLE season_games; DROP TABLE seasons; "
                       "DROP TABLE season_news; DROP TABLE season_titles; DROP TABLE achievements; DROP TABLE marks; "
                       "DROP TABLE records; DROP TABLE record_seats; DROP TABLE ratings; "
                       "ALTER TABLE actions DROP COLUMN auto; ALTER TABLE users DROP COLUMN forgotten; "
                       "ALTER TABLE games DROP COLUMN end_shown; ALTER TABLE seats DROP COLUMN result_sent; "
                       "DROP INDEX games_by_inline_msg; ALTER TABLE games DROP COLUMN inline_msg; "
                       "DELETE FROM schema_version WHERE version > 3;")
    conn.close()
    runner = await BotRunner(fake, db).start()
    try:
        await runner.idle()
        assert await runner.store.schema_version() >= 4
        for game in (first, second):
            assert (await runner.store.game_record(game.id)).rated
        ratings = await runner.store.ratings("lucky", [1, 2, 3])
        assert {u: r.figure for u, r in ratings.items()} == expected  # the same, in the order of play
        assert all(r.games == 2 for r in ratings.values())
        # Both games ended in the season now running: its ratings are the same, from the same start.
        running = runner.bot.core.seasons.now()
        assert await runner.store.season_ratings(running.key, "lucky", [1, 2, 3]) == ratings
    finally:
        await runner.stop()


async def test_a_game_counts_once_across_a_restart_before_its_results(fake, tmp_path):
    db = tmp_path / "restart.sqlite3"
    runner = await BotRunner(fake, db).start()
    try:
        people, game = await play_three(fake, runner)
        before = await runner.store.ratings("lucky", [1, 2, 3])
    finally:
        await runner.stop()
    # As if the bot had stopped after recording and before posting the results.
    conn = sqlite3.connect(db)
    conn.execute("UPDATE games SET results_msg=NULL, end_shown=0 WHERE id=?", (game.id,))
    conn.commit()
    conn.close()
    runner = await BotRunner(fake, db).start()
    try:
        await runner.idle(timeout=60)
        game = await runner.store.get_game(game.id)
        assert game.results_msg
        assert "Rating" in plain(fake.message(GROUP, game.results_msg).text)
        assert await runner.store.ratings("lucky", [1, 2, 3]) == before
    finally:
        await runner.stop()


async def test_stats_come_with_the_rating_chart_after_two_rated_games(fake, runner, tmp_path):
    fake.add_group(GROUP, "Friday games")
    anna, boris = Player(fake, runner, 1, "Anna"), Player(fake, runner, 2, "Boris")
    await anna.start_private()
    await play_against_a_computer(fake, runner, anna, "trio", seed=1)
    await anna.say(anna.id, "/stats")
    one = fake.last_bot_message(anna.id)
    assert one.photo is None and "games: 1" in plain(one.text)  # one game is a step, not a trend

    await play_against_a_computer(fake, runner, anna, "trio", seed=2)
    await anna.say(anna.id, "/stats")
    chart = fake.last_bot_message(anna.id)
    assert chart.photo is not None and chart.photo_size == (800, 520)
    assert "games: 2" in plain(chart.caption) and "rating: " in plain(chart.caption)  # the stats are its caption
    (tmp_path / "chart.png").write_bytes(chart.photo)
    # In a group, as a reply to her message: her record and her chart.
    said = fake.user_sends(anna.id, GROUP, "good game")
    await boris.say(GROUP, "/stats", reply_to=said["message_id"])
    theirs = fake.last_bot_message(GROUP)
    assert theirs.photo is not None and "Anna" in plain(theirs.caption) and "games: 2" in plain(theirs.caption)

    # Forgotten: no record, so no chart.
    await anna.say(anna.id, "/forgetme")
    question = fake.last_bot_message(anna.id)
    await anna.press(anna.id, question.message_id, button_data(question, text="Yes"))
    await anna.say(anna.id, "/stats")
    gone = fake.last_bot_message(anna.id)
    assert gone.photo is None and "no finished games" in plain(gone.text)
