"""The Mini App's web server as HTTP promises it, read byte by byte over one kept-alive connection,
as a phone's browser (or a proxy in front of the bot) reads it: the page, every file under
``bot/webapp/static/`` and the JSON API each answer a GET, a revalidating GET (If-None-Match,
If-Modified-Since), a HEAD and another GET, and every answer is exactly one well-formed answer:
a 304 and a HEAD carry no body (an empty compressed stream written after a 304 was read by the
next request as the start of its answer), a body is the file's bytes once decompressed, a
compressed answer says ``Vary: Accept-Encoding`` and has an ETag of its own. The page's files
have URLs that change with their content and are kept for a year; the page is revalidated,
the JSON never stored."""
from __future__ import annotations

import asyncio
import gzip
import json
import pathlib
import re
import zlib
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import pytest
from multidict import CIMultiDict

from bot.games import kits
from tests.bot.test_genial_e2e import start_group_game
from tests.bot.webapp_client import bot_with_page, init_data

STATIC = pathlib.Path(__file__).resolve().parents[2] / "bot" / "webapp" / "static"
# Every file the page may load, by the name it is served under: the page's own, and each game's
# board from its kit (served as boards/<game>.js).
FILES = {**{p.relative_to(STATIC).as_posix(): p for p in sorted(STATIC.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts},
         **{f"boards/{kit.id}.js": kit.board for kit in kits()}}
BROWSER = {"Accept-Encoding": "gzip, deflate, br", "Accept": "*/*"}
STATUS_LINE = re.compile(rb"HTTP/1\.1 (\d{3}) [^\r\n]*")
YEAR = "public, max-age=31536000, immutable"


@pytest.fixture
async def web(fake, tmp_path):
    async with bot_with_page(fake, tmp_path / "tablebot.sqlite3", webapp_short_name="board") as runner:
        yield runner


@dataclass
class Answer:
    status: int
    headers: CIMultiDict
    raw: bytes  # the body as sent

    @property
    def body(self) -> bytes:
        """The body decompressed as its Content-Encoding says."""
        coding = self.headers.get("Content-Encoding", "identity")
        if coding == "gzip":
            return gzip.decompress(self.raw)
        if coding == "deflate":
            return zlib.decompress(self.raw)
        assert coding == "identity", coding
        return self.raw


class Connection:
    """One kept-alive HTTP/1.1 connection, read exactly: a status line, headers, then exactly
    the body the answer announces (none for a HEAD, a 304 or a 204), and nothing else."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str):
        self.reader, self.writer, self.host = reader, writer, host

    @classmethod
    async def open(cls, base: str) -> "Connection":
        parts = urlsplit(base)
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        return cls(reader, writer, parts.netloc)

    async def ask(self, method: str, path: str, headers: dict | None = None) -> Answer:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}", *(f"{k}: {v}" for k, v in (headers or {}).items())]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        await self.writer.drain()
        head = await self._read(self.reader.readuntil(b"\r\n\r\n"))
        status_line, *header_lines = head[:-4].split(b"\r\n")
        found = STATUS_LINE.fullmatch(status_line)
        assert found, f"{method} {path}: not an HTTP/1.1 status line: {status_line[:60]!r}"
        status = int(found[1])
        fields = CIMultiDict()
        for line in header_lines:
            name, _, value = line.decode("latin-1").partition(":")
            fields.add(name.strip(), value.strip())
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            raw = b""
        elif fields.get("Transfer-Encoding", "").lower() == "chunked":
            raw = await self._chunks()
        else:
            assert "Content-Length" in fields, f"{method} {path}: a body of no known length on a kept-alive connection"
            raw = await self._read(self.reader.readexactly(int(fields["Content-Length"])))
        assert fields.get("Connection", "").lower() != "close", f"{method} {path} closed the connection"
        return Answer(status, fields, raw)

    async def _read(self, reading):
        """What the server sends within 10 s (an answer it announced and did not send: fail)."""
        try:
            return await asyncio.wait_for(reading, 10)
        except asyncio.TimeoutError:
            raise AssertionError("the server announced bytes it did not send") from None

    async def _chunks(self) -> bytes:
        out = b""
        while True:
            size = int((await self._read(self.reader.readuntil(b"\r\n"))).split(b";")[0], 16)
            if size == 0:
                assert await self._read(self.reader.readuntil(b"\r\n")) == b"\r\n"  # no trailers
                return out
            out += await self._read(self.reader.readexactly(size))
            assert await self._read(self.reader.readexactly(2)) == b"\r\n"

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


def references(page: str) -> dict[str, str]:
    """What the page names, by file under static/ → the URL (path) it loads it from: its links
    and scripts, and its import map's targets (the modules the modules import)."""
    found = {}
    targets = re.findall(r'(?:href|src)="([^"]+)"', page)
    import_map = re.search(r'<script type="importmap">(.*?)</script>', page, re.S)
    if import_map:
        for plain, target in json.loads(import_map[1])["imports"].items():
            found[urljoin("/app/", plain)] = urljoin("/app/", target)
    for target in targets:
        path = urljoin("/app/", target)
        if path.startswith("/app/static/"):
            found.setdefault(_plain(path), path)
    return {p[len("/app/static/"):]: url for p, url in found.items()}


def _plain(path: str) -> str:
    return re.sub(r"\.[0-9a-f]{8,64}(\.[a-z]+)$", r"\1", path)


async def _check_exchange(conn: Connection, path: str, expected: bytes | None, headers: dict | None = None) -> Answer:
    """GET, the revalidating GETs, HEAD and GET again, on one connection: each a well-formed
    answer; the body (decompressed) ``expected`` where given."""
    headers = {**BROWSER, **(headers or {})}
    first = await conn.ask("GET", path, headers)
    assert first.status == 200, (path, first.status, first.raw[:200])
    if expected is not None:
        assert first.body == expected, path
    if "ETag" in first.headers:
        again = await conn.ask("GET", path, {**headers, "If-None-Match": first.headers["ETag"]})
        assert again.status == 304 and again.raw == b"", (path, again.status)
        assert again.headers["ETag"] == first.headers["ETag"]
    if "Last-Modified" in first.headers:
        again = await conn.ask("GET", path, {**headers, "If-Modified-Since": first.headers["Last-Modified"]})
        assert again.status == 304 and again.raw == b"", (path, again.status)
    head = await conn.ask("HEAD", path, headers)
    assert head.status == 200 and head.raw == b"", path
    for name in ("Content-Type", "Content-Encoding", "ETag", "Cache-Control", "Vary"):
        assert head.headers.get(name) == first.headers.get(name), (path, name)
    if "Content-Length" in head.headers:
        assert int(head.headers["Content-Length"]) == len(first.raw), path
    last = await conn.ask("GET", path, headers)  # still read right after all of the above
    assert last.status == 200 and last.body == first.body, path
    # (checked after the next answers were read: a 304 that says it is compressed wrote a stream)
    assert "Content-Encoding" not in (again.headers if "ETag" in first.headers else {}), path
    if first.headers.get("Content-Encoding"):  # the bytes depend on what the request takes
        assert "accept-encoding" in first.headers.get("Vary", "").lower(), (path, dict(first.headers))
    return first


async def test_the_page_and_every_file_over_one_kept_alive_connection(web):
    conn = await Connection.open(web.base)
    try:
        page = await _check_exchange(conn, "/app/", None)
        named = references(page.body.decode())
        assert {"app.js", "app.css"} <= set(named), named
        for name in FILES:
            path = named.get(name, f"/app/static/{name}")
            await _check_exchange(conn, path, FILES[name].read_bytes())
        # The same again, a client that takes no compression (and a file it is given plain).
        await _check_exchange(conn, named["app.js"], FILES["app.js"].read_bytes(), {"Accept-Encoding": "identity"})
    finally:
        await conn.close()


async def test_the_json_api_over_one_kept_alive_connection(fake, web):
    game, _ = await start_group_game(fake, web, 2)
    seat = game.seats[0]
    auth = {"Authorization": "tma " + init_data(fake.token, seat.user_id, seat.name)}
    conn = await Connection.open(web.base)
    try:
        me = await _check_exchange(conn, "/app/api/me", None, auth)
        assert [g["id"] for g in json.loads(me.body)["games"]] == [game.short_id]
        seen = await _check_exchange(conn, f"/app/api/games/{game.short_id}", None, auth)
        assert json.loads(seen.body)["seat"] == 0
        for answer in (me, seen):
            assert answer.headers["Cache-Control"] == "no-store"
            assert answer.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in answer.headers["Vary"]
        # Uncompressed, the same game has another ETag; each revalidates as itself.
        plain = await conn.ask("GET", f"/app/api/games/{game.short_id}", {**auth, "Accept-Encoding": "identity"})
        assert plain.status == 200 and plain.body == seen.body and "Content-Encoding" not in plain.headers
        assert plain.headers["ETag"] != seen.headers["ETag"]
        for tag, coding in ((plain.headers["ETag"], "identity"), (seen.headers["ETag"], "gzip")):
            again = await conn.ask("GET", f"/app/api/games/{game.short_id}",
                                   {**auth, "Accept-Encoding": coding, "If-None-Match": tag})
            assert again.status == 304 and again.headers["ETag"] == tag
        # A refusal, then a move's answer, still on the same connection.
        refused = await conn.ask("GET", f"/app/api/games/{game.short_id}", BROWSER)
        assert refused.status == 401 and json.loads(refused.body)["error"]
        assert (await conn.ask("GET", "/app/api/me", {**BROWSER, **auth})).status == 200
    finally:
        await conn.close()


async def test_files_are_kept_a_year_under_urls_that_change_with_them(web):
    """Every file the page names has a URL with a hash of its bytes and is kept a year; the
    modules' own imports are resolved to those URLs too (the import map, allowed by the page's
    Content-Security-Policy); the page is revalidated; a compressed file has its own ETag."""
    conn = await Connection.open(web.base)
    try:
        page = await conn.ask("GET", "/app/", BROWSER)
        assert page.headers["Cache-Control"] == "no-cache"
        html = page.body.decode()
        named = references(html)
        modules = [name for name in FILES if name.endswith(".js")]
        assert set(modules) <= set(named), set(modules) - set(named)  # every module, boards/ too
        import_map = re.search(r'<script type="importmap">(.*?)</script>', html, re.S)[1]
        policy = page.headers["Content-Security-Policy"]
        assert _script_hash(import_map) in policy.split("script-src", 1)[1].split(";")[0]
        for name, url in named.items():
            assert url != f"/app/static/{name}" and _plain(url) == f"/app/static/{name}", url
            answer = await conn.ask("GET", url, BROWSER)
            assert answer.status == 200 and answer.headers["Cache-Control"] == YEAR, (url, dict(answer.headers))
            assert answer.body == FILES[name].read_bytes()
            plain = await conn.ask("GET", url, {"Accept-Encoding": "identity"})
            assert plain.body == answer.body
            if answer.headers.get("Content-Encoding") == "gzip":
                assert plain.headers["ETag"] != answer.headers["ETag"], url
        # The plain names stay (a browser without import maps), revalidated; an unknown file is 404.
        plain = await conn.ask("GET", "/app/static/app.js", BROWSER)
        assert plain.status == 200 and plain.headers["Cache-Control"] == "no-cache"
        assert (await conn.ask("GET", "/app/static/nothing.js", BROWSER)).status == 404
        assert (await conn.ask("GET", "/app/static/../api.py", BROWSER)).status == 404
    finally:
        await conn.close()


def _script_hash(text: str) -> str:
    import base64
    import hashlib
    return "'sha256-%s'" % base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
