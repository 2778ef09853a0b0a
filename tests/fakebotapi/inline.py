"""Inline mode: people type ``@bot <query>`` in any chat, choose one of the bot's results, press
its buttons, and the bot edits that message by its ``inline_message_id``.

`InlineMode` is mixed into FakeBotAPI (server.py) ahead of OddUpdates and TelegramMethods, whose
methods it extends where inline mode changes them (getMe, the four edits, presses, what the bot
sees). The world it adds:

- Chats the bot is not in: ``add_private_pair(a, b)`` (two people's own private chat; an inline
  query from there says ``chat_type`` "private", one from a person's chat with the bot says
  "sender") and ``add_chat_without_bot(...)`` (a group, supergroup, forum or channel). The bot
  cannot write there (``sendMessage`` answers Telegram's "chat not found", a violation: the bot
  can only have such an id by mistake), but it edits the inline messages posted there via it.
  Every chat has one ``chat_instance``, the same for everyone in it, carried by every press.
- BotFather's switches: ``set_inline_mode(True, feedback=True)`` (/setinline,
  /setinlinefeedback). With inline mode off no inline query reaches the bot.
- ``user_queries_inline`` (an ``inline_query`` update), ``answerInlineQuery`` (validated; the
  answer kept: ``inline_results``), ``user_chooses_result`` (the message posted "via" the bot,
  with an ``inline_message_id`` only when it has an inline keyboard; ``chosen_inline_result``
  with feedback on), ``user_presses_inline`` (a callback query with ``inline_message_id`` and
  ``chat_instance`` and no ``message``), edits by ``inline_message_id`` (answering ``true``).

Telegram's words, and where they come from (tdlib/telegram-bot-api Client.cpp and tdlib/td
InlineMessageManager.cpp / InlineQueriesManager.cpp; the Bot API lower-cases the first letter of
TDLib's messages and keeps upper-case server codes such as RESULT_ID_DUPLICATE as they are):

- an inline edit that uploads a file: "Bad Request: invalid message content specified" (TDLib
  builds no InputMedia for a file not on Telegram's servers; a real bot's test, pengrad's
  java-telegram-bot-api EditMessageMediaTest, asserts exactly this description);
- an ``inline_message_id`` that is not one (not base64url of 20 or 24 bytes with a valid DC):
  "Bad Request: invalid inline message identifier specified"; a well-formed one that names no
  message (never sent, another bot's, deleted): "Bad Request: MESSAGE_ID_INVALID";
- neither chat_id/message_id nor inline_message_id: "Bad Request: message identifier is not
  specified";
- more than 50 results: "Bad Request: too many inline query results specified"; a duplicate
  result id: "Bad Request: RESULT_ID_DUPLICATE"; an id of 0 or over 64 bytes:
  "Bad Request: RESULT_ID_INVALID"; next_offset over 64 bytes: "Bad Request:
  NEXT_OFFSET_INVALID"; an empty article title: "Bad Request: ARTICLE_TITLE_EMPTY";
- the start button's parameter: "Bad Request: can't use empty start_parameter", "... too long
  start_parameter specified", "... unallowed characters in start_parameter are used";
- an answer to an unknown, already answered or expired query (about 10 s): "Bad Request: query
  is too old and response timeout expired or query ID is invalid";
- a URL Telegram cannot fetch: "Bad Request: failed to get HTTP URL content"; one that is no
  picture: "Bad Request: wrong type of the web page content".

Where Telegram's servers would accept a request only by accident, the fake refuses it with its
own words and records a violation: chat_id+message_id *and* inline_message_id in one edit
(Telegram edits the chat message and ignores the other), editMessageText on an inline photo or
editMessageCaption on an inline text (the server edits whatever the message holds).

The fake fetches only loopback URLs (127.0.0.0/8, localhost, ::1): the tests serve pictures
there; any other URL is refused like one Telegram cannot fetch, as a violation.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import io
import ipaddress
import re
import ssl
import struct
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from PIL import Image, UnidentifiedImageError

from .methods import NOT_MODIFIED, QUERY_TOO_OLD, ApiError, _bad
from .world import ChatRec, FileRec, Message

__all__ = ["InlineMode", "InlineQueryRec", "MAX_INLINE_RESULTS", "INLINE_UPLOAD_REFUSED",
           "INLINE_ID_INVALID", "INLINE_MESSAGE_MISSING"]

MAX_INLINE_RESULTS = 50  # answerInlineQuery: "No more than 50 results per query are allowed"
MAX_RESULT_ID = 64  # bytes: "Unique identifier for this result, 1-64 bytes"
MAX_QUERY = 256  # characters: InlineQuery.query "(up to 256 characters)"
MAX_NEXT_OFFSET = 64  # bytes: "Offset length can't exceed 64 bytes"
MAX_URL_PHOTO = 5 * 1024 * 1024  # "Photo size must not exceed 5MB" (photos by URL)
FETCH_TIMEOUT = 5.0

INLINE_UPLOAD_REFUSED = "Bad Request: invalid message content specified"
INLINE_ID_INVALID = "Bad Request: invalid inline message identifier specified"
INLINE_MESSAGE_MISSING = "Bad Request: MESSAGE_ID_INVALID"
NO_MESSAGE_IDENTIFIER = "Bad Request: message identifier is not specified"
URL_UNFETCHABLE = "Bad Request: failed to get HTTP URL content"
URL_NOT_A_PICTURE = "Bad Request: wrong type of the web page content"
_BASE64URL_RE = re.compile(r"[A-Za-z0-9_-]*")
_START_PARAMETER_RE = re.compile(r"[A-Za-z0-9_-]+")
_FAKE_DC = 2  # the data centre the fake's inline message ids name


@dataclass
class InlineQueryRec:
    """One inline query: who typed what where, and the bot's accepted answer."""

    id: str
    user_id: int
    chat_key: int | str  # the chat it was typed in (see InlineMode._query_chat)
    thread: int | None  # the forum topic it was typed in
    query: str
    offset: str
    chat_type: str  # "sender", "private", "group", "supergroup" or "channel"
    asked_at: float  # time.monotonic()
    answer: dict | None = None  # the accepted answerInlineQuery parameters
    prepared: dict[str, dict] = field(default_factory=dict)  # result id -> what choosing posts
    answers: int = 0  # answerInlineQuery calls that reached the fake for this query
    refused_late: bool = False


class _Unfetchable(Exception):
    """A URL Telegram's servers could not fetch; ``bots_fault``: the URL itself is wrong."""

    def __init__(self, reason: str, *, bots_fault: bool):
        super().__init__(reason)
        self.bots_fault = bots_fault


class InlineMode:
    """Inline queries, results, inline messages and their edits (methods of FakeBotAPI)."""

    # ==== state and BotFather ===================================================================

    def _init_inline(self) -> None:
        """Called from FakeBotAPI.__init__."""
        self.inline_mode = False  # BotFather /setinline: getMe's supports_inline_queries
        self.inline_feedback = False  # BotFather /setinlinefeedback: chosen_inline_result updates
        # Seconds after a query when Telegram stops taking its answer; None: no limit. Telegram
        # documents no figure; bot authors report about 10 s.
        self.inline_answer_timeout: float | None = 10.0
        self._inline_queries: dict[str, InlineQueryRec] = {}
        self._inline_messages: dict[str, Message] = {}  # by inline_message_id
        self._url_photos: dict[tuple[str, str], FileRec] = {}  # (url, sha256) -> the photo fetched
        self._next_inline_number = 1

    def set_inline_mode(self, enabled: bool = True, *, feedback: bool = False) -> None:
        """BotFather's /setinline (getMe says supports_inline_queries; people's @bot queries reach
        the bot) and /setinlinefeedback (a chosen_inline_result update for each result chosen)."""
        with self._lock:
            self.inline_mode = enabled
            self.inline_feedback = feedback

    def _m_getMe(self, p: dict) -> dict:
        me = super()._m_getMe(p)
        me["supports_inline_queries"] = self.inline_mode
        return me

    # ==== the world: chats the bot is not in ====================================================

    def add_private_pair(self, user_a: int, user_b: int) -> str:
        """The private chat of two people (the bot is not in it); returns its key, which
        ``messages``, ``calls(chat_id=...)`` and ``chat_instance`` take. Either person may also
        name it by the other's user id in ``user_queries_inline``."""
        with self._lock:
            self._user(user_a)
            self._user(user_b)
            if user_a == user_b:
                raise ValueError("a private pair is two different people")
            key = _pair_key(user_a, user_b)
            if key not in self._chats:
                self._chats[key] = ChatRec(key, "private", self._chat_instance(),  # type: ignore[arg-type]
                                           bot_member=False, pair=tuple(sorted((user_a, user_b))))
            return key

    def add_chat_without_bot(self, chat_id: int, title: str, *, type: str = "supergroup",  # noqa: A002
                             is_forum: bool = False, creator: int | None = None,
                             admins: tuple[int, ...] | list[int] = ()) -> None:
        """A group, supergroup (a forum with is_forum) or channel the bot is not a member of:
        people write there and use the bot inline; the bot gets nothing from it but presses on
        its inline messages, and cannot send there. Every user is a member (``add_outsider``
        says otherwise); in a channel only its creator and admins post."""
        if type not in ("group", "supergroup", "channel"):
            raise ValueError("type must be 'group', 'supergroup' or 'channel'")
        if not isinstance(chat_id, int) or chat_id >= 0:
            raise ValueError("group and channel ids are negative integers")
        if is_forum and type != "supergroup":
            raise ValueError("only supergroups can be forums")
        with self._lock:
            if chat_id in self._chats:
                raise ValueError(f"chat {chat_id} exists already")
            self._chats[chat_id] = ChatRec(chat_id, type, self._chat_instance(), title=title,
                                           admins=set(admins), creator=creator, is_forum=is_forum,
                                           bot_member=False)

    def chat_instance(self, chat: int | str) -> str:
        """The chat_instance of a chat (an id, or a private pair's key): the same for everyone
        in the chat, carried by every callback query from a message there."""
        with self._lock:
            return self._world_chat(chat).chat_instance

    def _chat_for(self, chat_id: int | str, *, write: bool = True) -> ChatRec:
        chat = self._chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is not None and not chat.bot_member:
            # Telegram answers so for a chat the bot was never in; the bot never learns such an
            # id from an inline query, so having it at all is the bot's mistake.
            raise _bad("Bad Request: chat not found",
                       f"chat {chat_id} is a chat the bot is not a member of (only inline "
                       f"messages live there; edit them by inline_message_id)")
        return super()._chat_for(chat_id, write=write)

    def _chat_dict(self, chat: ChatRec) -> dict:
        if chat.pair is not None:  # it has no id the bot could know, and no Chat object for it
            raise ValueError(f"the bot never sees the private chat {chat.id}")
        return super()._chat_dict(chat)

    def _message_dict(self, m: Message, *, nested: bool = False) -> dict:
        d = super()._message_dict(m, nested=nested)
        if m.via_bot is not None:
            d["via_bot"] = dict(m.via_bot)
        return d

    # ==== acting as people ======================================================================

    def user_queries_inline(self, user_id: int, chat: int | str, query: str = "", *,
                            offset: str = "", message_thread_id: int | None = None) -> str | None:
        """The person types ``@bot <query>`` in a chat: ``chat`` is their own id (their chat
        with the bot: chat_type "sender"), another person's id or a private pair's key (their
        chat with that person: "private"), or a group, supergroup or channel id, with or
        without the bot. Returns the inline query id; None (and nothing reaches the bot) while
        the bot's inline mode is off, as Telegram's apps then offer nothing."""
        if len(query) > MAX_QUERY:
            raise ValueError(f"Telegram's apps send at most {MAX_QUERY} characters of a query")
        with self._lock:
            user = self._user(user_id)
            chat_rec, chat_type = self._query_chat(user_id, chat)
            if message_thread_id is not None and not chat_rec.is_forum:
                raise ValueError(f"chat {chat_rec.id} is not a forum: no topics")
            if not self.inline_mode:
                return None
            qid = str(self._rng.randrange(10**18, 10**19))
            while qid in self._inline_queries:
                qid = str(self._rng.randrange(10**18, 10**19))
            self._inline_queries[qid] = InlineQueryRec(
                qid, user_id, chat_rec.id, message_thread_id, query, offset, chat_type,
                asked_at=time.monotonic())
            self._enqueue("inline_query", {"id": qid, "from": user.to_dict(), "query": query,
                                           "offset": offset, "chat_type": chat_type})
            return qid

    def user_scrolls_results(self, query_id: str) -> str | None:
        """The person scrolls to the end of the answered results: the same query again with
        the answer's next_offset (a new inline query id); None when the answer had no
        next_offset (no more results)."""
        with self._lock:
            q = self._inline_query(query_id)
            if q.answer is None:
                raise ValueError(f"inline query {query_id} is not answered: nothing to scroll")
            offset = q.answer.get("next_offset", "")
            if not offset:
                return None
            chat = self._chats[q.chat_key]
            where: int | str = q.user_id if q.chat_type == "sender" else chat.id
            return self.user_queries_inline(q.user_id, where, q.query, offset=offset,
                                            message_thread_id=q.thread)

    def user_chooses_result(self, user_id: int, query_id: str, result_id: str) -> Message:
        """The person taps one of the bot's results: it is posted in the chat the query came
        from, from them "via" the bot, with its text or photo and keyboard. Telegram gives it an
        inline_message_id only when it has an inline keyboard. The bot hears of it by a
        chosen_inline_result update only with inline feedback on, and by a message update only
        in a chat it is in (its private chat with the person, its groups). Returns the message
        (live; ``inline_message(m.inline_message_id)`` finds it again)."""
        with self._lock:
            q = self._inline_query(query_id)
            if user_id != q.user_id:
                raise ValueError("only the person who typed the query sees its results")
            if q.answer is None:
                raise ValueError(f"inline query {query_id} has no answer: nothing to choose")
            content = q.prepared.get(result_id)
            if content is None:
                raise ValueError(f"no result {result_id!r} in the answer to {query_id}: "
                                 f"{list(q.prepared)}")
            chat = self._chats[q.chat_key]
            user = self._user(user_id)
            if chat.type == "channel":  # a post signed by the channel, not by its admin
                m = self._new_message(chat, from_bot=False, sender=None, thread=q.thread)
                m.sender_chat = self._chat_dict(chat)
            else:
                m = self._new_message(chat, from_bot=False, sender=user.to_dict(),
                                      thread=q.thread)
            m.via_bot = self._bot_user()
            if content["kind"] == "text":
                m.text, m.entities = content["text"], content["entities"]
                m.raw_text, m.parse_mode = content["raw"], content["parse_mode"]
            else:
                self._set_photo(m, content["photo"], content["caption"], content["entities"],
                                content["raw"], content["parse_mode"])
            m.reply_markup = content["markup"]
            if m.reply_markup is not None:
                m.inline_message_id = self._new_inline_message_id()
                self._inline_messages[m.inline_message_id] = m
            if chat.bot_member:
                kind = "channel_post" if chat.type == "channel" else "message"
                if kind == "channel_post" or self._bot_sees(chat, m):
                    self._enqueue(kind, self._message_dict(m))
            if self.inline_feedback:
                chosen: dict[str, Any] = {"result_id": result_id, "from": user.to_dict(),
                                          "query": q.query}
                if m.inline_message_id is not None:
                    chosen["inline_message_id"] = m.inline_message_id
                self._enqueue("chosen_inline_result", chosen)
            return m

    def user_presses_inline(self, user_id: int, inline_message_id: str,
                            data: str | None) -> str:
        """A press on an inline message's button: a callback query with inline_message_id and
        the chat's chat_instance, no message (any data is allowed, as in ``user_presses``).
        For an id the fake never issued this is the odd press of oddities.py (an unknown inline
        message, a chat_instance of its own). Returns the callback query id."""
        with self._lock:
            m = self._inline_messages.get(inline_message_id)
            if m is None:
                return super().user_presses_inline(user_id, inline_message_id, data)
            if m.deleted:
                raise ValueError(f"inline message {inline_message_id} was deleted")
            chat = self._chats[m.chat_id]
            user = self._user(user_id)
            self._check_in_chat(user_id, chat)
            qid = self._new_query(user_id, None, None, data)
            query: dict[str, Any] = {"id": qid, "from": user.to_dict(),
                                     "inline_message_id": inline_message_id,
                                     "chat_instance": chat.chat_instance}
            if data is not None:
                query["data"] = data
            self._enqueue("callback_query", query)
            return qid

    # ==== observing =============================================================================

    def inline_results(self, query_id: str) -> list[dict] | None:
        """The results of the bot's accepted answer to an inline query (as sent; None while
        unanswered)."""
        answer = self.inline_answer(query_id)
        return None if answer is None else list(answer["results"])

    def inline_answer(self, query_id: str) -> dict | None:
        """Every parameter of the accepted answerInlineQuery (cache_time, is_personal, button,
        next_offset...), None while unanswered."""
        with self._lock:
            q = self._inline_queries.get(query_id)
            return dict(q.answer) if q is not None and q.answer is not None else None

    def inline_query(self, query_id: str) -> InlineQueryRec:
        """The record of an inline query (who, where, what, the answer)."""
        with self._lock:
            return self._inline_query(query_id)

    def unanswered_inline_queries(self) -> list[str]:
        """Ids of inline queries the bot never answered (Telegram's apps show a spinner)."""
        with self._lock:
            return [q.id for q in self._inline_queries.values() if q.answer is None]

    def inline_message(self, inline_message_id: str, *,
                       include_deleted: bool = False) -> Message | None:
        """The message an inline_message_id names (live: its text, photo, keyboard, edits)."""
        with self._lock:
            m = self._inline_messages.get(inline_message_id)
            if m is None or (m.deleted and not include_deleted):
                return None
            return m

    def inline_messages(self, chat: int | str | None = None) -> list[Message]:
        """Every inline message not deleted (of one chat, if given), oldest first."""
        with self._lock:
            return [m for m in self._inline_messages.values()
                    if not m.deleted and (chat is None or m.chat_id == chat)]

    # ==== answerInlineQuery =====================================================================

    def _m_answerInlineQuery(self, p: dict) -> bool:
        if "button" in p:
            self._check_results_button(p["button"])
        results = p["results"]
        if len(results) > MAX_INLINE_RESULTS:
            raise _bad("Bad Request: too many inline query results specified",
                       f"{len(results)} inline results (max {MAX_INLINE_RESULTS})")
        prepared: dict[str, dict] = {}
        urls: dict[str, str] = {}  # result id -> photo_url to fetch
        for i, r in enumerate(results):
            rid = r["id"]
            size = len(rid.encode("utf-8"))
            if not 1 <= size <= MAX_RESULT_ID:
                raise _bad("Bad Request: RESULT_ID_INVALID",
                           f"results[{i}]: id {rid!r} is {size} bytes (1-{MAX_RESULT_ID})")
            if rid in prepared:
                raise _bad("Bad Request: RESULT_ID_DUPLICATE",
                           f"results[{i}]: id {rid!r} is used twice")
            prepared[rid] = self._prepare_result(r, f"results[{i}]")
            if prepared[rid]["kind"] == "photo_url":
                urls[rid] = prepared[rid]["url"]
        next_offset = p.get("next_offset", "")
        if len(next_offset.encode("utf-8")) > MAX_NEXT_OFFSET:
            raise _bad("Bad Request: NEXT_OFFSET_INVALID",
                       f"next_offset is {len(next_offset.encode('utf-8'))} bytes "
                       f"(max {MAX_NEXT_OFFSET})")
        for rid, url in urls.items():  # Telegram fetches a result's photo from its URL
            prepared[rid] = self._photo_result(prepared[rid], url)
        q = self._inline_queries.get(p["inline_query_id"])
        if q is None:
            raise _bad(QUERY_TOO_OLD, f"unknown inline query id {p['inline_query_id']!r}")
        q.answers += 1
        if q.answer is not None:
            if self._answer_was_hidden(q.id):  # a fault hid the first answer's reply: fair
                raise ApiError(400, QUERY_TOO_OLD)
            raise _bad(QUERY_TOO_OLD, f"inline query {q.id} answered twice (query {q.query!r})")
        timeout = self.inline_answer_timeout
        if q.refused_late or (timeout is not None and time.monotonic() - q.asked_at > timeout):
            q.refused_late = True  # Telegram's answer to a slow bot, not a violation
            raise ApiError(400, QUERY_TOO_OLD)
        q.answer = dict(p)
        q.prepared = prepared
        return True

    def _answer_was_hidden(self, query_id: str) -> bool:
        """Whether the accepted answer to this query reached the bot's side unseen (fault mode
        dropped or held its reply), so that trying again is what a careful bot does."""
        return any(r.method == "answerInlineQuery" and r.ok and r.fault in ("slow", "drop")
                   and r.params.get("inline_query_id") == query_id for r in self.requests)

    def _check_results_button(self, button: dict) -> None:
        kinds = [k for k in ("start_parameter", "web_app") if k in button]
        if len(kinds) != 1:
            raise _bad("Bad Request: can't parse inline query results button: "
                       "InlineQueryResultsButton must have exactly one optional field",
                       f"the results button has {kinds or 'neither start_parameter nor web_app'}")
        if "web_app" in button:
            self._check_markup({"inline_keyboard": [[{"text": button["text"],
                                                      "web_app": button["web_app"]}]]})
            return
        start = button["start_parameter"]
        if not start:
            raise _bad("Bad Request: can't use empty start_parameter")
        if len(start) > 64:
            raise _bad("Bad Request: too long start_parameter specified",
                       f"start_parameter is {len(start)} characters (max 64)")
        if not _START_PARAMETER_RE.fullmatch(start):
            raise _bad("Bad Request: unallowed characters in start_parameter are used",
                       f"start_parameter {start!r}: only A-Z, a-z, 0-9, _ and - are allowed")

    def _prepare_result(self, r: dict, where: str) -> dict:
        """What choosing result ``r`` posts (checked now, as Telegram checks the answer)."""
        kind = r["type"]
        # An inline message lives outside the bot's private chat: no web_app buttons there.
        markup = self._check_markup(r.get("reply_markup"), "inline")
        content = r.get("input_message_content")
        if kind == "article":
            if not r["title"]:
                raise _bad("Bad Request: ARTICLE_TITLE_EMPTY", f"{where}: empty title")
            return {**self._text_content(content, where), "markup": markup}
        if kind != "photo":
            raise _bad(f"Bad Request: inline results of type {kind!r} are not supported by "
                       f"the fake (article and photo only)")
        if "photo_file_id" in r:
            photo = self._known_photo(r["photo_file_id"], f"{where}.photo_file_id")
            url = None
        else:
            photo, url = None, r["photo_url"]
            if not url:
                raise _bad("Bad Request: PHOTO_CONTENT_URL_EMPTY", f"{where}: empty photo_url")
            if not r["thumbnail_url"]:
                raise _bad("Bad Request: PHOTO_THUMB_URL_EMPTY", f"{where}: empty thumbnail_url")
            if not re.match(r"https?://", url):
                raise _bad("Bad Request: WEBDOCUMENT_URL_INVALID",
                           f"{where}: photo_url {url!r} is not an http(s) URL")
        if content is not None:  # the photo is only the result's picture; this is sent
            return {**self._text_content(content, where), "markup": markup}
        caption, entities = self._format(r.get("caption"), r.get("parse_mode"),
                                         r.get("caption_entities"), what="caption")
        base = {"caption": caption, "entities": entities if caption else [],
                "raw": r.get("caption"), "parse_mode": r.get("parse_mode"), "markup": markup}
        if url is not None:
            return {**base, "kind": "photo_url", "url": url, "where": where}
        return {**base, "kind": "photo", "photo": photo}

    def _text_content(self, content: dict, where: str) -> dict:
        if "message_text" not in content:
            raise _bad("Bad Request: only InputTextMessageContent is supported by the fake",
                       f"{where}: input_message_content {sorted(content)}")
        text, entities = self._format(content["message_text"], content.get("parse_mode"),
                                      content.get("entities"), what="text")
        return {"kind": "text", "text": text, "entities": entities,
                "raw": content["message_text"], "parse_mode": content.get("parse_mode")}

    def _photo_result(self, prepared: dict, url: str) -> dict:
        """A photo result by URL, fetched: "Photo must be in JPEG format", at most 5 MB."""
        where = prepared["where"]
        try:
            data = self._fetch_for_telegram(url)
        except _Unfetchable as exc:
            raise ApiError(400, "Bad Request: WEBDOCUMENT_INVALID",
                           violation=f"{where}: photo_url {url!r}: {exc}"
                           if exc.bots_fault else None) from None
        if not data.startswith(b"\xff\xd8"):
            raise _bad("Bad Request: PHOTO_CONTENT_TYPE_INVALID",
                       f"{where}: photo_url {url!r} is not a JPEG")
        return {**prepared, "kind": "photo", "photo": self._url_photo(url, data)}

    def _known_photo(self, file_id: str, where: str) -> FileRec:
        rec = self._files.get(file_id)
        if rec is None:
            raise _bad("Bad Request: wrong file identifier/HTTP URL specified",
                       f"{where}: unknown file_id {file_id!r}")
        if rec.format not in ("PNG", "JPEG"):
            raise _bad("Bad Request: type of file mismatch",
                       f"{where}: file_id {file_id!r} is a {rec.format}, not a photo")
        return rec

    # ==== edits by inline_message_id ============================================================

    def _m_editMessageText(self, p: dict) -> Any:
        if not self._edits_inline(p):
            return super()._m_editMessageText(p)
        text, entities = self._format(p["text"], p.get("parse_mode"), p.get("entities"),
                                      what="text")
        markup = self._check_markup(p.get("reply_markup"), "inline")
        m = self._inline_target(p)
        if m.text is None:
            raise _bad("Bad Request: there is no text in the message to edit",
                       f"editMessageText on inline message {p['inline_message_id']}, a photo "
                       f"(Telegram's server would set its caption: edit it with "
                       f"editMessageCaption)")
        self._set_text(m, text, entities, markup, p)
        return self._inline_edited(m)

    def _m_editMessageCaption(self, p: dict) -> Any:
        if not self._edits_inline(p):
            return super()._m_editMessageCaption(p)
        caption, entities = self._format(p.get("caption"), p.get("parse_mode"),
                                         p.get("caption_entities"), what="caption")
        markup = self._check_markup(p.get("reply_markup"), "inline")
        m = self._inline_target(p)
        if m.photo is None:
            raise _bad("Bad Request: there is no caption in the message to edit",
                       f"editMessageCaption on inline message {p['inline_message_id']}, a text "
                       f"(Telegram's server would replace its text: edit it with "
                       f"editMessageText)")
        self._set_caption(m, caption, entities, markup, p)
        return self._inline_edited(m)

    def _m_editMessageMedia(self, p: dict) -> Any:
        if not self._edits_inline(p):
            return super()._m_editMessageMedia(p)
        media = p["media"]
        if media.get("type") != "photo":
            raise _bad("Bad Request: MEDIA_INVALID",
                       f"editMessageMedia with {media.get('type')!r} media is not supported by "
                       f"the fake (photo only)")
        caption, entities = self._format(media.get("caption"), media.get("parse_mode"),
                                         media.get("caption_entities"), what="caption")
        markup = self._check_markup(p.get("reply_markup"), "inline")
        imid = p["inline_message_id"]
        _parse_inline_message_id(imid)
        source = media["media"]
        if isinstance(source, bytes):
            raise _bad(INLINE_UPLOAD_REFUSED,
                       f"editMessageMedia of inline message {imid} uploads a file ("
                       f"{len(source)} bytes): an inline message's new media must be a file_id "
                       f"of a file already on Telegram or an http(s) URL")
        if re.match(r"https?://", source, re.IGNORECASE):
            rec = self._url_media(source)
        else:
            rec = self._known_photo(source, "media.media")
        m = self._inline_target(p)  # after the fetch: the message may have gone meanwhile
        new_caption = caption or None
        new_entities = entities if caption else []
        if (m.photo is not None and self._files.get(m.photo_file_id) is rec
                and m.caption == new_caption and m.caption_entities == new_entities
                and m.reply_markup == markup):
            raise ApiError(400, NOT_MODIFIED)
        # "or to add media to text messages": a text inline message becomes a photo
        m.text, m.entities, m.raw_text = None, [], None
        self._set_photo(m, rec, caption, entities, media.get("caption"), media.get("parse_mode"))
        m.reply_markup = markup
        return self._inline_edited(m)

    def _m_editMessageReplyMarkup(self, p: dict) -> Any:
        if not self._edits_inline(p):
            return super()._m_editMessageReplyMarkup(p)
        markup = self._check_markup(p.get("reply_markup"), "inline")
        m = self._inline_target(p)
        if m.reply_markup == markup:
            raise ApiError(400, NOT_MODIFIED)
        m.reply_markup = markup
        return self._inline_edited(m)

    def _edits_inline(self, p: dict) -> bool:
        """Whether an edit names an inline message: Telegram takes the inline path exactly when
        chat_id and message_id are both missing (Client.cpp), then needs inline_message_id."""
        by_chat = "chat_id" in p or "message_id" in p
        if "inline_message_id" not in p:
            if by_chat:
                return False
            raise _bad(NO_MESSAGE_IDENTIFIER,
                       "the edit names neither chat_id+message_id nor inline_message_id")
        if by_chat:
            raise _bad("Bad Request: give chat_id and message_id or inline_message_id, not both",
                       "the edit names chat_id/message_id and inline_message_id: Telegram "
                       "would edit the chat message and ignore inline_message_id")
        return True

    def _inline_target(self, p: dict) -> Message:
        imid = p["inline_message_id"]
        _parse_inline_message_id(imid)
        m = self._inline_messages.get(imid)
        if m is None or m.deleted:
            # Not a violation: the people in the chat may have deleted it, or the id is an old
            # one; a bot must cope with this answer.
            raise ApiError(400, INLINE_MESSAGE_MISSING)
        return m

    def _inline_edited(self, m: Message) -> bool:
        m.edits += 1
        m.edit_date = int(time.time())
        return True  # "if the edited message is not an inline message ... otherwise True"

    def _inline_chat_of(self, params: dict) -> int | str | None:
        """The chat of the inline message a request names (Request.inline_chat), so that an
        inline edit counts against the chat it lives in, as Telegram counts it."""
        imid = params.get("inline_message_id")
        if not isinstance(imid, str):
            return None
        with self._lock:
            m = self._inline_messages.get(imid)
            return None if m is None else m.chat_id

    # ==== fetching URLs as Telegram's servers do ================================================

    def _url_media(self, url: str) -> FileRec:
        """The photo at a URL, for editMessageMedia (Telegram's words for a URL it cannot
        fetch, or that holds no picture)."""
        try:
            data = self._fetch_for_telegram(url)
        except _Unfetchable as exc:
            raise ApiError(400, URL_UNFETCHABLE,
                           violation=f"media {url!r}: {exc}" if exc.bots_fault else None) from None
        try:
            with Image.open(io.BytesIO(data)) as im:
                im.verify()
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
            raise _bad(URL_NOT_A_PICTURE, f"media {url!r} is not a picture: {exc}") from None
        return self._url_photo(url, data)

    def _url_photo(self, url: str, data: bytes) -> FileRec:
        """The photo fetched from a URL: the same bytes from the same URL are the same photo
        (Telegram keeps what it fetched), so editing to it again is "not modified"."""
        key = (url, hashlib.sha256(data).hexdigest())
        rec = self._url_photos.get(key)
        if rec is None:
            rec = self._url_photos[key] = self._photo(data)
        return rec

    def _fetch_for_telegram(self, url: str) -> bytes:
        """GET a URL as Telegram's servers would, with the world lock released meanwhile (the
        URL may be served by the bot's own server, which may be waiting on this fake, or by
        this fake's file path). Only loopback hosts: the tests serve there, and a test never
        reaches the internet."""
        parts = urlsplit(url)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            raise _Unfetchable("not an http(s) URL", bots_fault=True)
        if not _is_loopback(parts.hostname):
            raise _Unfetchable(f"the fake fetches only loopback URLs, not {parts.hostname!r}",
                               bots_fault=True)
        handlers: list[Any] = [urllib.request.ProxyHandler({})]
        if parts.scheme.lower() == "https":  # a test's own certificate on 127.0.0.1
            handlers.append(urllib.request.HTTPSHandler(context=ssl._create_unverified_context()))
        opener = urllib.request.build_opener(*handlers)
        with self._lock_released():
            try:
                with opener.open(url, timeout=FETCH_TIMEOUT) as response:
                    data = response.read(MAX_URL_PHOTO + 1)
            except (urllib.error.URLError, OSError, ValueError) as exc:
                # the bot's server down or answering 404: Telegram's plain refusal, which a bot
                # must cope with (not a violation)
                raise _Unfetchable(f"fetching it failed: {exc}", bots_fault=False) from None
        if len(data) > MAX_URL_PHOTO:
            raise _Unfetchable(f"over {MAX_URL_PHOTO} bytes, Telegram's limit for photos by URL",
                               bots_fault=True)
        return data

    @contextlib.contextmanager
    def _lock_released(self):
        """Let go of the world lock that the method handler holds (taken once by _dispatch)."""
        self._lock.release()
        try:
            yield
        finally:
            self._lock.acquire()

    # ==== helpers (lock held) ===================================================================

    def _inline_query(self, query_id: str) -> InlineQueryRec:
        q = self._inline_queries.get(query_id)
        if q is None:
            raise ValueError(f"no inline query {query_id!r}")
        return q

    def _query_chat(self, user_id: int, chat: int | str) -> tuple[ChatRec, str]:
        """The chat an inline query is typed in, and its chat_type."""
        if chat == user_id:
            if not self._users[user_id].opened:
                raise ValueError(f"user {user_id} never opened the chat with the bot")
            return self._chats[user_id], "sender"
        if isinstance(chat, int) and chat > 0:
            self._user(chat)
            key = _pair_key(user_id, chat)
            if key not in self._chats:
                raise ValueError(f"no private chat of {user_id} and {chat}: add_private_pair "
                                 f"first")
            return self._chats[key], "private"
        rec = self._world_chat(chat)
        self._check_in_chat(user_id, rec)
        if rec.type == "private":
            return rec, "private"
        if rec.type == "channel" and user_id != rec.creator and user_id not in rec.admins:
            raise ValueError(f"user {user_id} cannot post in channel {rec.id}")
        return rec, rec.type

    def _check_in_chat(self, user_id: int, chat: ChatRec) -> None:
        if chat.pair is not None:
            inside = user_id in chat.pair
        elif chat.type == "private":
            inside = user_id == chat.id
        else:
            inside = user_id not in chat.outsiders
        if not inside:
            raise ValueError(f"user {user_id} is not in chat {chat.id}")

    def _new_inline_message_id(self) -> str:
        """An opaque id of Telegram's shape: base64url of an inputBotInlineMessageID64 (DC,
        owner, message number, access hash; 24 bytes, 32 characters)."""
        number = self._next_inline_number
        self._next_inline_number += 1
        raw = struct.pack("<iqiq", _FAKE_DC, self.bot_id, number,
                          self._rng.randrange(-(2**63), 2**63))
        return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _pair_key(user_a: int, user_b: int) -> str:
    low, high = sorted((user_a, user_b))
    return f"private:{low}:{high}"


def _parse_inline_message_id(value: str) -> None:
    """Refuse what TDLib cannot read as an inline message id: base64url of 20 bytes
    (inputBotInlineMessageID) or 24 (inputBotInlineMessageID64) whose DC is valid."""
    ok = False
    if _BASE64URL_RE.fullmatch(value) and len(value) % 4 != 1:
        try:
            raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) in (20, 24):
            dc = struct.unpack_from("<i", raw)[0]
            ok = 1 <= dc <= 1000  # td's DcId::is_valid
    if not ok:
        raise _bad(INLINE_ID_INVALID, f"{value!r} is not an inline message id Telegram issues")


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
