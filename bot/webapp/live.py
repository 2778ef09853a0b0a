"""Waking the pages that watch a game when it changes (fed by bot/table/changes.py).

A page asks for its game's view with the ETag of the one it shows and ``wait``: when nothing
changed, the request waits here until the game's next change (or a timeout), so a move shows on
every open page at once without the pages asking every second.
"""
from __future__ import annotations

import asyncio

from bot.table.changes import Due, Looked


class Live:
    def __init__(self) -> None:
        # Per game some page waits on: its event and how many wait (it goes with the last of them).
        self._waking: dict[int, tuple[asyncio.Event, int]] = {}

    def hear(self, change) -> None:
        """Subscribed to the game's changes: wake whoever waits on it (a move, a seat handed
        over, the end; not a look or a timer)."""
        if isinstance(change, (Looked, Due)):
            return
        waiting = self._waking.pop(change.match.id, None)
        if waiting is not None:
            waiting[0].set()

    async def wait(self, game_id: int, timeout: float) -> bool:
        """Until the game changes (True) or ``timeout`` seconds pass (False)."""
        event, pages = self._waking.get(game_id) or (asyncio.Event(), 0)
        self._waking[game_id] = (event, pages + 1)
        try:
            await asyncio.wait_for(event.wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False
        finally:
            now = self._waking.get(game_id)
            if now is not None and now[0] is event:  # (not woken meanwhile)
                if now[1] > 1:
                    self._waking[game_id] = (event, now[1] - 1)
                else:
                    del self._waking[game_id]

    def close(self) -> None:
        """The server stops: every waiting request is answered now."""
        for event, _ in self._waking.values():
            event.set()
        self._waking.clear()
