"""The drawing processes (bot/workers/pool.py, bot/workers/worker.py): pictures come back as drawn in the
bot's own process, errors come back as errors, and a worker that dies costs one slower picture,
never a lost one."""
from __future__ import annotations

import asyncio
import functools
import glob
import os
import signal

import pytest

from bot.workers import pool as rendering
from engines import lucky
from engines.base import options_from_dict
from bot.games.lucky.ui import picture_words
from render import lucky as lucky_render
from render.common import picture_of


def _children() -> set[int]:
    """Every child process of this one, whichever thread started it."""
    kids: set[int] = set()
    for path in glob.glob(f"/proc/{os.getpid()}/task/*/children"):
        with open(path) as file:
            kids.update(int(pid) for pid in file.read().split())
    return kids


def _lucky_picture():
    state = lucky.setup(2, options_from_dict(lucky.Options, None), 7)
    return functools.partial(picture_of, lucky_render.table, lucky.view(state), words=picture_words("ru"),
                             names=["Аня <b>", "🎲 Bob"])


@pytest.fixture
def fresh_pool():
    rendering.shutdown()
    yield
    rendering.shutdown()


async def test_a_picture_from_a_worker_is_the_one_drawn_here(fresh_pool):
    job = _lucky_picture()
    before = _children()
    pictures = await asyncio.gather(*(rendering.render_picture(job) for _ in range(8)))
    assert _children() - before, "the picture was drawn in a worker process"
    assert all(picture == job() for picture in pictures)


async def test_an_error_in_a_job_reaches_the_caller(fresh_pool):
    with pytest.raises(ValueError):
        await rendering.render_picture(functools.partial(int, "not a number"))
    assert await rendering.render_picture(functools.partial(int, "42")) == 42  # the worker lives on


async def test_a_job_that_cannot_be_pickled_is_drawn_in_a_thread(fresh_pool):
    assert await rendering.render_picture(lambda: b"drawn here") == b"drawn here"


def _die_unless_in(pid: int, witness: str) -> bytes:
    """A job that kills any process but ``pid`` that runs it, after writing that process's id to
    ``witness`` (so the test knows it ran in a worker without racing the process table: the dead
    worker may be reaped before the test looks, and its replacement starts with the next job)."""
    if os.getpid() != pid:
        with open(witness, "a") as file:
            file.write(f"{os.getpid()}\n")
        os._exit(3)
    return b"drawn in the bot"


async def test_a_worker_dying_mid_job_leaves_the_picture_to_a_thread(fresh_pool, tmp_path):
    witness = tmp_path / "ran-in"
    assert await rendering.render_picture(functools.partial(_die_unless_in, os.getpid(), str(witness))) == \
        b"drawn in the bot"
    ran_in = [int(pid) for pid in witness.read_text().split()] if witness.exists() else []
    assert ran_in and os.getpid() not in ran_in, "it did run in a worker first"
    assert await rendering.render_picture(functools.partial(os.getpid)) not in (os.getpid(), *ran_in), \
        "a new worker draws the next picture"


async def test_a_killed_worker_is_replaced_and_no_picture_is_lost(fresh_pool):
    job = _lucky_picture()
    before = _children()
    expected = await rendering.render_picture(job)
    workers = _children() - before
    assert workers
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    await asyncio.sleep(0.2)
    assert await rendering.render_picture(job) == expected
    assert await rendering.render_picture(job) == expected
    assert (_children() - before) - workers, "a new worker took the dead one's place"


async def test_after_shutdown_the_workers_are_gone_and_a_new_pool_starts_on_demand(fresh_pool):
    job = _lucky_picture()
    before = _children()
    expected = await rendering.render_picture(job)
    rendering.shutdown()
    await asyncio.sleep(0.2)
    assert not [pid for pid in _children() - before if _alive(pid)]
    assert await rendering.render_picture(job) == expected


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as file:
            return file.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False
