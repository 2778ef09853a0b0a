"""Every call to Telegram goes through here: errors handled in one place, writes paced.

- ``Forbidden`` (blocked, never opened the private chat): FORBIDDEN; the ``on_forbidden``
  callback marks the user, the caller decides the rest.
- "message is not modified": NOT_MODIFIED, harmless.
- "message to edit not found" / deleted: MISSING, the caller re-posts.
- ``RetryAfter`` (429): the whole chat waits it out (``Pacer.refused``, which also tells the
  bot's learnt pace), then the call is made again, as often as it takes: a 429 means Telegram
  did nothing, and a write is never dropped for it. One log line, no traceback.
- ``ChatMigrated``: the ``on_migrate`` callback re-keys the chat, MIGRATED is returned.
- Network errors, time-outs, 5xx: an edit, a delete or an answer is made again with backoff
  (doing it twice is harmless); a new message only when it surely never reached Telegram (the
  connection was refused), because sending it twice would post it twice. Otherwise UNSURE.
Writes (sends, edits, deletes) are paced (bot/outgoing/pacing.py): a group's budget, the whole
bot's pace, and how many may be in flight while Telegram answers promptly; a person waiting (a
reply, a ping) before the game's own edits. Each write tells the pacer how long Telegram took.
``broadcast`` sends one of many notices nobody waits for (the maintenance notice, next-game
notices, a season's end) in the pacer's broadcast class, with ``allow_paid_broadcast`` when the
operator pays for faster broadcasts.
Answers to button presses are never paced, never wait behind a write (they have connections of
their own: bot/outgoing/lanes.py), and are tried again only while Telegram would still take them
(about 15 s after the press): a 429 on one answer holds no other.
Replies to commands go out in the background (``post``), in the order they were asked, a few
per chat at most, so that a flood of commands can neither hold up the group's updates nor eat
its write budget.
"""
from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from telegram import Bot, BotCommand, InputMediaPhoto, InlineKeyboardMarkup, ReplyParameters
from telegram.constants import CallbackQueryLimit, ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TelegramError

from bot.logs import network_failure
from bot.words.format import at_word
from bot.outgoing.pacing import GAME, PERSON, TIDY, Pacer, Slot
from bot.outgoing.sent import Posted, Result, Sent, seconds_of, surely_not_delivered
from bot.outgoing.uploads import Picture, Upload, Uploads, as_file

log = logging.getLogger(__name__)

MAX_PENDING_REPLIES = 8  # per group; more command replies than this are dropped (CommandGuard
# already holds each member to a few, so this is the last line against many members at once)
PATIENT_SECONDS = 30.0  # how long a patient send waits for Telegram's answer
ANSWER_SECONDS = 10.0  # an answer is tried again only this long: Telegram refuses one after ~15 s
REPLIES = "replies"  # the pacer's tag of command replies (``Pacer.hurry``)


@dataclass(eq=False)
class _Reply:
    """A command's reply waiting to go out: how urgent it is now, and its task."""
    priority: int
    task: asyncio.Task | None = None


def _message(chat_id: int, message_id: int | str) -> dict:
    """The message an edit is for, as the Bot API names it."""
    if isinstance(message_id, str):
        return {"inline_message_id": message_id}
    return {"chat_id": chat_id, "message_id": message_id}


def _reply_to(message_id: int | None) -> ReplyParameters | None:
    """A reply to ``message_id`` (None: none), sent even if that message is gone meanwhile."""
    return ReplyParameters(message_id, allow_sending_without_reply=True) if message_id else None


class Messenger:
    def __init__(self, bot: Bot, pacer: Pacer | None = None, *,
                 on_migrate: Callable[[int, int], Awaitable[None]] | None = None,
                 on_forbidden: Callable[[int], Awaitable[None]] | None = None, max_retries: int = 5):
        self.bot = bot
        # Every write waits its turn there (a group's budget, the bot's, the places in flight).
        self.pacer = Pacer(per_minute=20, fast_spacing=1.0) if pacer is None else pacer
        self.on_migrate = on_migrate
        self.on_forbidden = on_forbidden
        self.max_retries = max_retries
        self.uploads = Uploads()  # identical pictures are not uploaded again
        self._replies: dict[int, dict[str, _Reply]] = {}  # chat -> the replies waiting, by text, in order
        self._tasks: set[asyncio.Task] = set()

    async def _call(self, chat_id: int | None, make: Callable[[], Awaitable[Any]], *,
                    new_message: bool = False, priority: int = GAME, still: Callable[[], bool] | None = None,
                    retries: int | None = None, within: float | None = None,
                    prepare: Callable[[], Awaitable[Any]] | None = None, tag: object = None,
                    leaving: Callable[[], Awaitable[None]] | None = None, broadcast: bool = False) -> Sent:
        """Make one call with the errors handled; ``new_message``: it posts a message (not safe
        to repeat after an unclear failure); ``priority``: who waits for it (bot/outgoing/pacing.py);
        ``still``: asked before it goes out, False drops it; ``within``: seconds after which it
        is not tried again (an answer to a press); ``prepare``: what to do once it may go out,
        before it is timed (draw its picture); ``tag``: see ``Pacer.hurry``; ``leaving``: awaited
        when the request is about to leave, its turn come (a message that must go out once stores
        its intent then, not while it waits: a stop before its turn leaves it unsent and unmarked
        for the next start); ``broadcast``: see ``broadcast``. ``retries``: tries after a network
        error (and, when given, after a 429: one try for what a press waits for)."""
        attempt = floods = 0
        flood_tries = retries  # None: a 429 is waited out as often as it comes
        retries = self.max_retries if retries is None else retries
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within if within is not None else None
        while True:
            slot = None
            if chat_id is not None:
                slot = await self.pacer.wait(chat_id, priority=priority, still=still, tag=tag, broadcast=broadcast)
                if slot is None:
                    return Sent(Result.DROPPED)
            if still is not None and not still():
                if slot is not None:
                    slot.done()
                return Sent(Result.DROPPED)
            if leaving is not None:
                try:
                    await leaving()
                except BaseException:  # its intent could not be stored: it does not go, its place frees
                    if slot is not None:
                        slot.done()
                    raise
            try:
                value = await self._made(slot, make, prepare)
                return Sent(Result.OK, Posted.of(value))
            except RetryAfter as exc:
                floods += 1
                wait = seconds_of(getattr(exc, "_retry_after", None) or exc.retry_after)
                if flood_tries is not None and floods > flood_tries:
                    log.warning("chat %s: still flood-controlled after %d tries; giving up", chat_id, floods)
                    return Sent(Result.FAILED)
                if deadline is not None and loop.time() + wait > deadline:
                    log.warning("flood control on an answer (%.1f s): too late to answer, given up", wait)
                    return Sent(Result.FAILED)
                if chat_id is None:
                    log.warning("flood control on an answer: this answer waits %.1f s", wait)
                else:
                    log.warning("flood control on chat %s: every write there waits %.1f s", chat_id, wait)
                if chat_id is not None:
                    self.pacer.refused(chat_id, wait + 0.1, slot)
                else:
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
                return self._bad_request(chat_id, exc)
            except NetworkError as exc:  # TimedOut too
                attempt += 1
                if new_message and not surely_not_delivered(exc):
                    log.warning("chat %s: a new message may or may not have arrived (%s); not sending it twice",
                                chat_id, exc)
                    return Sent(Result.UNSURE)
                pause = min(8.0, 0.25 * 2 ** attempt)
                if attempt > retries or deadline is not None and loop.time() + pause > deadline:
                    log.warning("chat %s: giving up after %d network errors: %s", chat_id, attempt, exc)
                    return Sent(Result.FAILED)
                await asyncio.sleep(pause)
            except TelegramError as exc:
                log.error("telegram error in chat %s: %s", chat_id, exc)
                return Sent(Result.FAILED)

    @staticmethod
    async def _made(slot: Slot | None, make: Callable[[], Awaitable[Any]],
                    prepare: Callable[[], Awaitable[Any]] | None) -> Any:
        """``make()``, in the place in flight ``slot`` holds (None: an answer, not paced); the
        pacer learns how long Telegram took to answer: a slow answer, or none at all (a time-out,
        a broken connection, a 5xx), means fewer writes in flight (bot/outgoing/inflight.py)."""
        if slot is None:
            return await make()
        seconds, failed = None, False
        try:
            if prepare is not None:
                await prepare()  # before the clock starts: our drawing is not Telegram's time
            started = time.monotonic()
            try:
                value = await make()
            except (BadRequest, Forbidden, ChatMigrated):  # answered: as telling as a success
                seconds = time.monotonic() - started
                raise
            except RetryAfter:  # flood control says nothing of Telegram's speed
                raise
            except TelegramError:  # no answer, or a 5xx: Telegram is struggling
                failed = True
                raise
            seconds = time.monotonic() - started
            return value
        finally:
            slot.done(seconds, failed=failed)

    @staticmethod
    def _bad_request(chat_id: int | None, exc: BadRequest) -> Sent:
        text = exc.message.lower()
        if "not modified" in text:
            return Sent(Result.NOT_MODIFIED)
        if "not found" in text and "message" in text or "message can't be" in text or "message_id_invalid" in text:
            return Sent(Result.MISSING)
        if "chat not found" in text:
            return Sent(Result.FORBIDDEN)
        if "query is too old" in text or "query id is invalid" in text:
            log.info("a button press was answered too late: %s", exc.message)
            return Sent(Result.FAILED)
        log.error("bad request in chat %s: %s", chat_id, exc.message)
        return Sent(Result.FAILED)

    async def _write(self, method: str, *, read_timeout: float | None = None, **params: Any) -> Any:
        """The Bot API's writing ``method`` with ``params`` (None ones left out; keyboards,
        media and files as python-telegram-bot sends them), and Telegram's answer as it came
        (``Posted.of`` reads it). python-telegram-bot's own methods would build a ``Message`` of
        the answer first, which under a thousand busy groups was a tenth of the bot's time;
        their errors are raised here the same (``Bot.do_api_request`` is this call, with a
        warning for a method that has a name of its own). ``read_timeout``: longer than the
        usual for an answer (None: the request's own)."""
        timeouts = {} if read_timeout is None else {"read_timeout": read_timeout}
        return await self.bot._post(method, params, **timeouts)

    # ---- sending ------------------------------------------------------------------------

    async def send_text(self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None, *,
                        thread_id: int = 0, reply_to: int | None = None, notify: bool = True,
                        priority: int = GAME, still: Callable[[], bool] | None = None,
                        retries: int | None = None, patient: bool = False, tag: object = None,
                        leaving: Callable[[], Awaitable[None]] | None = None) -> Sent:
        """``patient``: wait long for Telegram's answer (a message that must not be posted twice:
        an answer that comes late still tells its id, where a time-out would leave it unsure).
        ``tag``: see ``Pacer.hurry``; ``leaving``: see ``_call``."""
        return await self._call(chat_id, lambda: self._write(
            "sendMessage", chat_id=chat_id, text=text, parse_mode=ParseMode.HTML, reply_markup=markup,
            message_thread_id=thread_id or None, disable_notification=not notify or None,
            reply_parameters=_reply_to(reply_to), read_timeout=PATIENT_SECONDS if patient else None),
            new_message=True, priority=priority, still=still, retries=retries, tag=tag, leaving=leaving)

    async def send_photo(self, chat_id: int, picture: Picture, caption: str,
                         markup: InlineKeyboardMarkup | None = None, *, thread_id: int = 0,
                         priority: int = GAME, tag: object = None) -> Sent:
        upload = Upload(picture)

        async def make():
            return await self._write("sendPhoto", chat_id=chat_id, photo=as_file(await self.uploads.media(upload)),
                                     caption=caption, parse_mode=ParseMode.HTML, reply_markup=markup,
                                     message_thread_id=thread_id or None)
        sent = await self._call(chat_id, make, new_message=True, priority=priority,
                                prepare=lambda: self.uploads.media(upload), tag=tag)
        self.uploads.remember(upload, sent)
        return sent

    async def carry(self, chat_id: int, message_id: int | None, picture: Picture,
                    caption: str) -> tuple[str | None, int | None]:
        """A picture put on Telegram's servers, for a message posted via the bot elsewhere (which
        takes no upload): through a message of a chat the bot may write to, ``message_id`` (edited
        to show it) or a new one (None, or the old one gone). Its file_id (None: it could not be
        put there) and that message's id; a picture uploaded before is not uploaded again."""
        upload = Upload(picture)
        known = await self.uploads.media(upload)
        if isinstance(known, str):
            return known, message_id

        async def make():
            media = await self.uploads.media(upload)
            if message_id is None:
                return await self._write("sendPhoto", chat_id=chat_id, photo=as_file(media), caption=caption,
                                         parse_mode=ParseMode.HTML, disable_notification=True)
            return await self._write("editMessageMedia", chat_id=chat_id, message_id=message_id,
                                     media=InputMediaPhoto(media, caption=caption, parse_mode=ParseMode.HTML))
        sent = await self._call(chat_id, make, new_message=message_id is None)
        self.uploads.remember(upload, sent)
        if sent.result == Result.MISSING and message_id is not None:
            return await self.carry(chat_id, None, lambda: self.uploads.media(upload), caption)
        if sent.message is None or sent.message.file_id is None:
            return None, message_id
        return sent.message.file_id, sent.message.message_id

    async def send_animation(self, chat_id: int, animation: Picture | str, caption: str, *, thread_id: int = 0,
                             reply_to: int | None = None, priority: int = PERSON) -> Sent:
        """An animation (a GIF made by ``animation()`` when the write may go out, or the file_id
        of one sent before). Made once: a retry sends the same bytes."""
        upload = Upload(animation)

        async def make():
            return await self._write(
                "sendAnimation", chat_id=chat_id, animation=as_file(await self.uploads.media(upload), "replay.gif"),
                caption=caption, parse_mode=ParseMode.HTML, message_thread_id=thread_id or None,
                reply_parameters=_reply_to(reply_to))
        sent = await self._call(chat_id, make, new_message=True, priority=priority,
                                prepare=lambda: self.uploads.media(upload))
        self.uploads.remember(upload, sent)
        return sent

    def post(self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None, *,
             thread_id: int = 0, reply_to: int | None = None, priority: int = PERSON,
             picture: Picture | None = None) -> None:
        """Reply to a command in the background: the handler does not wait for the group's pace.
        With a ``picture``, a photo whose caption is ``text`` (drawn when it may go out).
        A chat's replies go out in the order they were asked, each once the one before it is
        out; a reply that a more urgent one waits behind is as urgent (a member's quick second
        command takes turns with the table, but the next person's first does not wait for that).
        A reply already waiting with the same text is not queued again; beyond a few waiting
        replies per chat, new ones are dropped (someone is flooding the group with commands)."""
        waiting = self._replies.setdefault(chat_id, {})
        if text in waiting:
            return
        if len(waiting) >= MAX_PENDING_REPLIES:
            log.info("chat %s: %d replies waiting, one more dropped", chat_id, len(waiting))
            return
        before = list(waiting.values())[-1].task if waiting else None
        for earlier in waiting.values():
            earlier.priority = min(earlier.priority, priority)
        self.pacer.hurry(chat_id, REPLIES, priority)  # the one waiting in the pacer now
        reply = waiting[text] = _Reply(priority)
        reply.task = self._spawn(self._send_reply(chat_id, text, markup, thread_id, reply_to, reply, before, picture))

    async def _send_reply(self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None, thread_id: int,
                          reply_to: int | None, reply: _Reply, before: asyncio.Task | None,
                          picture: Picture | None = None) -> None:
        try:
            if before is not None:
                await asyncio.wait([before])
            if picture is not None:
                await self.send_photo(chat_id, picture, text, markup, thread_id=thread_id, priority=reply.priority,
                                      tag=REPLIES)
            else:
                await self.send_text(chat_id, text, markup, thread_id=thread_id, reply_to=reply_to,
                                     priority=reply.priority, tag=REPLIES)
        finally:
            waiting = self._replies.get(chat_id, {})
            waiting.pop(text, None)
            if not waiting:
                self._replies.pop(chat_id, None)

    def _spawn(self, coroutine: Awaitable[None]) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait for replies still going out (at shut-down)."""
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=timeout)

    async def close(self, timeout: float = 1.0) -> None:
        """Cancel the replies still waiting and the pacer's tasks, and wait until they have
        stopped (at shut-down, after ``drain``)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)
        self._replies.clear()
        await self.pacer.close(timeout)

    @property
    def busy(self) -> bool:
        return bool(self._tasks)

    async def broadcast(self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None, *,
                        thread_id: int = 0, notify: bool = True,
                        leaving: Callable[[], Awaitable[None]] | None = None) -> Sent:
        """One of many chats told the same at once, nobody waiting for it (the maintenance notice,
        a next-game notice, a season's end): in the pacer's broadcast class, at most 30 a second,
        or up to 1,000 with ``allow_paid_broadcast`` when the operator pays for it (each one
        beyond the free 30 a second costs 0.1 Stars). ``leaving``: see ``_call`` (it waits long
        for Telegram's answer then: a message that must go out once)."""
        paid = self.pacer.paid_broadcasts or None
        return await self._call(chat_id, lambda: self._write(
            "sendMessage", chat_id=chat_id, text=text, parse_mode=ParseMode.HTML, reply_markup=markup,
            message_thread_id=thread_id or None, allow_paid_broadcast=paid, disable_notification=not notify or None,
            read_timeout=PATIENT_SECONDS if leaving is not None else None),
            new_message=True, priority=TIDY, broadcast=True, leaving=leaving)

    def broadcast_soon(self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None, *,
                       thread_id: int = 0) -> None:
        """``broadcast`` in the background: whoever tells many chats waits for none of them."""
        self._spawn(self.broadcast(chat_id, text, markup, thread_id=thread_id))

    async def send_dice(self, chat_id: int, emoji: str = "🎲", *, thread_id: int = 0) -> Sent:
        return await self._call(chat_id, lambda: self._write(
            "sendDice", chat_id=chat_id, emoji=emoji, message_thread_id=thread_id or None), new_message=True)

    # ---- editing ------------------------------------------------------------------------
    # A message is a chat's (``chat_id``, ``message_id``), or one posted via the bot in a chat it
    # is not in: then ``message_id`` is its inline_message_id (a string) and ``chat_id`` the key
    # of its chat (``bot/storage/store.py``: ``inline_chat``), whose pace it keeps.

    async def edit_text(self, chat_id: int, message_id: int | str, text: str,
                        markup: InlineKeyboardMarkup | None = None) -> Sent:
        return await self._call(chat_id, lambda: self._write(
            "editMessageText", **_message(chat_id, message_id), text=text, parse_mode=ParseMode.HTML,
            reply_markup=markup))

    async def edit_photo(self, chat_id: int, message_id: int | str, picture: Picture | str, caption: str,
                         markup: InlineKeyboardMarkup | None = None) -> Sent:
        """``picture``: drawn and uploaded, or (an inline message takes no upload) a file_id."""
        upload = Upload(picture)

        async def make():
            media = InputMediaPhoto(await self.uploads.media(upload), caption=caption, parse_mode=ParseMode.HTML)
            return await self._write("editMessageMedia", **_message(chat_id, message_id), media=media,
                                     reply_markup=markup)
        sent = await self._call(chat_id, make, prepare=lambda: self.uploads.media(upload))
        self.uploads.remember(upload, sent)
        return sent

    async def edit_caption(self, chat_id: int, message_id: int | str, caption: str,
                           markup: InlineKeyboardMarkup | None = None) -> Sent:
        return await self._call(chat_id, lambda: self._write(
            "editMessageCaption", **_message(chat_id, message_id), caption=caption, parse_mode=ParseMode.HTML,
            reply_markup=markup))

    async def edit_markup(self, chat_id: int, message_id: int | str, markup: InlineKeyboardMarkup | None, *,
                          priority: int = GAME) -> Sent:
        return await self._call(chat_id, lambda: self._write(
            "editMessageReplyMarkup", **_message(chat_id, message_id), reply_markup=markup), priority=priority)

    async def delete(self, chat_id: int, message_id: int, *, priority: int = GAME) -> Sent:
        return await self._call(chat_id, lambda: self._write("deleteMessage", chat_id=chat_id, message_id=message_id),
                                priority=priority)

    # ---- questions and settings --------------------------------------------------------------

    async def is_member(self, chat_id: int, user_id: int) -> bool | None:
        """Whether the user belongs to the group (None when Telegram cannot tell now)."""
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except (Forbidden, BadRequest):
            return False
        except TelegramError:
            return None
        return member.status in ("creator", "administrator", "member") or (
            member.status == "restricted" and bool(getattr(member, "is_member", False)))

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Whether the user administers the group (False when Telegram cannot tell)."""
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except TelegramError:
            return False
        return member.status in ("creator", "administrator")

    async def set_commands(self, commands: list[tuple[str, str]], *, scope, language_code: str | None) -> bool:
        """The command menu for a scope and language; a failure only costs the menu (False)."""
        try:
            await self.bot.set_my_commands([BotCommand(name, text) for name, text in commands], scope=scope,
                                           language_code=language_code)
        except TelegramError as exc:
            log.warning("could not set the command menu: %s", network_failure(exc) or exc)
            return False
        return True

    # ---- answers (never paced: they are not chat messages, and have connections of their own) ----

    async def answer(self, query_id: str, text: str | None = None, *, alert: bool = False,
                     url: str | None = None) -> Sent:
        if text is not None:  # (a toast is fitted already; this is for every other pop-up)
            text = at_word(text, CallbackQueryLimit.ANSWER_CALLBACK_QUERY_TEXT_LENGTH)
        return await self._call(None, lambda: self.bot.answer_callback_query(
            query_id, text=text, show_alert=alert or None, url=url), within=ANSWER_SECONDS)

    async def answer_inline(self, query_id: str, results: list, *, cache_time: int) -> Sent:
        """The results of an inline query, personal (each person's own: their buttons name them)."""
        return await self._call(None, lambda: self.bot.answer_inline_query(
            query_id, results, cache_time=cache_time, is_personal=True), within=ANSWER_SECONDS)

    def answer_soon(self, query_id: str, text: str | None = None, *, alert: bool = False,
                    url: str | None = None) -> None:
        """Answer a press in the background: a slow or flood-controlled answer holds up neither
        the chat's next update nor any other answer."""
        self._spawn(self.answer(query_id, text, alert=alert, url=url))
