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
        self._waking: dict[int, asyncio.Event] = {}

    def hear(self, change) -> None:
        """Subscribed to the game's changes: wake whoever waits on it (a move, a seat handed
        over, the end; not a look or a timer)."""
        if isinstance(change, (Looked, Due)):
            return
        event = self._waking.pop(change.match.id, None)
        if event is not None:
            event.set()

    async def wait(self, game_id: int, timeout: float) -> bool:
        """Until the game changes (True) or ``timeout`` seconds pass (False)."""
        event = self._waking.get(game_id)
        if event is None:
            event = self._waking[game_id] = asyncio.Event()
        try:
            await asyncio.wait_for(event.wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False

    def close(self) -> None:
        """The server stops: every waiting request is answered now."""
        for event in self._waking.values():
            event.set()
        self._waking.clear()
