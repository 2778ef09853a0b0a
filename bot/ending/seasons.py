"""The seasons after a game: every finished game is counted in its season's ratings
(``bot/records/seasons.py``) once it is recorded, before its results are posted, so that /top of
the season shows it at once. It adds nothing to the results; a season's end is
``bot/records/season_end.py``'s."""
from __future__ import annotations

import logging

from bot.ending.after import End, Sequel
from bot.records.seasons import SeasonRatings
from bot.storage.store import StoreUnavailable

log = logging.getLogger(__name__)


class SeasonSuccessor:
    def __init__(self, seasons: SeasonRatings):
        self.seasons = seasons

    async def follow(self, end: End) -> Sequel | None:
        """Count the game in its season (once: again after a restart changes nothing)."""
        try:
            await self.seasons.count(end.record)
        except StoreUnavailable:
            raise  # the end is followed again when the database is back (bot/table/background.py)
        except Exception:  # a bug here must not keep the results from the group (the next start counts it)
            log.exception("game %s could not be counted in its season", end.match.id)
        return None
