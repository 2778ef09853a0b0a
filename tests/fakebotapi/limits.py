"""Telegram's limits on writes, as the fake enforces them (and as a test on a fake clock can).

A write is a send, an edit or a delete (an answer to a button press is not). Telegram refuses
one with 429 and ``retry_after``, and each refusal here has a kind:

- ``held``: the chat is still waiting out an earlier 429 (Telegram refuses until its
  ``retry_after`` has passed; a bot that obeys it never meets this one);
- ``group``: the group has had ``group`` writes in the trailing ``group_window`` seconds, edits
  as much as new messages (Telegram's maintainers: edits count, about 20 a minute);
- ``bot``: the whole bot has had ``bot`` writes in the trailing second, a limit the bot is not
  told (``None``: none, as Telegram's maintainers say there is no global limit; a test or the
  bench sets one to see the bot find it). Writes sent with ``allow_paid_broadcast`` are outside
  it, and have a second of their own of at most 1,000 (``paid``).

Every refusal holds its chat for its ``retry_after``. Times are the caller's (``now``): the
server passes its monotonic clock, a test on a fake clock passes its own.
"""

from __future__ import annotations

import collections
import math
from typing import Hashable

__all__ = ["Limits", "PAID_PER_SECOND", "most_within"]

PAID_PER_SECOND = 1000  # allow_paid_broadcast: "up to 1000 messages per second"


class Limits:
    def __init__(self, *, group: int | None = None, group_window: float = 60.0, bot: int | None = None):
        self.group = group
        self.group_window = group_window
        self.bot = bot
        self._holds: dict[Hashable, float] = {}  # chat -> end of its 429 wait
        self._groups: dict[Hashable, collections.deque[float]] = {}  # a group's writes in its window
        self._bot: collections.deque[float] = collections.deque()  # the bot's writes in the last second
        self._paid: collections.deque[float] = collections.deque()

    def refusal(self, chat: Hashable, now: float, *, paid: bool = False) -> tuple[str, int] | None:
        """(kind, retry_after) when a write to ``chat`` now is refused, else None."""
        until = self._holds.get(chat)
        if until is not None and now < until:
            return "held", max(1, math.ceil(until - now))
        refused = None
        writes = self._groups.get(chat)
        if self.group is not None and writes is not None and _is_group(chat):
            _forget(writes, now, self.group_window)
            if len(writes) >= self.group:
                refused = "group", max(1, math.ceil(self.group_window - (now - writes[-self.group])))
        if refused is None and (paid or self.bot is not None):
            limit, writes = (PAID_PER_SECOND, self._paid) if paid else (self.bot, self._bot)
            _forget(writes, now, 1.0)
            if len(writes) >= limit:
                refused = "paid" if paid else "bot", max(1, math.ceil(1.0 - (now - writes[-limit])))
        if refused is not None:
            self.hold(chat, now + refused[1])
        return refused

    def wrote(self, chat: Hashable, now: float, *, paid: bool = False) -> None:
        """A write to ``chat`` was performed at ``now``."""
        if _is_group(chat):
            self._groups.setdefault(chat, collections.deque()).append(now)
        (self._paid if paid else self._bot).append(now)
        if len(self._bot) > 4 * (self.bot or 1000):  # without a limit nobody trims it
            _forget(self._bot, now, 1.0)

    def hold(self, chat: Hashable, until: float) -> None:
        """No write to ``chat`` before ``until`` (a 429 given)."""
        self._holds[chat] = max(until, self._holds.get(chat, until))

    def clear_holds(self) -> None:
        self._holds.clear()


def _is_group(chat: Hashable) -> bool:
    """A group, or a chat the bot is not in and edits inline messages in (a private chat of two
    people: "private:<a>:<b>"), where Telegram counts them with a group's limit."""
    return isinstance(chat, str) or isinstance(chat, int) and chat < 0


def _forget(times: collections.deque[float], now: float, window: float) -> None:
    while times and now - times[0] >= window:
        times.popleft()


def most_within(times: list[float], seconds: float) -> int:
    """Most of the sorted ``times`` within any ``seconds`` (a half-open window, as Telegram counts)."""
    best = lo = 0
    for hi, t in enumerate(times):
        while t - times[lo] >= seconds:
            lo += 1
        best = max(best, hi - lo + 1)
    return best
