"""initData as Telegram signs it: accepted as received, refused when forged, expired, from the
future or without a user; and the Mini App's configuration."""
from __future__ import annotations

import time

import pytest

from bot.ops.config import ConfigError, from_env
from bot.webapp import auth
from tests.bot.webapp_client import forged, init_data

TOKEN = "123456:TEST-token"


def test_a_signed_init_data_names_its_user_and_start_param():
    now = time.time()
    raw = init_data(TOKEN, 42, "Анна <b>", lang="ru", start_param="1z", auth_date=now)
    user = auth.check(raw, TOKEN, now)
    assert user is not None and (user.id, user.first_name, user.language_code, user.start_param) == (
        42, "Анна <b>", "ru", "1z")


def test_the_raw_values_are_checked_not_a_re_serialised_user():
    """Telegram writes a photo_url with escaped slashes (\\/): a user read and written again
    would lose them and the signature would not match."""
    now = time.time()
    raw = init_data(TOKEN, 7, "Bob", photo_url="https://t.me/i/userpic/320/abc.svg", auth_date=now)
    assert "%5C%2F" in raw  # the backslashes travel as they were signed
    assert auth.check(raw, TOKEN, now).id == 7


@pytest.mark.parametrize("why", ["forged", "other token", "expired", "future", "empty", "garbage", "twice"])
def test_refused(why):
    now = time.time()
    raw = init_data(TOKEN, 42, "A", auth_date=now)
    raw = {
        "forged": forged(raw),
        "other token": init_data("1:other", 42, "A", auth_date=now),
        "expired": init_data(TOKEN, 42, "A", auth_date=now - 24 * 3600 - 1),
        "future": init_data(TOKEN, 42, "A", auth_date=now + 3600),
        "empty": "",
        "garbage": "%%%&&&==",
        "twice": raw + "&user=%7B%22id%22%3A1%7D",
    }[why]
    assert auth.check(raw, TOKEN, now) is None


def test_a_day_old_signature_is_still_good():
    now = time.time()
    assert auth.check(init_data(TOKEN, 42, "A", auth_date=now - 24 * 3600 + 5), TOKEN, now) is not None


def test_webapp_url_is_https_or_loopback_http():
    base = {"TELEGRAM_BOT_TOKEN": "1:x"}
    assert from_env({**base, "WEBAPP_URL": "https://bot.example.com/"}).webapp_url == "https://bot.example.com"
    assert from_env({**base, "WEBAPP_URL": "http://127.0.0.1:8443"}).webapp_url == "http://127.0.0.1:8443"
    assert from_env(base).webapp_url == ""
    for bad in ("http://bot.example.com", "ftp://127.0.0.1", "bot.example.com"):
        with pytest.raises(ConfigError, match="WEBAPP_URL"):
            from_env({**base, "WEBAPP_URL": bad})
    with pytest.raises(ConfigError, match="WEBAPP_SHORT_NAME needs WEBAPP_URL"):
        from_env({**base, "WEBAPP_SHORT_NAME": "board"})
    with pytest.raises(ConfigError, match="short name"):
        from_env({**base, "WEBAPP_URL": "https://x.org", "WEBAPP_SHORT_NAME": "a b"})
    assert from_env({**base, "WEBAPP_URL": "https://x.org", "WEBAPP_SHORT_NAME": "board"}).webapp_short_name == "board"


def test_a_watch_link_names_its_game_and_no_other():
    param = auth.watch_param("1z", TOKEN)
    assert param.startswith("1z-") and len(param) == len("1z-") + 16
    assert auth.watched_game(param, TOKEN) == "1z"
    assert auth.watched_game("1z", TOKEN) is None  # a bare id: a guess
    assert auth.watched_game("2a" + param[2:], TOKEN) is None  # another game's tag
    assert auth.watched_game(param, "1:another-token") is None  # another bot's
    assert auth.watched_game(None, TOKEN) is None and auth.watched_game("", TOKEN) is None
