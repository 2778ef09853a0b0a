"""The drawing process (``python -m bot.workers.worker``): pictures and computer players' decisions,
made outside the bot's process so that they never hold up its event loop.

It reads jobs from stdin, each a pickled callable after its length (8 bytes, little-endian),
runs them one at a time and writes back, the same way, the pickled ``(True, result)`` or
``(False, exception)``. When stdin closes (the bot stopped, or died) it ends.
"""
from __future__ import annotations

import os
import pickle
import signal
import struct
import sys

from bot.workers import memory

HEADER = struct.Struct("<Q")
NICENESS = 5  # the bot's event loop comes first when both want the CPU


def read_message(stream) -> bytes | None:
    """One message from ``stream``, None at its end."""
    header = stream.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    (size,) = HEADER.unpack(header)
    payload = stream.read(size)
    return payload if len(payload) == size else None


def write_message(stream, payload: bytes) -> None:
    stream.write(HEADER.pack(len(payload)) + payload)
    stream.flush()


def _reply(payload: bytes) -> bytes:
    try:
        reply = (True, pickle.loads(payload)())
    except Exception as exc:  # the bot raises it where the job was asked for (unpickling too)
        reply = (False, exc)
    try:
        return pickle.dumps(reply)
    except Exception:  # an exception that cannot be pickled still reaches the bot, as text
        return pickle.dumps((False, RuntimeError(repr(reply[1]))))


def main() -> None:
    # Ctrl-C goes to the whole process group: the bot stops us in order (it closes our stdin).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(NICENESS)
    except OSError:
        pass
    memory.trim_in_background()
    # The replies get their own copy of stdout; whatever else writes to it goes to stderr.
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    requests = sys.stdin.buffer
    while (payload := read_message(requests)) is not None:
        try:
            write_message(replies, _reply(payload))
        except BrokenPipeError:  # the bot died (kill -9, or left at once on losing its lock): nobody to tell
            os._exit(0)  # not sys.exit: its flush of the broken pipe would print a traceback


if __name__ == "__main__":
    main()
