"""What each message of a game shows now, and making a message show something else: edited in
place when it changed (an unchanged message is not edited; an unchanged picture is not drawn or
uploaded again, only its caption is edited), posted again below when it is gone, stripped of its
buttons when it leads nowhere. Memory only: after a restart a message is edited once more.

A message posted via the bot in a chat it is not in (inline mode: its id is a string) is only
ever edited, and its picture cannot be uploaded with the edit: it goes up through its
:class:`Carrier`, a message of the host's private chat with the bot that shows the same table
(they see the game there too), and the inline message takes it by file_id."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Awaitable, Callable

from telegram import InlineKeyboardMarkup

from bot.games.base import View
from bot.outgoing.messenger import Messenger, Result
from bot.outgoing.pacing import TIDY
from bot.table.background import Background, TryLater

# A new message that may or may not have arrived is posted again only this much later, if nobody
# pressed a button on it meanwhile (which tells its id: ``Play.adopt``).
UNSURE_SECONDS = 30.0


@dataclass
class Carrier:
    """Where an inline game's pictures go up: a private chat with the bot (the host's) and the
    message there that shows the table (None until the first picture)."""

    chat_id: int
    message_id: int | None = None


class Messages:
    def __init__(self, messenger: Messenger, background: Background,
                 render: Callable[[Callable[[], bytes]], Awaitable[bytes]]):
        self.messenger = messenger
        self.background = background
        self.render = render  # draws a picture job off the event loop (bot/workers/pool.py)
        # What each message shows now: (text, keyboard, image key). Skips no-op edits. (Keyboards
        # compare by their buttons: 4 µs, where comparing them as JSON took 250.)
        self._shown: dict[tuple[int, int | str], tuple[str, InlineKeyboardMarkup | None, str | None]] = {}

    def shows(self, chat_id: int, message_id: int | None, view: View, markup) -> bool:
        """Whether the message shows exactly this already (as far as this process knows)."""
        return self._shown.get((chat_id, message_id)) == (view.text, markup, view.image_key)

    async def show(self, chat_id: int, message_id: int | str | None, view: View, markup, *,
                   thread_id: int = 0, force_new: bool = False, carrier: Carrier | None = None) -> int | str | None:
        """Make a message show ``view``: edit it in place, or post it when it is gone.

        Returns the message id now showing the view (None when it could not be shown).
        """
        if isinstance(message_id, str):
            return await self._show_inline(chat_id, message_id, view, markup, carrier)
        wanted = (view.text, markup, view.image_key)
        if message_id is not None and not force_new:
            shown = self._shown.get((chat_id, message_id))
            if shown == wanted:
                return message_id
            if view.image is not None:
                if shown is not None and shown[2] == view.image_key:
                    sent = await self.messenger.edit_caption(chat_id, message_id, view.text, markup)
                else:
                    sent = await self.messenger.edit_photo(chat_id, message_id, lambda: self.render(view.image),
                                                           view.text, markup)
            else:
                sent = await self.messenger.edit_text(chat_id, message_id, view.text, markup)
            if sent.ok:
                self._shown[(chat_id, message_id)] = wanted
                return message_id
            if sent.result in (Result.FORBIDDEN, Result.MIGRATED):
                return None
            if sent.result != Result.MISSING:
                raise TryLater()
            # MISSING: deleted by someone; post a new message below.
            self.forget(chat_id, message_id)
        if view.image is not None:
            sent = await self.messenger.send_photo(chat_id, lambda: self.render(view.image), view.text, markup,
                                                   thread_id=thread_id)
        else:
            sent = await self.messenger.send_text(chat_id, view.text, markup, thread_id=thread_id)
        if sent.message is None:
            if sent.result == Result.FAILED:
                raise TryLater()
            if sent.result == Result.UNSURE:
                raise TryLater(UNSURE_SECONDS)  # not posted twice at once: it may be there
            return None  # forbidden or migrated
        self._shown[(chat_id, sent.message.message_id)] = wanted
        return sent.message.message_id

    async def _show_inline(self, chat_id: int, inline_id: str, view: View, markup,
                           carrier: Carrier | None) -> str | None:
        """An inline message edited to show ``view`` (None: it is gone); its picture through the
        carrier (without one, or when it fails, the caption alone changes)."""
        wanted = (view.text, markup, view.image_key)
        shown = self._shown.get((chat_id, inline_id))
        if shown == wanted:
            return inline_id
        file_id = None
        if view.image is not None and (shown is None or shown[2] != view.image_key) and carrier is not None:
            file_id, carrier.message_id = await self.messenger.carry(
                carrier.chat_id, carrier.message_id, lambda: self.render(view.image), view.text)
        if file_id is not None:
            sent = await self.messenger.edit_photo(chat_id, inline_id, file_id, view.text, markup)
        elif view.image is not None and (shown is None or shown[2] is not None):
            sent = await self.messenger.edit_caption(chat_id, inline_id, view.text, markup)
            wanted = wanted[:2] + (shown[2] if shown else None,)
        else:
            sent = await self.messenger.edit_text(chat_id, inline_id, view.text, markup)
        if sent.ok:
            self._shown[(chat_id, inline_id)] = wanted
            return inline_id
        if sent.result in (Result.MISSING, Result.FORBIDDEN):
            return None
        raise TryLater()

    def forget(self, chat_id: int, message_id: int | None) -> None:
        """A message no longer shows the game (deleted, gone, stripped, or its game is over)."""
        self._shown.pop((chat_id, message_id), None)

    def strip_soon(self, chat_id: int, message_id: int | None) -> None:
        """Take the buttons off an old message in a job of its own (clean-up waits for the rest)."""
        if message_id:  # (not UNKNOWN_MESSAGE)
            self.background.schedule(("strip", chat_id, message_id), lambda: self.strip(chat_id, message_id))

    async def strip(self, chat_id: int, message_id: int | None) -> None:
        """Take the buttons off a message that no longer leads anywhere."""
        if message_id is not None:
            await self.messenger.edit_markup(chat_id, message_id, None, priority=TIDY)
            self.forget(chat_id, message_id)
