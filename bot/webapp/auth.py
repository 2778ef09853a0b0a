"""Who opened the page: Telegram's signed ``initData``, checked as Telegram says.

The page sends the raw ``initData`` query string it got from Telegram with every request. The
data-check-string is every field but ``hash``, decoded, sorted by key, ``key=value`` joined by
newlines; its HMAC-SHA256 under the secret HMAC-SHA256(key=b"WebAppData", msg=token) must be
``hash``. The values are used exactly as they arrived (decoded, never re-serialised: a JSON
``user`` written again would lose the ``\\/`` escapes of a ``photo_url`` and no longer match).
The user id comes only from the signed ``user`` field.
"""
from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

MAX_AGE_SECONDS = 24 * 3600  # an initData older than a day is refused
CLOCK_SKEW_SECONDS = 300  # a signature "from the future" beyond this is refused too
MAX_INIT_DATA = 8192
WATCH_TAG = 16  # hex digits of a watch link's tag: 64 bits


@dataclass(frozen=True)
class WebUser:
    """The person the signature vouches for, and what Telegram said about the opening."""

    id: int
    first_name: str
    last_name: str | None
    username: str | None
    language_code: str | None
    start_param: str | None


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def sign(fields: dict[str, str], token: str) -> str:
    """The ``hash`` Telegram would put on these (decoded) fields: for tests and the bench."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    return hmac.new(secret_key(token), check.encode(), hashlib.sha256).hexdigest()


def watch_param(game_id: str, token: str) -> str:
    """The start parameter of a group table's link to its live board: the game's id and a tag
    only the bot can make, so that a board is watched from its group's table, never by guessing
    game ids (Telegram signs whatever start parameter a person opens the app with)."""
    tag = hmac.new(secret_key(token), b"watch:" + game_id.encode(), hashlib.sha256).hexdigest()[:WATCH_TAG]
    return f"{game_id}-{tag}"


def watched_game(start_param: str | None, token: str) -> str | None:
    """The game a start parameter made by watch_param lets anyone look at, or None."""
    game_id, _, _ = (start_param or "").partition("-")
    if game_id and hmac.compare_digest(watch_param(game_id, token), start_param):
        return game_id
    return None


def check(raw: str | None, token: str, now: float) -> WebUser | None:
    """The signed person of a raw initData, or None when it is missing, malformed, forged,
    expired, or names no user."""
    if not raw or len(raw) > MAX_INIT_DATA:
        return None
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        return None
    fields = dict(pairs)
    if len(fields) != len(pairs):  # a key given twice: which one was signed?
        return None
    given = fields.pop("hash", "")
    if len(given) != 64 or not hmac.compare_digest(sign(fields, token), given.lower()):
        return None
    try:
        auth_date = int(fields.get("auth_date", ""))
        user = json.loads(fields.get("user", ""))
    except ValueError:
        return None
    if not now - MAX_AGE_SECONDS <= auth_date <= now + CLOCK_SKEW_SECONDS:
        return None
    if not isinstance(user, dict) or type(user.get("id")) is not int or user.get("is_bot"):
        return None

    def text(key: str) -> str | None:
        value = user.get(key)
        return value if isinstance(value, str) else None

    return WebUser(id=user["id"], first_name=text("first_name") or "", last_name=text("last_name"),
                   username=text("username"), language_code=text("language_code"),
                   start_param=fields.get("start_param") or None)
