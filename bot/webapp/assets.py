"""The page and its files as a phone's cache wants them, read once at start.

Every file under ``static/`` (whatever is there: modules, styles, a file added later) and each
game's board (its kit's ``board.js``, served as ``static/boards/<game>.js``) is read once, named by a hash of its bytes (``app.js`` → ``app.<hash>.js``) and,
where gzip makes it smaller, compressed once. A hashed URL never changes its bytes, so it is
served ``immutable`` for a year: a second open of the board asks for none of them. The page
itself (``index.html``) is revalidated on every open (``no-cache``): it names the hashed URLs,
so a new version of any file reaches the phone with the next open.

The modules import each other by their plain names (``import … from "./api.js"``, and
``import(`./boards/${kind}.js`)`` whose name is only known in the browser): the page carries an
import map from every plain name to its hashed URL, so the files stay as written and any
import, static or dynamic, finds its hashed file. (Rewriting imports at start could not reach a
name built at run time.) A browser without import maps (before Safari 16.4) still loads the
plain names, which stay served, revalidated like the page.

The bytes sent are made here, never at send time: a compressed answer has an ETag of its own,
and a 304 or a HEAD carries no body at all (aiohttp's on-the-fly compression wrote an empty
deflate stream after both, which the next answer on a kept-alive connection was read from).
"""
from __future__ import annotations

import base64
import email.utils
import gzip
import hashlib
import json
import mimetypes
import pathlib
import re
from dataclasses import dataclass

from aiohttp import web

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
HASH_LENGTH = 12  # hex digits of SHA-256: 48 bits, for a few dozen files
GZIP_MARK = "-gzip"  # the ETag of a compressed answer: the plain one's, marked
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")
TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".html": "text/html",
         ".json": "application/json", ".svg": "image/svg+xml"}
# href="static/…" and src="static/…" in index.html: the references to replace with hashed URLs.
REFERENCE = re.compile(r'((?:href|src)=")static/([^"?#]+)(")')
HASHED = re.compile(r"^(?P<stem>.+)\.[0-9a-f]{%d}(?P<suffix>\.[^./]+)$" % HASH_LENGTH)


@dataclass(frozen=True)
class Body:
    """One answer's bytes, made once: plain, gzip (None: not smaller), their ETags."""

    plain: bytes
    gzipped: bytes | None
    content_type: str
    etag: str
    last_modified: float

    @classmethod
    def of(cls, data: bytes, content_type: str, last_modified: float) -> "Body":
        digest = hashlib.sha256(data).hexdigest()[:HASH_LENGTH]
        packed = None
        if content_type.startswith(COMPRESSIBLE):
            packed = gzip.compress(data, compresslevel=9, mtime=0)
            packed = packed if len(packed) < len(data) else None
        return cls(data, packed, content_type, f'"{digest}"', int(last_modified))

    @property
    def digest(self) -> str:
        return self.etag.strip('"')


class Assets:
    """The files of ``root`` by their hashed and plain URL paths, and the page that names them."""

    def __init__(self, root: pathlib.Path, page: str = "index.html", *, extra: dict[str, pathlib.Path] | None = None):
        """``extra``: files kept elsewhere, by the name they are served under (a game's board)."""
        found = {path.relative_to(root).as_posix(): path for path in sorted(root.rglob("*"))
                 if path.is_file() and not path.name.startswith(".") and "__pycache__" not in path.parts}
        self.files: dict[str, Body] = {}  # "boards/genial.js" → its body
        for name, path in {**found, **(extra or {})}.items():
            self.files[name] = Body.of(path.read_bytes(), _type_of(path), path.stat().st_mtime)
        self.hashed = {hashed_name(name, body.digest): name for name, body in self.files.items()}
        text = (root / page).read_text(encoding="utf-8")
        self.import_map = json.dumps({"imports": {f"./static/{name}": self.url(name) for name in self.files
                                                  if name.endswith((".js", ".mjs"))}},
                                     separators=(",", ":"), sort_keys=True)
        html = _with_import_map(REFERENCE.sub(lambda m: m[1] + self.url(m[2]) + m[3], text), self.import_map)
        newest = max(body.last_modified for body in self.files.values())
        self.page = Body.of(html.encode("utf-8"), "text/html; charset=utf-8", newest)
        # The page's one inline script, allowed by its hash (a Content-Security-Policy source).
        self.script_hash = "'sha256-%s'" % base64.b64encode(hashlib.sha256(self.import_map.encode()).digest()).decode()

    def url(self, name: str) -> str:
        """The hashed URL of a file, relative to the page (``static/app.<hash>.js``)."""
        body = self.files.get(name)
        return f"./static/{hashed_name(name, body.digest)}" if body else f"./static/{name}"

    def find(self, path: str) -> tuple[Body, str] | None:
        """The body under a URL path below ``static/`` and how long it may be kept: a hashed name
        for ever; a plain name (a browser without import maps), or a hash that is no longer the
        file's (a page opened before a restart, loading a board after it), revalidated."""
        if path in self.hashed:
            return self.files[self.hashed[path]], IMMUTABLE
        if path in self.files:
            return self.files[path], REVALIDATE
        old = HASHED.match(path)
        if old and old["stem"] + old["suffix"] in self.files:
            return self.files[old["stem"] + old["suffix"]], REVALIDATE
        return None


def hashed_name(name: str, digest: str) -> str:
    """``boards/genial.js`` → ``boards/genial.<digest>.js`` (no suffix: ``name.<digest>``)."""
    head, dot, suffix = name.rpartition(".")
    if not dot or "/" in suffix:
        return f"{name}.{digest}"
    return f"{head}.{digest}.{suffix}"


def _type_of(path: pathlib.Path) -> str:
    kind = TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return kind + "; charset=utf-8" if kind.startswith("text/") or kind.endswith(("javascript", "json")) else kind


def _with_import_map(html: str, import_map: str) -> str:
    """The import map goes before the first script or link of the page: a module, or a
    module preload, made before it would be resolved without it."""
    tag = f'<script type="importmap">{import_map}</script>\n'
    first = min((i for i in (html.find("<script"), html.find("<link")) if i >= 0), default=html.find("</head>"))
    return html[:first] + tag + html[first:]


# ---- answering: the representation, conditional requests, HEAD --------------------------------

def accepts_gzip(request: web.BaseRequest) -> bool:
    """Whether the request's Accept-Encoding takes gzip (``q=0`` refuses it; ``*`` stands for it)."""
    offered: dict[str, float] = {}
    for part in request.headers.get("Accept-Encoding", "").split(","):
        coding, _, params = part.strip().lower().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if coding:
            offered[coding.strip()] = q
    return offered.get("gzip", offered.get("x-gzip", offered.get("*", 0.0))) > 0


def gzip_tag(etag: str) -> str:
    """The ETag of the compressed answer: ``"abc"`` → ``"abc-gzip"`` (weak or strong alike)."""
    return etag[:-1] + GZIP_MARK + '"' if etag.endswith('"') else etag + GZIP_MARK


def plain_tag(etag: str) -> str:
    """The reverse of ``gzip_tag``; the ``W/`` of a weak tag dropped (If-None-Match compares weakly)."""
    etag = etag.strip()
    etag = etag[2:] if etag.startswith("W/") else etag
    return etag[: -len(GZIP_MARK) - 1] + '"' if etag.endswith(GZIP_MARK + '"') else etag


def tags_match(header: str, etag: str) -> bool:
    """If-None-Match's weak comparison: ``*``, or any listed tag is ``etag`` (a ``W/`` aside)."""
    if header.strip() == "*":
        return True
    return any(tag.strip().removeprefix("W/") == etag.removeprefix("W/") for tag in header.split(",") if tag.strip())


def answer(request: web.BaseRequest, body: Body, cache_control: str, headers: dict | None = None) -> web.Response:
    """The answer with ``body``: compressed when the request takes gzip and it is smaller, a 304
    when the request's validators still hold (If-None-Match; else If-Modified-Since), the same
    headers for a HEAD (aiohttp sends no body for a HEAD or a 304)."""
    packed = body.gzipped is not None and accepts_gzip(request)
    etag = gzip_tag(body.etag) if packed else body.etag
    out = {"ETag": etag, "Cache-Control": cache_control,
           "Last-Modified": email.utils.formatdate(body.last_modified, usegmt=True), **(headers or {})}
    if body.gzipped is not None:
        out["Vary"] = "Accept-Encoding"
    if _not_modified(request, etag, body.last_modified):
        return web.Response(status=304, headers=out)
    if packed:
        out["Content-Encoding"] = "gzip"
    response = web.Response(body=body.gzipped if packed else body.plain, headers=out)
    response.content_type, _, charset = body.content_type.partition("; charset=")
    if charset:
        response.charset = charset
    return response


def _not_modified(request: web.BaseRequest, etag: str, last_modified: float) -> bool:
    if request.method not in ("GET", "HEAD"):
        return False
    if "If-None-Match" in request.headers:
        return tags_match(request.headers["If-None-Match"], etag)
    since = request.headers.get("If-Modified-Since")
    if since:
        try:
            when = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError):
            return False
        return when is not None and when.timestamp() >= last_modified
    return False


def compress(request: web.BaseRequest, response: web.StreamResponse) -> None:
    """The JSON API's answers, compressed as they are made (they change with every move): only an
    answer with a body, and then with its own ETag; a 304 names the compressed ETag it confirms.
    Answers made by ``answer`` (they say ``Vary``) are left as they are."""
    if not isinstance(response, web.Response) or "Vary" in response.headers or "Content-Encoding" in response.headers:
        return
    if response.status == 304:
        response.headers["Vary"] = "Accept-Encoding"
        if accepts_gzip(request) and "ETag" in response.headers:
            response.headers["ETag"] = gzip_tag(response.headers["ETag"])
        return
    if response.content_type != "application/json" or not isinstance(response.body, bytes):
        return
    response.headers["Vary"] = "Accept-Encoding"
    if response.status in (204, 205) or not response.body or not accepts_gzip(request):
        return
    response.body = gzip.compress(response.body, compresslevel=6, mtime=0)
    response.headers["Content-Encoding"] = "gzip"
    if "ETag" in response.headers:
        response.headers["ETag"] = gzip_tag(response.headers["ETag"])
