"""Every call to Telegram goes through here: errors handled in one place, group writes paced.

- ``Forbidden`` (blocked, never opened the private chat): reported as FORBIDDEN, the caller
  decides (the user is marked unreachable).
- "message is not modified": NOT_MODIFIED, harmless.
- "message to edit not found" / deleted: MISSING, the caller re-posts.
- ``RetryAfter``: wait as told and retry; button presses are answered meanwhile because
  answers do not go through the group pacing and edits run in background tasks.
- ``ChatMigrated``: the ``on_migrate`` callback re-keys the chat, MIGRATED is returned.
- Network errors and time-outs: retried with backoff.
Group writes (sends, edits, deletes to a chat with a negative id) are paced so that a group
sees at most ``writes_per_minute`` of them in any minute.
"""
from __future__ import annotations

import asyncio
import collections
import enum
import hashlib
import logging
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from telegram import Bot, BotCommand, InputMediaPhoto, InlineKeyboardMarkup, Message, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TelegramError, TimedOut

log = logging.getLogger(__name__)


class Result(enum.Enum):
    OK = "ok"
    NOT_MODIFIED = "not_modified"
    MISSING = "missing"
    FORBIDDEN = "forbidden"
    MIGRATED = "migrated"
    FAILED = "failed"


@dataclass
class Sent:
    result: Result
    message: Message | None = None

    @property
    def ok(self) -> bool:
        return self.result in (Result.OK, Result.NOT_MODIFIED)


def _seconds(value: Any) -> float:
    return value.total_seconds() if hasattr(value, "total_seconds") else float(value)


class GroupPacer:
    """Sliding-window pacing of writes to one group: a quick first burst, then spread out."""

    def __init__(self, per_minute: int, fast_spacing: float, window: float = 60.0):
        self.per_minute = per_minute
        self.fast_spacing = fast_spacing
        self.window = window
        self._times: dict[int, collections.deque[float]] = collections.defaultdict(collections.deque)
        self._locks: dict[int, asyncio.Lock] = collections.defaultdict(asyncio.Lock)

    def _delay(self, chat_id: int, now: float) -> float:
        times = self._times[chat_id]
        while times and now - times[0] >= self.window:
            times.popleft()
        if not times:
            return 0.0
        if len(times) >= self.per_minute:
            return times[0] + self.window - now
        # After half the budget, spread the rest evenly over the window.
        spacing = self.fast_spacing if len(times) < self.per_minute // 2 else self.window / self.per_minute
        return max(0.0, times[-1] + spacing - now)

    async def wait(self, chat_id: int) -> None:
        async with self._locks[chat_id]:
            while True:
                delay = self._delay(chat_id, time.monotonic())
                if delay <= 0:
                    break
                await asyncio.sleep(delay)
            self._times[chat_id].append(time.monotonic())


class Messenger:
    def __init__(self, bot: Bot, *, writes_per_minute: int = 20, fast_spacing: float = 1.0,
                 on_migrate: Callable[[int, int], Awaitable[None]] | None = None,
                 on_forbidden: Callable[[int], Awaitable[None]] | None = None,
                 max_retries: int = 5):
        self.bot = bot
        self.pacer = GroupPacer(writes_per_minute, fast_spacing)
        self.on_migrate = on_migrate
        self.on_forbidden = on_forbidden
        self.max_retries = max_retries
        # file_id of images already uploaded, by content hash: identical pictures are not re-sent.
        self._file_ids: dict[str, str] = {}

    async def _call(self, chat_id: int | None, make: Callable[[], Awaitable[Any]]) -> Sent:
        attempt = 0
        while True:
            if chat_id is not None and chat_id < 0:
                await self.pacer.wait(chat_id)
            try:
                value = await make()
                return Sent(Result.OK, value if isinstance(value, Message) else None)
            except RetryAfter as exc:
                wait = _seconds(getattr(exc, "_retry_after", None) or exc.retry_after)
                log.warning("flood control on chat %s: waiting %.1f s", chat_id, wait)
                await asyncio.sleep(wait + 0.1)
            except ChatMigrated as exc:
                log.info("chat %s migrated to %s", chat_id, exc.new_chat_id)
                if self.on_migrate is not None and chat_id is not None:
                    await self.on_migrate(chat_id, exc.new_chat_id)
                return Sent(Result.MIGRATED)
            except Forbidden as exc:
                log.info("forbidden in chat %s: %s", chat_id, exc.message)
                if self.on_forbidden is not None and chat_id is not None and chat_id > 0:
                    await self.on_forbidden(chat_id)
                return Sent(Result.FORBIDDEN)
            except BadRequest as exc:
                text = exc.message.lower()
                if "not modified" in text:
                    return Sent(Result.NOT_MODIFIED)
                if "not found" in text and "message" in text or "message can't be" in text:
                    return Sent(Result.MISSING)
                if "chat not found" in text:
                    return Sent(Result.FORBIDDEN)
                if "query is too old" in text or "query id is invalid" in text:
                    return Sent(Result.FAILED)
                log.error("bad request in chat %s: %s", chat_id, exc.message)
                return Sent(Result.FAILED)
            except (TimedOut, NetworkError) as exc:
                attempt += 1
                if attempt > self.max_retries:
                    log.error("giving up on chat %s after %d network errors: %s", chat_id, attempt, exc)
                    return Sent(Result.FAILED)
                await asyncio.sleep(min(8.0, 0.25 * 2 ** attempt))
            except TelegramError as exc:
                log.error("telegram error in chat %s: %s", chat_id, exc)
                return Sent(Result.FAILED)

    def _photo(self, png: bytes) -> tuple[str, Any]:
        key = hashlib.sha1(png).hexdigest()
        return key, self._file_ids.get(key, png)

    def _remember(self, key: str, sent: Sent) -> None:
        if sent.message is not None and sent.message.photo:
            self._file_ids[key] = sent.message.photo[-1].file_id
            if len(self._file_ids) > 2000:
                self._file_ids.pop(next(iter(self._file_ids)))

    # ---- sending ------------------------------------------------------------------------

    async def send_text(self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None, *,
                        thread_id: int = 0, reply_to: int | None = None, notify: bool = True) -> Sent:
        return await self._call(chat_id, lambda: self.bot.send_message(
            chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup,
            message_thread_id=thread_id or None, disable_notification=not notify,
            reply_parameters=ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None,
            link_preview_options=None))

    async def send_photo(self, chat_id: int, png: bytes, caption: str,
                         markup: InlineKeyboardMarkup | None = None, *, thread_id: int = 0) -> Sent:
        key, photo = self._photo(png)
        sent = await self._call(chat_id, lambda: self.bot.send_photo(
            chat_id, photo, caption=caption, parse_mode=ParseMode.HTML, reply_markup=markup,
            message_thread_id=thread_id or None))
        self._remember(key, sent)
        return sent

    async def send_dice(self, chat_id: int, emoji: str = "🎲", *, thread_id: int = 0) -> Sent:
        return await self._call(chat_id, lambda: self.bot.send_dice(
            chat_id, emoji=emoji, message_thread_id=thread_id or None))

    # ---- editing ------------------------------------------------------------------------

    async def edit_text(self, chat_id: int, message_id: int, text: str,
                        markup: InlineKeyboardMarkup | None = None) -> Sent:
        return await self._call(chat_id, lambda: self.bot.edit_message_text(
            text, chat_id=chat_id, message_id=message_id, parse_mode=ParseMode.HTML, reply_markup=markup))

    async def edit_photo(self, chat_id: int, message_id: int, png: bytes, caption: str,
                         markup: InlineKeyboardMarkup | None = None) -> Sent:
        key, photo = self._photo(png)
        media = InputMediaPhoto(photo, caption=caption, parse_mode=ParseMode.HTML)
        sent = await self._call(chat_id, lambda: self.bot.edit_message_media(
            media, chat_id=chat_id, message_id=message_id, reply_markup=markup))
        self._remember(key, sent)
        return sent

    async def edit_caption(self, chat_id: int, message_id: int, caption: str,
                           markup: InlineKeyboardMarkup | None = None) -> Sent:
        return await self._call(chat_id, lambda: self.bot.edit_message_caption(
            chat_id=chat_id, message_id=message_id, caption=caption, parse_mode=ParseMode.HTML,
            reply_markup=markup))

    async def edit_markup(self, chat_id: int, message_id: int, markup: InlineKeyboardMarkup | None) -> Sent:
        return await self._call(chat_id, lambda: self.bot.edit_message_reply_markup(
            chat_id=chat_id, message_id=message_id, reply_markup=markup))

    async def delete(self, chat_id: int, message_id: int) -> Sent:
        return await self._call(chat_id, lambda: self.bot.delete_message(chat_id, message_id))

    # ---- questions and settings --------------------------------------------------------------

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether the user administers the group (False when Telegram cannot tell)."""
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except TelegramError:
            return False
        return member.status in ("creator", "administrator")

    async def set_commands(self, commands: list[tuple[str, str]], *, scope, language_code: str | None) -> None:
        """The command menu for a scope and language; a failure only costs the menu."""
        try:
            await self.bot.set_my_commands([BotCommand(name, text) for name, text in commands], scope=scope,
                                           language_code=language_code)
        except TelegramError as exc:
            log.warning("could not set the command menu: %s", exc)

    # ---- answers (never paced: they are not chat messages) ----------------------------------

    async def answer(self, query_id: str, text: str | None = None, *, alert: bool = False,
                     url: str | None = None) -> Sent:
        if text is not None and len(text) > 200:
            text = text[:199] + "…"
        return await self._call(None, lambda: self.bot.answer_callback_query(
            query_id, text=text, show_alert=alert or None, url=url))
