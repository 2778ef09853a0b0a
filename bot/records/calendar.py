"""Seasons in time: which season a moment belongs to, when it ends, and what it is called (pure).

``TABLEBOT_SEASON`` chooses the scheme: ``month`` (a calendar month, UTC: the default), ``week``
(an ISO week, Monday to Monday, UTC), or a length such as ``30s``, ``10m``, ``12h`` or ``3d``
(periods of that length counted from 1970-01-01 UTC, so every process agrees where one ends: an
operator's short event, or a check from outside that crosses a season's end in minutes).

A season's key names its scheme too («2027-03», «2027-W11», «600s-2991345»), so a season is
known from its key alone (``season``), and a change of ``TABLEBOT_SEASON`` starts a new season at
once instead of mixing two schemes' games in one.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from datetime import datetime, timezone

from bot.words.i18n import t

SCHEMES = ("month", "week")
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
SPEC = re.compile(r"\s*(?:(month|week)|(\d+)\s*([smhd]))\s*", re.IGNORECASE)
GRACE_SECONDS = 5.0  # a season is closed this long after its end (a last game's record comes in)
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
_KEY = re.compile(r"(\d{4})-(\d{2})|(\d{4})-W(\d{2})|(\d+)s-(\d+)")


@dataclass(frozen=True)
class Season:
    """One season: its key, and its start and end (epoch seconds; the end is the next one's start)."""

    key: str
    start: float
    end: float

    @property
    def grace(self) -> float:
        """How long after its end the season is closed: a few seconds, less for a short season."""
        return min(GRACE_SECONDS, (self.end - self.start) / 20)

    def label(self, lang: str) -> str:
        """«March 2027» (in the person's language), «Week 11, 2027», or a short season's start
        «2027-03-14 10:20 UTC»."""
        month, week, length = _parts(self.key)
        if month is not None:
            return f"{t(lang, MONTHS[month[1] - 1])} {month[0]}"
        if week is not None:
            return t(lang, "Week {n}, {year}", n=week[1], year=week[0])
        shown = "%Y-%m-%d %H:%M:%S" if length[0] % 60 else "%Y-%m-%d %H:%M"
        return time.strftime(shown, time.gmtime(self.start)) + " UTC"


def _parts(key: str) -> tuple:
    """(year, month), (year, week) or (length, index): one of them, the others None."""
    found = _KEY.fullmatch(key)
    if found is None:
        raise ValueError(f"not a season: {key!r}")
    y, m, wy, w, length, index = found.groups()
    if y is not None:
        return (int(y), int(m)), None, None
    if wy is not None:
        return None, (int(wy), int(w)), None
    return None, None, (int(length), int(index))


def is_season(key: str) -> bool:
    return _KEY.fullmatch(key) is not None


def season(key: str) -> Season:
    """The season a key names, whatever scheme made it."""
    month, week, length = _parts(key)
    if month is not None:
        year, number = month
        start = datetime(year, number, 1, tzinfo=timezone.utc)
        end = datetime(year + number // 12, number % 12 + 1, 1, tzinfo=timezone.utc)
        return Season(key, start.timestamp(), end.timestamp())
    if week is not None:
        start = datetime.fromisocalendar(week[0], week[1], 1).replace(tzinfo=timezone.utc).timestamp()
        return Season(key, start, start + 7 * 86400)
    seconds, index = length
    return Season(key, float(index * seconds), float((index + 1) * seconds))


def parse(spec: str) -> str | int:
    """``month``, ``week``, or a length in seconds; ValueError for anything else."""
    found = SPEC.fullmatch(spec or "")
    if found is None:
        raise ValueError(f"TABLEBOT_SEASON must be month, week or a length such as 10m, 12h or 3d, not {spec!r}")
    if found.group(1):
        return found.group(1).lower()
    seconds = int(found.group(2)) * UNITS[found.group(3).lower()]
    if seconds < 1:
        raise ValueError(f"TABLEBOT_SEASON must be at least one second long, not {spec!r}")
    return seconds


class Calendar:
    """The seasons of one scheme (``TABLEBOT_SEASON``)."""

    def __init__(self, spec: str = "month"):
        self.scheme = parse(spec)

    def at(self, when: float) -> Season:
        """The season ``when`` (epoch seconds) belongs to."""
        if self.scheme == "month":
            moment = time.gmtime(when)
            return season(f"{moment.tm_year:04d}-{moment.tm_mon:02d}")
        if self.scheme == "week":
            year, week, _ = datetime.fromtimestamp(when, timezone.utc).isocalendar()
            return season(f"{year:04d}-W{week:02d}")
        seconds = self.scheme
        return season(f"{seconds}s-{int(when // seconds)}")

