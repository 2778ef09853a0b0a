"""The command guard: who floods a group is slowed down, whoever writes now and then is not."""
from __future__ import annotations

from bot.updates.floods import CommandGuard, Verdict

GROUP, ANNA, BORIS = -100, 1, 2


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_member_writing_now_and_then_is_always_first():
    clock = Clock()
    guard = CommandGuard(clock=clock)
    for words in ("/help", "/rules trio", "/board", "/rules lucky", "/help", "/new cones", "/board", "/help"):
        assert guard.check(GROUP, ANNA, words) is Verdict.FIRST
        clock.now += 12  # a command every 12 s: never more than the pause, never a flood


def test_the_same_command_again_is_taken_once_unless_another_came_between():
    clock = Clock()
    guard = CommandGuard(clock=clock)
    assert guard.check(GROUP, ANNA, "/board") is Verdict.FIRST
    clock.now += 1
    assert guard.check(GROUP, ANNA, "/BOARD ") is Verdict.REPEAT
    assert guard.check(GROUP, BORIS, "/board") is Verdict.FIRST  # somebody else's is their own
    clock.now += 1
    assert guard.check(GROUP, ANNA, "/board") is Verdict.OK  # another command came between
    clock.now += 31
    assert guard.check(GROUP, ANNA, "/board") is Verdict.FIRST


def test_a_flood_gets_one_word_then_silence_until_the_window_has_passed():
    clock = Clock()
    guard = CommandGuard(clock=clock)
    verdicts = []
    for i in range(50):
        verdicts.append(guard.check(GROUP, ANNA, f"/rules {i}"))
        clock.now += 0.04
    assert verdicts[0] is Verdict.FIRST
    assert verdicts[1:guard.burst] == [Verdict.OK] * (guard.burst - 1)  # in turn with the table
    assert verdicts[guard.burst] is Verdict.SLOW_DOWN
    assert set(verdicts[guard.burst + 1:]) == {Verdict.QUIET}
    assert guard.check(GROUP, BORIS, "/help") is Verdict.FIRST  # nobody else is held
    clock.now += guard.window + 1
    assert guard.check(GROUP, ANNA, "/help") is Verdict.FIRST


def test_private_chats_are_not_limited():
    guard = CommandGuard(clock=Clock())
    assert {guard.check(ANNA, ANNA, "/help") for _ in range(20)} == {Verdict.FIRST}
