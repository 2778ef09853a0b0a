"""Pictures on their way out: each drawn once, when its write may go out, and uploaded once.

A picture is drawn when its write may go out, not before: a write waiting for its group's pace
or the bot's holds no picture, and what it shows is drawn once, for what goes out (a retry sends
the same bytes). Telegram answers an upload with the picture's file_id: the same picture (the
same bytes) is sent by that id afterwards, not uploaded again.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Awaitable, Callable

from telegram import InputFile

from bot.outgoing.sent import Sent

Picture = Callable[[], Awaitable[bytes]]
KEPT = 2000  # the file_ids of the newest uploads are remembered


@dataclass
class Upload:
    """One picture (or animation) on its way out: drawn on the first attempt and kept for a
    retry; or a file_id already (an inline message takes no upload, a replay posted before)."""
    draw: Picture | str
    png: bytes | None = None
    key: str | None = None  # its content's hash, for the file_id of an identical upload


class Uploads:
    """The file_ids of the pictures uploaded lately, by their content's hash."""

    def __init__(self) -> None:
        self._file_ids: dict[str, str] = {}

    async def media(self, upload: Upload) -> bytes | str:
        """What to send: the file_id of the same picture uploaded before (or the one given), or
        its bytes, drawn on the first call."""
        if isinstance(upload.draw, str):
            return upload.draw
        if upload.png is None:
            upload.png = await upload.draw()
            upload.key = hashlib.sha1(upload.png).hexdigest()
        return self._file_ids.get(upload.key, upload.png)

    def remember(self, upload: Upload, sent: Sent) -> None:
        """The file_id Telegram gave the picture of a write that went through."""
        if sent.message is not None and sent.message.file_id is not None and upload.key is not None:
            self._file_ids[upload.key] = sent.message.file_id
            if len(self._file_ids) > KEPT:
                self._file_ids.pop(next(iter(self._file_ids)))


def as_file(media: bytes | str, filename: str | None = None) -> InputFile | str:
    """A write's file parameter: bytes to upload, or a file_id Telegram has."""
    return media if isinstance(media, str) else InputFile(media, filename=filename)
