"""A slow Telegram: every request waits before it is performed and before its answer leaves.

``set_latency(0.3)``: each request takes 0.3 s more, as a Bot API server far away (a round trip
across the world, a proxy) or in an incident does: half on the way in (the call is performed
0.15 s after the bot sent it: a button's answer shows then), half on the way back.
``under_load=0.004``: each request also waits 4 ms for every request of the bot being served at
the moment it arrives (polls aside): a server that answers slower the more it is asked at once,
so that a bot which keeps many requests in flight slows its own answers down.
Long polls are not slowed unless ``polls=True``: with a round trip of L seconds, polling can
fetch at most 100 updates every L seconds (getUpdates' limit), whatever the bot does (1.5 s: 67
updates a second); a bot beyond that takes a webhook.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Latency"]


@dataclass(frozen=True)
class Latency:
    """How much slower than at once the fake answers."""

    seconds: float = 0.0
    under_load: float = 0.0  # seconds more per request being served when it arrives
    polls: bool = False  # getUpdates is slowed too

    def __post_init__(self) -> None:
        if self.seconds < 0 or self.under_load < 0:
            raise ValueError("latency is a number of seconds, at least 0")

    def of(self, method: str, serving: int) -> float:
        """The whole delay of a request to ``method`` arriving while ``serving`` others are served."""
        if method.lower() == "getupdates" and not self.polls:
            return 0.0
        return self.seconds + self.under_load * serving
