"""A member who floods a group with commands is slowed down, so that nobody else waits for them.

In a group, the same command from the same person (the same words) right after itself, with no
other command in the chat between them, is taken once in ``same_seconds``: its answer is there
already, or on its way. Beyond ``burst`` commands in ``window`` seconds, the person gets one
short word, then silence until the window has passed.
The person's first command in a while (none of theirs in ``pause`` seconds) is answered before
the table's edits (someone is waiting); the replies to quicker ones take turns with the table's edits (so a member who
writes many commands cannot starve the table, nor be starved by it). A flood in private costs only
the flooder, so private chats are not limited.
"""
from __future__ import annotations

import collections
import enum
import time
from typing import Callable


class Verdict(enum.Enum):
    FIRST = "first"  # taken: the person's first command in a while (its reply goes before the table)
    OK = "ok"  # taken, right after others of theirs (its reply takes turns with the table's edits)
    REPEAT = "repeat"  # the same command again, too soon: ignored
    SLOW_DOWN = "slow_down"  # over the limit: say so, once
    QUIET = "quiet"  # over the limit and told already: ignored


class CommandGuard:
    def __init__(self, *, same_seconds: float = 30.0, burst: int = 6, window: float = 30.0, pause: float = 10.0,
                 clock: Callable[[], float] = time.monotonic):
        self.same_seconds = same_seconds
        self.pause = pause
        self.burst = burst
        self.window = window
        self.clock = clock
        self._recent: dict[tuple[int, int], collections.deque] = {}  # (chat, user) -> (time, words)
        self._told: dict[tuple[int, int], float] = {}
        self._last: dict[int, tuple[int, str, float]] = {}  # chat -> (user, words, time) last taken

    def check(self, chat_id: int, user_id: int, text: str) -> Verdict:
        """Whether to take a command written in ``chat_id`` by ``user_id``."""
        if chat_id > 0:
            return Verdict.FIRST
        now = self.clock()
        key = (chat_id, user_id)
        recent = self._recent.setdefault(key, collections.deque())
        while recent and now - recent[0][0] > max(self.window, self.same_seconds):
            recent.popleft()
        words = " ".join(text.lower().split())
        last = self._last.get(chat_id)
        if last is not None and last[:2] == (user_id, words) and now - last[2] < self.same_seconds:
            return Verdict.REPEAT
        if sum(1 for at, _ in recent if now - at < self.window) >= self.burst:
            told = self._told.get(key)
            if told is not None and now - told < self.window:
                return Verdict.QUIET
            self._told[key] = now
            return Verdict.SLOW_DOWN
        first = not any(now - at < self.pause for at, _ in recent)
        recent.append((now, words))
        self._last[chat_id] = (user_id, words, now)
        if len(self._recent) > 10_000:  # forget the quiet ones now and then
            self._forget_old(now)
        return Verdict.FIRST if first else Verdict.OK

    def _forget_old(self, now: float) -> None:
        horizon = max(self.window, self.same_seconds)
        for key in [k for k, q in self._recent.items() if not q or now - q[-1][0] > horizon]:
            del self._recent[key]
            self._told.pop(key, None)
        for chat_id in [c for c, (_, _, at) in self._last.items() if now - at > horizon]:
            del self._last[chat_id]
