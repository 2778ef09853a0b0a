"""The container files hold what the README promises: the Dockerfile's HEALTHCHECK, run as it
is written, passes against a serving bot and fails when its database is gone; a slim Python
base, a non-root user, the database on the volume; compose runs the bot on the PostgreSQL
service with a volume; secrets and local databases never go into the image.
(Building the image needs a Docker daemon; these tests do not.)"""
from __future__ import annotations

import asyncio
import json
import os
import pathlib
import posixpath
import re
import sys
import urllib.parse

import yaml

from tests.bot.harness import BotRunner

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions (continuation lines joined), as (KEYWORD, arguments)."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def _final_stage() -> list[tuple[str, str]]:
    steps = _instructions()
    last_from = max(i for i, (keyword, _) in enumerate(steps) if keyword == "FROM")
    return steps[last_from:]


def _env() -> dict[str, str]:
    env = {}
    for keyword, args in _final_stage():
        if keyword == "ENV":
            env.update(dict(pair.split("=", 1) for pair in args.split()))
    return env


def _healthcheck_command() -> list[str]:
    [args] = [args for keyword, args in _final_stage() if keyword == "HEALTHCHECK"]
    return json.loads(args.split(" CMD ", 1)[1])


async def _run_healthcheck(metrics_port: int) -> int:
    command = _healthcheck_command()
    assert command[0] == "python"
    process = await asyncio.create_subprocess_exec(
        sys.executable, *command[1:], env={**os.environ, **_env(), "METRICS_PORT": str(metrics_port)},
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    return await process.wait()


async def test_the_images_healthcheck_passes_while_serving_and_fails_once_the_database_is_gone(fake, tmp_path):
    runner = await BotRunner(fake, tmp_path / "tablebot.sqlite3", metrics_port=0).start()
    try:
        assert await _run_healthcheck(runner.bot.web.private_port) == 0
        for leftover in tmp_path.glob("tablebot.sqlite3*"):
            leftover.unlink()
        assert await _run_healthcheck(runner.bot.web.private_port) != 0
    finally:
        await runner.stop()


def test_the_image_is_slim_runs_as_a_user_and_keeps_the_database_on_its_volume():
    stage = _final_stage()
    base = stage[0][1]
    assert re.fullmatch(r"python:3\.1[1-9]-slim", base), base
    users = [args for keyword, args in stage if keyword == "USER"]
    assert users and users[-1] not in ("root", "0")
    volumes = [args for keyword, args in stage if keyword == "VOLUME"]
    assert posixpath.dirname(_env()["TABLEBOT_DB"]) in volumes
    assert ("CMD", '["python", "-m", "bot"]') in stage
    installs = [args for keyword, args in stage if keyword == "RUN" and "pip install" in args]
    assert installs and all("--no-index" in args for args in installs)  # the wheels built before, nothing else


def test_compose_runs_the_bot_on_its_postgresql_with_a_volume():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    bot, postgres = services["bot"], services["postgres"]
    db = urllib.parse.urlsplit(bot["environment"]["TABLEBOT_DB"])
    assert db.scheme == "postgresql" and db.hostname == "postgres"
    assert db.username == postgres["environment"]["POSTGRES_USER"]
    assert db.path.lstrip("/") == postgres["environment"]["POSTGRES_DB"]
    assert bot["depends_on"]["postgres"]["condition"] == "service_healthy" and postgres["healthcheck"]
    volume = next(v.split(":")[0] for v in postgres["volumes"] if v.endswith(":/var/lib/postgresql/data"))
    assert volume in compose["volumes"]
    assert bot["build"] == "." and bot["environment"]["METRICS_PORT"]


def test_secrets_and_local_databases_stay_out_of_the_image():
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert {".env", "*.sqlite3", "*.sqlite3-*", ".git", "*.whl"} <= ignored  # a stray wheel is no part of the image
    assert not ignored & {"bot", "engines", "render", "pyproject.toml", "README.md"}
