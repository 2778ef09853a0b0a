"""The achievements after a game: what it earned its people is decided and granted once it is
recorded (``bot/records/achievements/keeper.py``), and the results say so, one line a person:
«🏅 ⁨Anna⁩ — «Three wins in a row»». Only what this game earned is said, once: the same lines again
after a restart before the results were posted; an achievement granted for an older game (a new
one, reached long ago) is never announced. Should deciding fail (a bug, logged), the results go
out without the line: the records read again at a start grant what was missed, silently."""
from __future__ import annotations

import logging

from bot.ending.after import End, Sequel
from bot.records.achievements.keeper import Achievements
from bot.storage.store import StoreUnavailable
from bot.words.names import in_text

log = logging.getLogger(__name__)


class AchievementsSuccessor:
    def __init__(self, achievements: Achievements):
        self.achievements = achievements

    async def follow(self, end: End) -> Sequel | None:
        try:
            earned = await self.achievements.decide(end.match, end.record)
        except StoreUnavailable:
            raise  # the end is followed again when the database is back (bot/table/background.py)
        except Exception:  # a bug here must not keep the results from the group: they go without it
            log.exception("the achievements of game %s could not be decided", end.match.id)
            await self.achievements.missed()
            return None
        seats = [s for s in end.record.seats if s.user_id in earned] if end.record is not None else []
        if not seats:
            return None

        def words(lang: str) -> str:
            return "\n".join(f"🏅 {in_text(s.name)} — " + ", ".join(f"«{a.title(lang)}»" for a in earned[s.user_id])
                             for s in seats)
        return Sequel(words=words)
