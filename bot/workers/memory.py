"""Giving freed memory back to the system, so that a busy bot's footprint follows what it uses.

glibc's malloc keeps the memory a process frees for its next requests; it returns it only
from the top of the heap. The drawing process allocates and frees megabytes per picture (a
board, its palette copy, the PNG), and pictures of every size leave holes that stay resident:
15-20 MB of a drawing process's 50 were free memory that malloc held. ``malloc_trim`` hands
such pages back. Calling it after every picture costs about a millisecond and the page faults
of taking them back again; every few seconds it costs nothing that can be measured.
Elsewhere than glibc (musl, macOS) there is no ``malloc_trim`` and nothing is done.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import threading
import time
from typing import Callable

TRIM_SECONDS = 5.0


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc.malloc_trim
    except (OSError, AttributeError):
        return None


def trim_in_background(seconds: float = TRIM_SECONDS) -> bool:
    """Return freed memory to the system every ``seconds`` from a daemon thread (the call
    releases the GIL while it runs). False where the C library cannot do it."""
    trim = _malloc_trim()
    if trim is None:
        return False

    def loop() -> None:
        while True:
            time.sleep(seconds)
            trim(0)
    threading.Thread(target=loop, name="malloc-trim", daemon=True).start()
    return True
