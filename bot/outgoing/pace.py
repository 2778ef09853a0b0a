"""How many writes a second the whole bot sends: learnt from Telegram's 429s, not assumed.

Telegram publishes two figures: about 20 messages a minute into one group (edits count: its
maintainers say so, tdlib/td#3034), and "not more than about 30 messages a second" for bulk
notifications (the Bot FAQ). The second is advice for broadcasts (bot/outgoing/pacing.py gives
those a class of their own); Telegram's maintainers say there is no global limit on what a bot
sends into its many groups. Whether there is one for a given bot, and where, is only learnt by
asking: a 429 says "too many" and how long to wait. So the pace is learnt the way TCP finds
what a network carries:

- **slow start**: from ``start`` (30 a second, Telegram's figure), one tenth more every second
  that the pace is what holds writes back (``held_back``: writes ready to go, and their groups'
  budgets allow them); a pace nobody needs does not grow;
- **a limit for the whole bot** shows as 429s from ``many`` chats within ``window`` seconds:
  then the pace is cut to ``CUT`` of it (85 %) and the pace it was cut from is the
  ``ceiling``. After that it grows by a two-hundredth of the ceiling a second (additive
  increase, multiplicative decrease), so it stays near the limit and meets it again only every
  half minute or so (at a limit of 60 a second, about one refusal in 400 writes);

  once it is a quarter above the ceiling without a refusal, the limit has gone (or moved) and
  slow start resumes;
- **a 429 from one chat alone** says that chat's own budget is smaller than we thought: the
  pacer holds that chat for its ``retry_after`` (as it holds every refused chat) and the pace
  is not cut;
- refusals of writes let out before the last cut are that cut's echo: they cut nothing more.

``refused`` sorts each 429 into ``CHAT`` or ``BOT`` for the metrics; a refusal waits up to
``window`` seconds for the others that would make it a whole bot's (``counts`` settles it).
``most`` caps the pace (``TABLEBOT_BOT_WRITES_PER_SECOND``: an operator who wants a fixed
figure gets it as start and cap; a whole bot's 429s still cut it, and it comes back).
"""
from __future__ import annotations

import collections
import time
from typing import Callable, Hashable

CHAT, BOT = "chat", "bot"  # what a 429 was: one chat's own limit, or the whole bot's
TELEGRAMS_FIGURE = 30.0  # writes a second: the Bot FAQ's figure for bulk notifications
SLOW_START = 0.1  # before the first limit is met: a tenth more every second held back (30 → 60 in 7 s)
PROBE = 0.005  # after it: the ceiling's two-hundredth more every second (from the cut back to it in 30 s)
CUT = 0.85  # what is left of the pace when many chats are refused at once


class BotPace:
    def __init__(self, *, start: float = TELEGRAMS_FIGURE, most: float | None = None, least: float = 5.0,
                 many: int = 3, window: float = 3.0, clock: Callable[[], float] = time.monotonic):
        self.most = most if most is not None else float("inf")
        self.least = min(least, self.most)
        self.value = min(max(start, self.least), self.most)  # writes a second now
        self.many, self.window = many, window
        self.clock = clock
        self.ceiling: float | None = None  # the pace the last whole-bot limit was met at
        self._cut_at = float("-inf")
        self._looked = float("-inf")  # the last ``held_back``
        self._undecided: collections.deque[tuple[float, Hashable]] = collections.deque()  # (when, chat)
        self._counts = {CHAT: 0, BOT: 0}

    def held_back(self) -> None:
        """Writes wait for the pace now (their groups would let them go): it may grow, by the
        time it held them back (one look counts for one write's time at most: a burst that
        waits a moment after a quiet hour has not been held back for an hour)."""
        now = self.clock()
        step = min(now - self._looked, 1.0 / self.value)
        self._looked = now
        if step <= 0:
            return
        if self.ceiling is None:
            self.value *= (1.0 + SLOW_START) ** step
        else:
            self.value += self.ceiling * PROBE * step
            if self.value >= 1.25 * self.ceiling:
                self.ceiling = None  # a quarter above the last limit without a refusal: it has gone
        self.value = min(self.value, self.most)

    def refused(self, chat: Hashable, granted: float) -> None:
        """Telegram answered 429 to a write to ``chat`` let out at ``granted`` (on ``clock``)."""
        now = self.clock()
        if granted < self._cut_at:
            self._counts[BOT] += 1  # the last cut's echo
            return
        self._settle(now)
        self._undecided.append((now, chat))
        if len({c for _, c in self._undecided}) >= self.many:
            self._counts[BOT] += len(self._undecided)
            self._undecided.clear()
            self.ceiling = self.value
            self.value = max(self.least, self.value * CUT)

            self._cut_at = now

    def counts(self) -> dict[str, int]:
        """The 429s so far by kind (``CHAT``, ``BOT``), each once its kind is known."""
        self._settle(self.clock())
        return dict(self._counts)

    def _settle(self, now: float) -> None:
        """Refusals alone for a whole ``window`` were their chats' own."""
        while self._undecided and now - self._undecided[0][0] > self.window:
            self._undecided.popleft()
            self._counts[CHAT] += 1
