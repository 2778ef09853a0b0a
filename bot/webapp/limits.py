"""Requests per person: a token bucket each. A page asks once per change of its game (a quick
game against computers: about one a second) and once per tile tapped; a burst of taps is fine,
a script hammering the API gets 429."""
from __future__ import annotations

BURST = 60  # requests at once
PER_SECOND = 10.0  # refilled


class RateLimit:
    def __init__(self, *, burst: int = BURST, per_second: float = PER_SECOND):
        self.burst = burst
        self.per_second = per_second
        self._buckets: dict[int, tuple[float, float]] = {}  # user id -> (tokens, when)

    def allow(self, user_id: int, now: float) -> bool:
        tokens, when = self._buckets.get(user_id, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - when) * self.per_second)
        if tokens < 1.0:
            self._buckets[user_id] = (tokens, now)
            return False
        self._buckets[user_id] = (tokens - 1.0, now)
        if len(self._buckets) > 100_000:  # forget people who stopped asking
            self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < 60}
        return True
