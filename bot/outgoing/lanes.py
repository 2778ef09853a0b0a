"""Two lanes of connections to the Bot API: answers apart from writes.

An answer to a button (answerCallbackQuery) is what a person waits for, and Telegram refuses it
about 15 s after the press; the questions a press's handling asks (getChatMember: may this
person start the game?) hold an answer up as well. Writes (sends, edits, deletes) are many and
slow when Telegram is slow: sharing one pool of connections, they filled it and the answers
waited behind them until the pool gave up on them ("Pool timeout: All connections in the
connection pool are occupied"). So each lane has connections of its own (bot/outgoing/http.py),
and a request waits for one of its lane's connections here, in a queue (first come, first
served, no time limit), never in the HTTP pool: no pool timeout, and a pool never asked for more
than it has.

Writes reach their lane only when the pacer lets them out (bot/outgoing/pacing.py), which also
keeps no more of them in flight than Telegram answers promptly, so that lane rarely queues; the
writes that wait, wait there, where a table's edits are coalesced.
"""
from __future__ import annotations

import asyncio
from typing import Any

from telegram.request import BaseRequest, RequestData

WRITES = ("send", "edit", "delete", "copy", "forward")  # how the Bot API's writing methods begin


def is_write(url: str) -> bool:
    """Whether the request to ``url`` (…/bot<token>/<method>) writes to a chat."""
    return url.rsplit("/", 1)[-1].startswith(WRITES)


class LanedRequest(BaseRequest):
    """python-telegram-bot's request, made on the answers' or the writes' own connections."""

    def __init__(self, *, answers: BaseRequest, answer_connections: int, writes: BaseRequest,
                 write_connections: int):
        self.answers = answers
        self.writes = writes
        self._free = {id(answers): asyncio.Semaphore(answer_connections),
                      id(writes): asyncio.Semaphore(write_connections)}

    @property
    def read_timeout(self) -> float | None:
        return self.writes.read_timeout

    async def initialize(self) -> None:
        await self.answers.initialize()
        await self.writes.initialize()

    async def shutdown(self) -> None:
        await self.answers.shutdown()
        await self.writes.shutdown()

    async def do_request(self, url: str, method: str, request_data: RequestData | None = None,
                         **timeouts: Any) -> tuple[int, bytes]:
        lane = self.writes if is_write(url) else self.answers
        async with self._free[id(lane)]:
            return await lane.do_request(url, method, request_data, **timeouts)
