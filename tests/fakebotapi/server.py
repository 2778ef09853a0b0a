"""A strict fake Telegram Bot API server for end-to-end tests of tablebot.

The real python-telegram-bot client talks HTTP to it (`base_url=fake.base_url`). The fake keeps a
small world (users, groups, private chats, messages, callback queries), lets tests act as people
(`user_sends`, `user_presses`, ...), records every request, and validates every request against the
Bot API 10.0 spec in api.json plus Telegram's documented limits. Anything the real Telegram would
reject, or that only works by accident, is answered with a Telegram-shaped 400 and recorded in
`violations`; behaviours a correct bot must cope with (403 from a blocked user, "message is not
modified", migrated groups, injected 429s) are answered the same way but are not violations.

    fake = FakeBotAPI(); fake.start()
    fake.add_user(1, "Anna"); fake.add_group(-100123, "Game night", creator=1)
    app = ApplicationBuilder().token(fake.token).base_url(fake.base_url)
                              .base_file_url(fake.base_file_url).build()
    ... fake.user_sends(1, -100123, "/new lucky"); await fake.settle() ...
    stop the Application before fake.stop()

Telegram behaviours worth knowing when writing tests against it:
- editMessageText/Caption/Media without reply_markup remove the inline keyboard (as on Telegram).
- Privacy mode (default on): plain group messages reach the bot only if they are commands
  (/cmd or /cmd@this_bot), replies to the bot, @mentions, or the bot is an admin of the group.
- PTB's TelegramError lower-cases the description after "Bad Request: " (str.capitalize), so
  match errors case-insensitively: pytest.raises(BadRequest, match="(?i)message is not modified").
- Text and caption lengths are counted in UTF-16 code units after entity parsing and trimming.

A hostile and unlucky world (see faults.py and oddities.py):
- ``set_faults(rate=0.1, seed=1)``: a share of requests fail with 429, 500, a slow answer or a
  dropped connection; ``faults`` records each one and whether the call was performed anyway.
- ``set_down(True)`` / ``start(down=True)`` / ``up_after(10)``: Telegram unreachable.
- ``inject_update(raw)`` and helpers for odd updates (channel posts, anonymous admins, presses
  on lost or inline messages, mutated callback data).
- ``callback_stats()`` / ``answer_latencies()``: how often and how late each press was answered;
  answers later than ``callback_answer_timeout`` (15 s) are refused like Telegram does.
- ``set_latency(0.3, under_load=0.004)``: a slow Telegram, slower still the more requests it
  serves at once (see latency.py).
- ``FakeBotAPI(flood_limit=20)`` / ``set_group_limit(20)``: a group's writes, edits included,
  at most 20 in any minute (``flood_window``); ``bot_limit=60`` / ``set_bot_limit(60)``: at
  most 60 writes a second for the whole bot, a limit the bot is not told (paid broadcasts
  aside). Beyond either, 429 with retry_after, and the chat is held until then (limits.py).
  ``floods_by_kind()``: the 429s given, by kind (``group``, ``bot``, ``held``: a write before
  its chat's retry_after passed, ``fault``, ``injected``).
- ``poll_overlaps``: every getUpdates that came while another connection's was still waiting
  (two bot instances polling at once). Like Telegram, the newer poll ends the older one with
  409 "Conflict: terminated by other getUpdates request". A poll whose client hung up (a bot
  killed mid-poll) ends when the fake notices (within 0.1 s) and overlaps nothing.

Inline mode (see inline.py for Telegram's refusals and where their words come from):
- ``set_inline_mode(True, feedback=True)``: BotFather's /setinline (getMe's
  supports_inline_queries; off: no inline query reaches the bot) and /setinlinefeedback
  (chosen_inline_result updates).
- ``add_private_pair(a, b)`` -> key: two people's own chat; ``add_chat_without_bot(chat_id,
  title, type=, is_forum=)``: a group, forum or channel the bot is not in. The bot cannot send
  there ("chat not found", a violation) but edits its inline messages there;
  ``chat_instance(chat)`` is the same for everyone in a chat.
- ``user_queries_inline(user_id, chat, query, offset=, message_thread_id=)`` -> query id: an
  inline_query update with chat_type "sender" (chat = the user's own id), "private" (another
  person's id or a pair's key), "group", "supergroup" or "channel".
  ``user_scrolls_results(query_id)``: the same query with the answer's next_offset.
- ``inline_results(query_id)`` / ``inline_answer(query_id)``: the accepted answerInlineQuery;
  ``unanswered_inline_queries()``; answers later than ``inline_answer_timeout`` (10 s) are
  refused as "query is too old".
- ``user_chooses_result(user_id, query_id, result_id)`` -> Message: posted "via" the bot in the
  query's chat (``inline_message_id`` only with an inline keyboard).
  ``inline_message(inline_message_id)`` and ``inline_messages(chat)`` read them (``edits``
  counts the bot's edits); ``user_presses_inline(user_id, inline_message_id, data)`` presses
  one (``user_presses`` on an inline message does the same).
- Edits by inline_message_id answer ``true``; one that uploads a file is refused with
  "invalid message content specified"; a media URL is fetched (loopback hosts only). Each such
  request's ``chat_id`` (``Request.inline_chat``) is the chat the message lives in, so
  ``calls(chat_id=...)`` and ``writes_per_minute`` count inline edits where Telegram does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import select
import socket
import sys
import threading
import time
import traceback
from collections import deque
from email.message import Message as _MimeHeader
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable
import urllib.error
import urllib.request
from urllib.parse import parse_qsl, unquote, urlsplit

from .faults import DEFAULT_KINDS, FaultPlan, draw_fault
from .inline import InlineMode
from .latency import Latency
from .limits import Limits, most_within
from .methods import (
    _COMMAND_RE,
    PTB_DEFAULTS_EXTRA,
    ApiError,
    TelegramMethods,
    _is_write,
)
from .oddities import OddUpdates, command_entities
from .spec import DEFAULT_SPEC_PATH, Upload, load_spec
from .world import (CallbackStats, ChatRec, Fault, FileRec, Message, PollOverlap, QueryRec, Request,
                    UserRec)

__all__ = ["FakeBotAPI", "ApiError"]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # Telegram takes any number of new connections at once; socketserver's backlog of 5 dropped
    # the rest of a burst (200 presses answered at the same moment), whose clients then waited
    # a whole second to connect again.
    request_queue_size = 1024
    fake: "FakeBotAPI"

    def handle_error(self, request, client_address) -> None:
        """A client that hangs up (a bot killed or stopped mid-request) is part of the world,
        not an error of the server: only other exceptions are printed."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.server.fake._track_connection(self.connection, open_=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.fake._track_connection(self.connection, open_=False)

    def do_POST(self) -> None:  # noqa: N802 - http.server naming
        self.server.fake._serve(self)

    do_GET = do_POST

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


class FakeBotAPI(InlineMode, OddUpdates, TelegramMethods):
    """A strict, in-process Telegram Bot API server (see the module docstring)."""

    def __init__(self, *, token: str = "123456:TEST-token", bot_id: int = 123456,
                 bot_username: str = "tablebot_test_bot",
                 spec_path: str | Path = DEFAULT_SPEC_PATH, seed: int = 0,
                 bot_first_name: str = "TableBot", privacy_mode: bool = True,
                 flood_limit: int | None = None, flood_window: float = 60.0, bot_limit: int | None = None,
                 callback_answer_timeout: float | None = 15.0):
        """privacy_mode: like a bot with the default privacy mode, the bot does not receive plain
        group messages (only commands, replies to its messages, @mentions, service messages;
        everything when it is a group admin). flood_limit: if set, a write to a group (edits
        too) beyond this many in the trailing ``flood_window`` seconds fails with 429 and
        retry_after (Telegram's flood control; about 20 a minute is the documented figure).
        bot_limit: writes a second for the whole bot (see ``set_bot_limit``).
        callback_answer_timeout: seconds after a press when Telegram stops taking its answer
        ("query is too old"); None: no limit."""
        self.token = token
        self.callback_answer_timeout = callback_answer_timeout
        self.privacy_mode = privacy_mode
        self._limits = Limits(group=flood_limit, group_window=flood_window, bot=bot_limit)
        self.bot_id = bot_id
        self.bot_username = bot_username
        self.bot_first_name = bot_first_name
        self.spec = load_spec(spec_path)
        self.requests: list[Request] = []
        self.violations: list[str] = []
        self.base_url = ""
        self.base_file_url = ""
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        self._rng = random.Random(seed)
        self._users: dict[int, UserRec] = {}
        self._chats: dict[int, ChatRec] = {}
        self._updates: list[dict] = []
        self._next_update_id = 500_000_001
        self._queries: dict[str, QueryRec] = {}
        self._init_inline()  # inline mode's world (inline.py)
        self._files: dict[str, FileRec] = {}
        self._file_paths: dict[str, FileRec] = {}
        self._commands: dict[tuple[str, str], list[dict]] = {}
        self._profile: dict[tuple[str, str], str] = {}  # (name|description|..., lang) -> text
        self._webhook: dict[str, Any] | None = None
        # Where webhook deliveries go: the registered HTTPS URL's path appended to this local
        # http:// base, as the TLS-terminating proxy in front of a deployed bot would do.
        self.webhook_proxy: str | None = None
        self.webhook_deliveries: list[tuple[int, int]] = []  # (update_id, HTTP status)
        self._delivery: threading.Thread | None = None
        self._allowed_updates: list[str] | None = None
        self._injections: list[dict] = []
        self._forced_dice: deque[int] = deque()
        self._inflight = 0
        self._last_activity = time.monotonic()
        self._poll_generation = 0
        self.poll_overlaps: list[PollOverlap] = []
        self._pollers: dict[socket.socket, str] = {}  # the connections of the polls waiting now
        self._local = threading.local()  # the connection of the request this thread serves
        self._stopping = False
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._port = 0
        self._connections: set[socket.socket] = set()
        self._down: str | None = None  # None (up), "refuse" or "502" (see set_down)
        self._up_timer: threading.Timer | None = None
        self.faults: list[Fault] = []
        self._fault_plan: FaultPlan | None = None
        self._fault_rng = random.Random(0)
        self._latency = Latency()
        # Set while the fake stops or is down: a slowed request's wait ends early. (Not the
        # world's condition: every change of the world would wake every slowed request.)
        self._cut_short = threading.Event()
        self._serving = 0  # the bot's requests being served now (polls aside), for Latency.under_load

    # ==== lifecycle =============================================================================

    def start(self, *, down: bool = False) -> None:
        """Bind 127.0.0.1 on a free port and serve in a daemon thread. With down=True the port
        is reserved (base_url is known) but refuses connections until ``set_down(False)`` or
        ``up_after(seconds)``: a bot started now meets a Telegram that comes up late."""
        self._stopping = False
        self._cut_short.clear()
        self._server = self._bind(0)
        self._port = self._server.server_address[1]
        self.base_url = f"http://127.0.0.1:{self._port}/bot"
        self.base_file_url = f"http://127.0.0.1:{self._port}/file/bot"
        self._down = "refuse" if down else None
        if not down:
            self._listen()
        self._delivery = threading.Thread(target=self._deliver_webhooks, name="fakebotapi-webhook",
                                          daemon=True)
        self._delivery.start()

    def _deliver_webhooks(self) -> None:
        """While a webhook is set (and ``webhook_proxy`` says where it lives), POST each update to
        it in order, as Telegram does, retrying until the bot answers 2xx."""
        while True:
            with self._cond:
                while not self._stopping and (self._down or not (
                        self._webhook and self.webhook_proxy and self._updates)):
                    self._cond.wait(0.5)
                if self._stopping:
                    return
                update = self._updates[0]
                self._note_delivered([update])
                hook = dict(self._webhook)
                target = self.webhook_proxy.rstrip("/") + urlsplit(hook["url"]).path
            headers = {"Content-Type": "application/json"}
            if hook.get("secret_token"):
                headers["X-Telegram-Bot-Api-Secret-Token"] = hook["secret_token"]
            request = urllib.request.Request(target, data=json.dumps(update).encode(), headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    status = response.status
            except urllib.error.HTTPError as exc:
                status = exc.code
            except OSError:
                status = 0  # nobody listening yet
            with self._cond:
                self.webhook_deliveries.append((update["update_id"], status))
                if 200 <= status < 300 and self._updates and self._updates[0] is update:
                    self._updates.pop(0)
                    self._last_activity = time.monotonic()
                    self._cond.notify_all()
            if not 200 <= status < 300:
                time.sleep(0.2)

    def stop(self) -> None:
        """Stop serving; waiting long polls return at once."""
        if self._up_timer is not None:
            self._up_timer.cancel()
            self._up_timer = None
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        self._cut_short.set()
        if self._server is not None:
            if self._thread is not None:
                self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self._delivery is not None:
            self._delivery.join(timeout=6)
            self._delivery = None

    def _bind(self, port: int) -> _Server:
        """A server bound to 127.0.0.1:port that does not listen yet (connections are refused
        while the port stays ours)."""
        server = _Server(("127.0.0.1", port), _Handler, bind_and_activate=False)
        server.fake = self
        try:
            server.server_bind()
        except OSError:
            server.server_close()
            raise
        return server

    def _listen(self) -> None:
        self._server.server_activate()
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
            name="fakebotapi", daemon=True,
        )
        self._thread.start()

    def _unlisten(self) -> None:
        """Stop accepting and cut every open connection, as when the server process dies; the
        port stays bound (not listening), so new connections are refused."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
        self._thread = None
        self._server = self._bind(self._port)
        with self._lock:
            open_connections = list(self._connections)
        for sock in open_connections:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _track_connection(self, sock: socket.socket, *, open_: bool) -> None:
        with self._lock:
            if open_:
                self._connections.add(sock)
            else:
                self._connections.discard(sock)

    def set_down(self, down: bool = True, *, how: str = "refuse") -> None:
        """Make Telegram unreachable (down=True) or bring it back (down=False).

        how="refuse": the port stops listening and open connections are cut: new requests get
        "connection refused" (PTB: NetworkError "httpx.ConnectError: All connection attempts
        failed"), requests in flight, long polls included, see the connection closed
        (NetworkError "httpx.RemoteProtocolError: Server disconnected ..." or "ReadError").
        how="502": the port stays open and every request gets nginx's HTML "502 Bad Gateway"
        page, as api.telegram.org does when its back ends are down (PTB: NetworkError "Bad
        Gateway (502). Parsing the server response ... failed"). Nothing is recorded in
        ``requests`` while down: the requests never reach Telegram."""
        if how not in ("refuse", "502"):
            raise ValueError("how is 'refuse' or '502'")
        if self._stopping:
            return  # an up_after timer that fired while the fake stops
        if self._server is None:
            raise RuntimeError("start() the fake first")
        with self._cond:
            self._down = how if down else None
            self._cond.notify_all()  # long polls end (and are cut)
        if down:
            self._cut_short.set()
        else:
            self._cut_short.clear()
        listening = self._thread is not None
        if self._down == "refuse" and listening:
            self._unlisten()
        elif self._down != "refuse" and not listening:
            self._listen()
        with self._cond:
            self._last_activity = time.monotonic()
            self._cond.notify_all()

    def up_after(self, seconds: float) -> None:
        """Bring the API up ``seconds`` from now (from a timer thread), for start-up tests that
        block in the bot's start while Telegram is unreachable."""
        if self._up_timer is not None:
            self._up_timer.cancel()
        self._up_timer = threading.Timer(seconds, self.set_down, args=(False,))
        self._up_timer.daemon = True
        self._up_timer.start()

    @property
    def is_down(self) -> bool:
        return self._down is not None

    def __enter__(self) -> "FakeBotAPI":
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # ==== the world =============================================================================

    def add_user(self, user_id: int, first_name: str, *, last_name: str | None = None,
                 username: str | None = None, language_code: str | None = "en",
                 opened_private: bool = True) -> dict:
        """Create (or replace) a user; returns the User object."""
        if not isinstance(user_id, int) or user_id <= 0:
            raise ValueError("user ids are positive integers")
        with self._lock:
            user = UserRec(user_id, first_name, last_name, username, language_code,
                           opened=opened_private)
            self._users[user_id] = user
            if user_id not in self._chats:
                self._chats[user_id] = ChatRec(user_id, "private", self._chat_instance())
            return user.to_dict()

    def add_group(self, chat_id: int, title: str, *, admins: tuple[int, ...] | list[int] = (),
                  creator: int | None = None, type: str = "supergroup",  # noqa: A002
                  is_forum: bool = False) -> dict:
        """Create a group the bot is a member of; admins/creator are user ids (the bot's id in
        admins makes the bot an administrator). Returns the Chat object."""
        if type not in ("group", "supergroup"):
            raise ValueError("type must be 'group' or 'supergroup'")
        if not isinstance(chat_id, int) or chat_id >= 0:
            raise ValueError("group chat ids are negative integers")
        if is_forum and type != "supergroup":
            raise ValueError("only supergroups can be forums")
        with self._lock:
            chat = ChatRec(chat_id, type, self._chat_instance(), title=title,
                           admins=set(admins), creator=creator, is_forum=is_forum)
            self._chats[chat_id] = chat
            return self._chat_dict(chat)

    def add_outsider(self, chat_id: int, user_id: int) -> None:
        """A user who is not a member of the group (getChatMember says "left"); by default every
        user is a member of every group."""
        with self._lock:
            self._world_chat(chat_id).outsiders.add(user_id)

    def set_next_dice(self, *values: int) -> None:
        """Force the values of the next sendDice answers (otherwise a seeded random)."""
        with self._lock:
            self._forced_dice.extend(values)

    # ==== acting as people ======================================================================

    def user_sends(self, user_id: int, chat_id: int, text: str, *,
                   message_thread_id: int | None = None, reply_to: int | None = None) -> dict:
        """A user writes a text message (optionally replying to message `reply_to`); returns
        the Message dict. It is enqueued as an update unless privacy mode hides it from the bot
        (a plain group message that is not a command, a reply to the bot or an @mention)."""
        with self._lock:
            user = self._user(user_id)
            chat = self._world_chat(chat_id)
            if chat.type == "private":
                if chat.id != user_id:
                    raise ValueError("a user can only write in their own private chat")
                self._open_private(user)
            if reply_to is not None and reply_to not in chat.messages:
                raise ValueError(f"no message {reply_to} in chat {chat_id} to reply to")
            m = self._new_message(chat, from_bot=False, sender=user.to_dict(),
                                  thread=message_thread_id)
            m.text = text
            m.reply_to_message_id = reply_to
            m.entities = command_entities(text)
            msg = self._message_dict(m)
            if self._bot_sees(chat, m):
                self._enqueue("message", msg)
            return msg

    def _bot_sees(self, chat: ChatRec, m: Message) -> bool:
        """Whether a user's message reaches a bot in privacy mode (Telegram's bots FAQ)."""
        if chat.bot_kicked or not chat.bot_member:
            return False
        if m.via_bot is not None and m.via_bot.get("id") == self.bot_id:
            return True  # the FAQ's "messages sent via this bot" (inline mode, inline.py)
        if not self.privacy_mode or chat.type == "private" or self._bot_is_admin(chat):
            return True
        text = m.text or ""
        cmd = _COMMAND_RE.match(text)
        if cmd:
            target = cmd.group(0).partition("@")[2]
            return not target or target.lower() == self.bot_username.lower()
        if f"@{self.bot_username.lower()}" in text.lower():
            return True
        target = chat.messages.get(m.reply_to_message_id) if m.reply_to_message_id else None
        return bool(target and target.from_bot)

    def user_presses(self, user_id: int, chat_id: int, message_id: int, data: str) -> str:
        """A user presses an inline button with `data` on a message (any data is allowed, to
        model stale or forged presses); returns the callback query id."""
        with self._lock:
            user = self._user(user_id)
            chat = self._world_chat(chat_id)
            m = chat.messages.get(message_id)
            if m is None or m.deleted:
                raise ValueError(f"no message {message_id} in chat {chat_id} to press on")
            if m.inline_message_id is not None:  # Telegram's press names it by that id
                return self.user_presses_inline(user_id, m.inline_message_id, data)
            if chat.type == "private" and chat.id != user_id:
                raise ValueError("a user can only press buttons in their own private chat")
            qid = self._new_query(user_id, chat_id, message_id, data)
            query = {
                "id": qid,
                "from": user.to_dict(),
                "message": self._message_dict(m),
                "chat_instance": chat.chat_instance,
                "data": data,
            }
            self._enqueue("callback_query", query)
            return qid

    def user_starts_private(self, user_id: int, payload: str | None = None) -> dict:
        """The user presses START in the private chat (optionally from a deep link)."""
        text = "/start" if payload is None else f"/start {payload}"
        return self.user_sends(user_id, user_id, text)

    def user_blocks_bot(self, user_id: int) -> None:
        """From now on writes to this user fail with 403 until they write to the bot again."""
        with self._lock:
            user = self._user(user_id)
            if user.blocked:
                return
            user.blocked = True
            self._enqueue("my_chat_member", self._member_update(
                user, {"status": "member", "user": self._bot_user()},
                {"status": "kicked", "user": self._bot_user(), "until_date": 0}))

    def user_deletes_message(self, chat_id: int, message_id: int) -> None:
        """A user (or an admin) deletes a message; bots get no update about it."""
        with self._lock:
            m = self._world_chat(chat_id).messages.get(message_id)
            if m is None:
                raise ValueError(f"no message {message_id} in chat {chat_id}")
            m.deleted = True

    def remove_bot_from_group(self, chat_id: int, *, by_user_id: int | None = None) -> None:
        """An admin removes the bot: a my_chat_member update, then every request to the chat
        fails with 403 "Forbidden: bot was kicked from the ... chat"."""
        with self._lock:
            chat = self._world_chat(chat_id)
            if chat.type == "private":
                raise ValueError("use user_blocks_bot for private chats")
            actor = self._users.get(by_user_id if by_user_id is not None else chat.creator)
            chat.bot_kicked = True
            self._enqueue("my_chat_member", {
                "chat": self._chat_dict(chat),
                "from": actor.to_dict() if actor else self._bot_user(),
                "date": int(time.time()),
                "old_chat_member": self._member(chat, self.bot_id),
                "new_chat_member": {"status": "kicked", "user": self._bot_user(),
                                    "until_date": 0},
            })

    def migrate_group(self, old_chat_id: int, new_chat_id: int) -> None:
        """The group becomes a supergroup with a new id (service messages in both chats)."""
        with self._lock:
            old = self._world_chat(old_chat_id)
            if old.type != "group":
                raise ValueError("only a basic group migrates to a supergroup")
            if new_chat_id in self._chats or new_chat_id >= 0:
                raise ValueError("the new chat id must be a fresh negative id")
            new = ChatRec(new_chat_id, "supergroup", self._chat_instance(), title=old.title,
                          admins=set(old.admins), creator=old.creator)
            self._chats[new_chat_id] = new
            actor = self._users.get(old.creator) if old.creator is not None else None
            sender = actor.to_dict() if actor else None
            m_old = self._new_message(old, from_bot=False, sender=sender)
            m_old.service = {"migrate_to_chat_id": new_chat_id}
            m_new = self._new_message(new, from_bot=False, sender=sender)
            m_new.service = {"migrate_from_chat_id": old_chat_id}
            self._enqueue("message", self._message_dict(m_old))
            self._enqueue("message", self._message_dict(m_new))
            old.migrated_to = new_chat_id

    # ==== observing =============================================================================

    def calls(self, method: str | None = None, chat_id: int | None = None) -> list[Request]:
        """Recorded requests, optionally only of one method and/or one chat."""
        with self._lock:
            return [
                r for r in self.requests
                if (method is None or r.method == method)
                and (chat_id is None or r.chat_id == chat_id)
            ]

    def messages(self, chat_id: int) -> list[Message]:
        """The chat's messages that are not deleted, oldest first (live objects)."""
        with self._lock:
            chat = self._chats.get(chat_id)
            if chat is None:
                return []
            return [m for m in chat.messages.values() if not m.deleted]

    def message(self, chat_id: int, message_id: int, *,
                include_deleted: bool = False) -> Message | None:
        with self._lock:
            chat = self._chats.get(chat_id)
            m = chat.messages.get(message_id) if chat else None
            if m is None or (m.deleted and not include_deleted):
                return None
            return m

    def last_bot_message(self, chat_id: int) -> Message | None:
        for m in reversed(self.messages(chat_id)):
            if m.from_bot:
                return m
        return None

    def callback_answer(self, query_id: str) -> dict | None:
        """The parameters of the answerCallbackQuery for this query, None if unanswered."""
        with self._lock:
            q = self._queries.get(query_id)
            return dict(q.answer) if q and q.answer is not None else None

    def unanswered_callbacks(self) -> list[str]:
        """Ids of callback queries the bot never answered (a correct bot answers every one)."""
        with self._lock:
            return [q.id for q in self._queries.values() if q.answer is None]

    def callback_stats(self) -> list[CallbackStats]:
        """Every callback query in press order: when it was pressed and first handed to the
        bot, each answerCallbackQuery the fake performed (0, 1, 2+), whether Telegram would
        have taken the answer and whether it came too late."""
        with self._lock:
            return [CallbackStats(q.id, q.user_id, q.chat_id, q.data, q.pressed_at,
                                  q.delivered_at, tuple(q.answer_times),
                                  accepted=q.answer is not None, late=q.refused_late)
                    for q in self._queries.values()]

    def answer_latencies(self) -> list[float]:
        """Seconds from handing each press to the bot to its first answer, in press order (a
        cheap press->answer benchmark; presses not delivered or not answered are left out)."""
        return [s.latency for s in self.callback_stats() if s.latency is not None]

    def _new_query(self, user_id: int, chat_id: int | None, message_id: int | None,
                   data: str | None, qid: str | None = None) -> str:
        """Register a callback query (call with the lock held); returns its id. A generated
        id never repeats a known one (an injected raw query may have taken it)."""
        if qid is None:
            qid = str(self._rng.randrange(10**17, 10**18))
            while qid in self._queries:
                qid = str(self._rng.randrange(10**17, 10**18))
        self._queries[qid] = QueryRec(qid, user_id, chat_id, message_id, data,
                                      pressed_at=time.monotonic())
        return qid

    def _note_delivered(self, updates: list[dict]) -> None:
        """Stamp the first delivery of each callback query (lock held)."""
        now = time.monotonic()
        for update in updates:
            query = update.get("callback_query")
            q = self._queries.get(query.get("id")) if isinstance(query, dict) else None
            if q is not None and q.delivered_at is None:
                q.delivered_at = now

    def commands(self, scope: dict | None = None, language_code: str = "") -> list[dict]:
        """The commands stored by setMyCommands for a scope and language."""
        with self._lock:
            return list(self._commands.get((self._scope_key(scope), language_code), []))

    def profile(self, key: str, language_code: str = "") -> str | None:
        """What setMyName/setMyDescription/setMyShortDescription stored ("name",
        "description", "short_description")."""
        with self._lock:
            return self._profile.get((key, language_code))

    def is_blocked(self, user_id: int) -> bool:
        with self._lock:
            return self._user(user_id).blocked

    def pending_updates(self) -> int:
        """Updates not yet confirmed by a getUpdates offset."""
        with self._lock:
            return len(self._updates)

    def writes_per_minute(self, chat_id: int, *, include_failed: bool = False, window: float = 60.0) -> int:
        """Most send/edit/delete requests to the chat within any ``window`` seconds."""
        with self._lock:
            times = sorted(
                r.time for r in self.requests
                if r.chat_id == chat_id and _is_write(r.method) and (r.ok or include_failed)
            )
        return most_within(times, window)

    def set_group_limit(self, writes: int | None, *, window: float = 60.0) -> None:
        """From now on at most ``writes`` writes (edits included) into one group in any ``window``
        seconds (None: no limit); beyond it, 429 with retry_after (kind ``group``)."""
        with self._lock:
            self._limits.group, self._limits.group_window = writes, window

    def set_bot_limit(self, per_second: int | None) -> None:

        """From now on at most ``per_second`` writes a second for the whole bot (None: no limit),
        a limit the bot is not told: beyond it, 429 with retry_after (kind ``bot``). Writes sent
        with allow_paid_broadcast are outside it (at most 1,000 a second of those)."""
        with self._lock:
            self._limits.bot = per_second

    def floods_by_kind(self) -> dict[str, int]:
        """The 429s the fake gave, by kind: ``group`` (a group's writes a minute), ``bot`` (the
        whole bot's a second), ``paid``, ``held`` (before a chat's retry_after had passed),
        ``fault`` (fault mode), ``injected`` (fail_next)."""
        counts: dict[str, int] = {}
        with self._lock:
            for r in self.requests:
                if r.error_code == 429:
                    counts[r.flood or "other"] = counts.get(r.flood or "other", 0) + 1
        return counts

    def writes_per_minute_by_chat(self) -> dict[int | str, int]:
        """``writes_per_minute`` of every chat written to, in one pass over the requests."""
        times: dict[int | str, list[float]] = {}
        with self._lock:
            for r in self.requests:
                if r.ok and r.chat_id is not None and _is_write(r.method):
                    times.setdefault(r.chat_id, []).append(r.time)
        return {chat: most_within(sorted(ts), 60.0) for chat, ts in times.items()}

    def check(self) -> None:
        """AssertionError listing the violations, if any."""
        with self._lock:
            if self.violations:
                raise AssertionError("Bot API violations:\n  " + "\n  ".join(self.violations))

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0,
                       interval: float = 0.02) -> Any:
        """Poll predicate() until it returns something truthy (which is returned)."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() >= deadline:
                raise AssertionError(
                    f"wait_for timed out after {timeout}s; last requests: {self.requests[-5:]}"
                )
            await asyncio.sleep(interval)

    async def settle(self, quiet: float = 0.25, timeout: float = 15.0) -> None:
        """Wait until every update was fetched and confirmed and the bot made no request other
        than getUpdates for `quiet` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                pending = len(self._updates)
                inflight = self._inflight
                idle = time.monotonic() - self._last_activity
            if pending == 0 and inflight == 0 and idle >= quiet:
                return
            if time.monotonic() >= deadline:
                raise AssertionError(
                    f"settle timed out after {timeout}s: {pending} unconfirmed updates, "
                    f"{inflight} requests in flight; last requests: {self.requests[-5:]}"
                )
            await asyncio.sleep(min(0.02, quiet / 4 if quiet > 0 else 0.02))

    # ==== failure injection =====================================================================

    def fail_next(self, method: str, *, error_code: int, description: str,
                  retry_after: int | None = None, migrate_to_chat_id: int | None = None,
                  count: int = 1, chat_id: int | None = None) -> None:
        """The next `count` requests to `method` (to `chat_id` if given) fail like this."""
        canonical = self.spec.canonical_method(method)
        if canonical is None:
            raise ValueError(f"no Bot API method {method!r}")
        parameters = {}
        if retry_after is not None:
            parameters["retry_after"] = retry_after
        if migrate_to_chat_id is not None:
            parameters["migrate_to_chat_id"] = migrate_to_chat_id
        with self._lock:
            self._injections.append({
                "method": canonical, "chat_id": chat_id, "count": count,
                "error": (error_code, description, parameters or None),
            })

    def set_faults(self, rate: float = 0.1, kinds: tuple[str, ...] = DEFAULT_KINDS, *,
                   seed: int = 0, methods: set[str] | None = None,
                   exclude: set[str] | frozenset[str] = frozenset({"getUpdates"}),
                   retry_after: int = 1, slow_seconds: float = 6.0) -> None:
        """Fault mode: from now on a `rate` share of the bot's requests fail (see faults.py for
        what each kind looks like). methods: only these (Bot API names); exclude: never these
        (getUpdates by default, so updates keep flowing). rate=0 turns fault mode off; the
        record in `faults` stays."""
        plan = FaultPlan(rate, tuple(kinds), None if methods is None else frozenset(methods),
                         frozenset(exclude), retry_after, slow_seconds)
        for name in (plan.methods or set()) | plan.exclude:
            if self.spec.canonical_method(name) != name:
                raise ValueError(f"no Bot API method {name!r}")
        with self._lock:
            self._fault_plan = plan if rate > 0 else None
            self._fault_rng = random.Random(seed)

    def set_latency(self, seconds: float = 0.0, *, under_load: float = 0.0, polls: bool = False) -> None:
        """A slow Telegram from now on: every request takes ``seconds`` more (half before it is
        performed, half before its answer leaves), plus ``under_load`` seconds for every other
        request being served when it arrives; long polls too only with ``polls`` (latency.py).
        ``set_latency(0)``: as fast as it can again."""
        latency = Latency(seconds, under_load, polls)
        with self._lock:
            self._latency = latency

    def clear_faults(self) -> None:
        """Fault mode off and every chat's 429 wait forgotten (the record in `faults` stays)."""
        with self._lock:
            self._fault_plan = None
            self._limits.clear_holds()

    def faults_by_kind(self) -> dict[str, int]:
        """How many faults of each kind happened ("429" counts chat holds too)."""
        counts: dict[str, int] = {}
        with self._lock:
            for fault in self.faults:
                counts[fault.kind] = counts.get(fault.kind, 0) + 1
        return counts

    def _strike(self, method: str, params: dict, now: float, req: Request) -> str | None:
        """Draw this request's fault (lock held): raises the 429 or 500, returns "drop_before",
        or marks the request "slow"/"drop" to be performed and then hidden; None: no fault."""
        plan = self._fault_plan
        kind = draw_fault(plan, self._fault_rng, method) if plan else None
        if kind is None:
            return None
        chat_id = params.get("chat_id")
        if kind == "429":
            wait = plan.retry_after
            if chat_id is not None:
                self._limits.hold(chat_id, now + wait)
            req.flood = "fault"
            self._record_fault(req, "429", applied=False, retry_after=wait)
            raise _too_many_requests(wait)
        if kind == "500":
            self._record_fault(req, "500", applied=False)
            raise ApiError(500, "Internal Server Error")
        if kind == "drop_before":
            req.description = "connection dropped before the call"
            self._record_fault(req, "drop", applied=False)
            return kind
        req.fault = "slow" if kind == "slow" else "drop"
        if kind == "slow":
            req.held_for = plan.slow_seconds
        return kind

    def _record_fault(self, req: Request, kind: str, *, applied: bool,
                      retry_after: int | None = None, held: bool = False) -> None:
        req.fault = kind
        self.faults.append(Fault(req.method, kind, applied, req.chat_id, req.time,
                                 retry_after=retry_after, held=held, request=req))

    def _note_hidden_answer(self, req: Request) -> None:
        """After a performed call whose answer fault mode delays or drops: record the fault
        with whether the call took effect."""
        if req.fault not in ("slow", "drop"):
            return
        with self._lock:
            self._record_fault(req, req.fault, applied=req.ok)
            if req.ok and req.method == "answerCallbackQuery":
                q = self._queries.get(req.params.get("callback_query_id"))
                if q is not None:
                    q.answer_unseen = True

    # ==== HTTP ==================================================================================

    @contextlib.contextmanager
    def _poller(self):
        """Around one getUpdates (lock held): record it if another connection's poll is waiting;
        yields a function that tells whether this poll's client hung up."""
        me = getattr(self._local, "connection", None)
        if me is None:  # not over HTTP
            yield lambda: False
            return
        try:
            client = "%s:%s" % me.getpeername()[:2]
        except OSError:  # gone already
            client = "?"
        others = tuple(peer for sock, peer in self._pollers.items() if sock is not me and not _hung_up(sock))
        if others:
            self.poll_overlaps.append(PollOverlap(time.monotonic(), client, others))
        self._pollers[me] = client
        try:
            yield lambda: _hung_up(me)
        finally:
            self._pollers.pop(me, None)

    def _serve(self, h: BaseHTTPRequestHandler) -> None:
        self._local.connection = h.connection
        if self._down == "refuse":  # a kept-alive connection to a server that went away
            h.close_connection = True
            return
        try:
            body = _read_body(h)
        except (ValueError, OSError):
            h.close_connection = True
            return
        if self._down == "refuse":  # cut off while the body was arriving
            h.close_connection = True
            return
        if self._down == "502":
            _respond_bad_gateway(h)
            return
        url = urlsplit(h.path)
        path = unquote(url.path)
        file_prefix = f"/file/bot{self.token}/"
        if path.startswith("/file/bot"):
            rec = None
            if path.startswith(file_prefix):
                with self._lock:
                    rec = self._file_paths.get(path[len(file_prefix):])
            if rec is None:
                _respond(h, 404, {"ok": False, "error_code": 404, "description": "Not Found"})
            else:
                _respond_raw(h, 200, rec.content, f"image/{rec.format.lower()}")
            return
        m = re.fullmatch(r"/bot([^/]*)/([^/]*)", path)
        if not m:
            with self._lock:
                self.violations.append(f"request to an unknown path {path!r}")
            _respond(h, 404, {"ok": False, "error_code": 404, "description": "Not Found"})
            return
        token, method = m.group(1), m.group(2)
        if token != self.token:
            with self._lock:
                self.violations.append(f"{method}: wrong bot token {token!r}")
            _respond(h, 401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
            return
        raw: dict[str, Any] = {}
        uploads: dict[str, Upload] = {}
        problems: list[str] = []
        json_body = False
        try:
            for k, v in parse_qsl(url.query, keep_blank_values=True):
                _put(raw, k, v, problems)
            ctype = h.headers.get("Content-Type", "")
            mime = ctype.split(";")[0].strip().lower()
            if body and mime == "application/json":
                json_body = True
                data = json.loads(body.decode("utf-8"))
                if not isinstance(data, dict):
                    raise ValueError("the JSON body is not an object")
                for k, v in data.items():
                    _put(raw, k, v, problems)
            elif body and mime == "application/x-www-form-urlencoded":
                for k, v in parse_qsl(body.decode("utf-8"), keep_blank_values=True):
                    _put(raw, k, v, problems)
            elif body and mime == "multipart/form-data":
                for part in _parse_multipart(body, ctype):
                    if part.filename is not None:
                        uploads[part.name] = part
                        _put(raw, part.name, part, problems)
                    else:
                        _put(raw, part.name, part.content.decode("utf-8"), problems)
            elif body:
                raise ValueError(f"unsupported Content-Type {ctype!r}")
        except (ValueError, UnicodeDecodeError) as exc:
            problems.append(f"can't parse the request body: {exc}")
        delay = self._arrive(method)
        try:
            if delay:  # on the way in: the call is performed when it arrives
                self._linger(delay / 2)
            status, payload, req = self._dispatch(method, raw, uploads, json_body, problems)
            if delay:  # and its answer on the way back
                self._linger(delay / 2)
            self._answer(h, status, payload, req)
        finally:
            self._leave(method)

    def _linger(self, seconds: float) -> None:
        """A slowed request on its way (less if the fake stops or goes down); it counts as in
        flight meanwhile, so that settle() waits for it."""
        with self._lock:
            self._inflight += 1
        try:
            self._cut_short.wait(seconds)
        finally:
            with self._lock:
                self._inflight -= 1
                self._last_activity = time.monotonic()

    def _arrive(self, method: str) -> float:
        """Count a request as served from now on; how long it is delayed (see latency.py)."""
        with self._lock:
            delay = self._latency.of(method, self._serving)
            if method.lower() != "getupdates":
                self._serving += 1
            return delay

    def _leave(self, method: str) -> None:
        if method.lower() != "getupdates":
            with self._lock:
                self._serving -= 1

    def _answer(self, h: BaseHTTPRequestHandler, status: int, payload: dict,
                req: Request) -> None:
        """Send the answer, unless a fault (slow, drop) or an outage swallows it."""
        if req.fault == "slow":
            self._wait_slow(req.held_for)
        if req.fault == "drop" or self._down == "refuse":
            h.close_connection = True  # closed without a status line
            return
        if self._down == "502":
            _respond_bad_gateway(h)
            return
        _respond(h, status, payload)

    def _wait_slow(self, seconds: float) -> None:
        """Hold a slow answer (less if the fake stops or goes down); the request counts as in
        flight meanwhile, so settle() waits for it."""
        with self._cond:
            self._inflight += 1
            try:
                self._cond.wait_for(lambda: self._stopping or self._down is not None, seconds)
            finally:
                self._inflight -= 1
                self._last_activity = time.monotonic()

    def _dispatch(self, method: str, raw: dict[str, Any], uploads: dict[str, Upload],
                  json_body: bool, problems: list[str]) -> tuple[int, dict, Request]:
        """Perform one request; returns (status, payload, the recorded Request). Its `fault`
        says whether fault mode delays ("slow") or swallows ("drop") the answer."""
        is_poll = method.lower() == "getupdates"
        now = time.monotonic()
        shown = {k: (v.content if isinstance(v, Upload) else v) for k, v in raw.items()}
        req = Request(method=method, params=shown, time=now)
        with self._lock:
            self.requests.append(req)
            if not is_poll:
                self._inflight += 1
                self._last_activity = now
        try:
            canonical = self.spec.canonical_method(method)
            if canonical is None:
                raise ApiError(404, "Not Found", violation=f"unknown method {method!r}")
            req.method = canonical
            fields = self.spec.method_fields(canonical)
            for name in PTB_DEFAULTS_EXTRA & raw.keys():
                if name not in fields:  # see PTB_DEFAULTS_EXTRA
                    del raw[name]
                    req.ignored.append(name)
            params, errors = self.spec.decode_request(canonical, raw, uploads,
                                                      json_body=json_body)
            errors = problems + errors
            if errors:
                raise ApiError(400, f"Bad Request: {errors[0]}",
                               violation=f"{canonical}: " + "; ".join(errors))
            req.params = params
            req.inline_chat = self._inline_chat_of(params)  # where an inline edit counts
            handler = getattr(self, "_m_" + canonical, None)
            with self._lock:
                self._take_injection(canonical, params, req)
                self._flood_control(canonical, params, now, req)
                if self._strike(canonical, params, now, req) == "drop_before":
                    return 0, {}, req
                if handler is None:
                    raise ApiError(
                        400, f"Bad Request: method {canonical} is not implemented by the fake",
                        violation=f"unimplemented method {canonical}")
                result = handler(params)
                if _is_write(canonical) and req.chat_id is not None:  # (an inline edit: its message's chat)
                    self._limits.wrote(req.chat_id, now, paid=params.get("allow_paid_broadcast") is True)
            bugs = self.spec.check_value(result, self.spec.returns(canonical), "result")
            if bugs:
                with self._lock:
                    self.violations.append(f"fake Bot API bug in {canonical}: {'; '.join(bugs)}")
            req.ok = True
            req.result = result
            self._note_hidden_answer(req)
            return 200, {"ok": True, "result": result}, req
        except ApiError as err:
            req.ok = False
            req.error_code = err.code
            req.description = err.description
            req.parameters = err.parameters
            req.injected = err.injected
            if err.violation:
                req.violation = err.violation
                text = err.violation
                if not text.startswith(("unknown method", "unimplemented method",
                                        f"{req.method}:")):
                    text = f"{req.method}: {text}"
                with self._lock:
                    self.violations.append(text)
            payload = {"ok": False, "error_code": err.code, "description": err.description}
            if err.parameters:
                payload["parameters"] = err.parameters
            self._note_hidden_answer(req)
            return err.code, payload, req
        except Exception:  # a bug in the fake itself: make it loud, keep serving
            trace = traceback.format_exc()
            req.ok = False
            req.error_code = 500
            req.description = "Internal Server Error"
            with self._lock:
                self.violations.append(f"fake Bot API bug: {req.method} crashed:\n{trace}")
            return 500, {"ok": False, "error_code": 500,
                         "description": "Internal Server Error"}, req
        finally:
            if not is_poll:
                with self._lock:
                    self._inflight -= 1
                    self._last_activity = time.monotonic()

    def _take_injection(self, method: str, params: dict, req: Request) -> None:
        for inj in self._injections:
            if inj["method"] != method:
                continue
            if inj["chat_id"] is not None and params.get("chat_id") != inj["chat_id"]:
                continue
            inj["count"] -= 1
            if inj["count"] <= 0:
                self._injections.remove(inj)
            code, description, parameters = inj["error"]
            if code == 429:
                req.flood = "injected"
            raise ApiError(code, description, parameters=parameters, injected=True)

    def _flood_control(self, method: str, params: dict, now: float, req: Request) -> None:
        """429 for a write to a chat still waiting out a 429 (Telegram refuses until
        retry_after has passed), beyond its group's writes a minute or the whole bot's a
        second (limits.py)."""
        chat_id = req.chat_id  # its chat_id, or the chat of the inline message it edits
        if not _is_write(method) or chat_id is None:
            return
        refused = self._limits.refusal(chat_id, now, paid=params.get("allow_paid_broadcast") is True)
        if refused is None:
            return
        req.flood, wait = refused
        if req.flood == "held":
            self._record_fault(req, "429", applied=False, retry_after=wait, held=True)
        raise _too_many_requests(wait)



def _hung_up(sock: socket.socket) -> bool:
    """Whether the client closed this connection (or it broke): readable with nothing to read.
    A client waiting for its answer sends nothing, so the peek never takes a byte."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        return bool(readable) and sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except (OSError, ValueError):  # reset, or closed on our side
        return True


def _too_many_requests(wait: int) -> ApiError:
    return ApiError(429, f"Too Many Requests: retry after {wait}",
                    parameters={"retry_after": wait})

# ==== HTTP helpers ==============================================================================

def _put(raw: dict, key: str, value: Any, problems: list[str]) -> None:
    if key in raw:
        problems.append(f"parameter {key!r} given twice")
    raw[key] = value


def _read_body(h: BaseHTTPRequestHandler) -> bytes:
    if h.headers.get("Transfer-Encoding", "").lower() == "chunked":
        chunks = []
        while True:
            line = h.rfile.readline(65537)
            size = int(line.split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while h.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                    pass
                return b"".join(chunks)
            chunks.append(_read_exactly(h, size))
            h.rfile.readline(65537)
    length = int(h.headers.get("Content-Length") or 0)
    return _read_exactly(h, length) if length else b""


def _read_exactly(h: BaseHTTPRequestHandler, size: int) -> bytes:
    """A body cut short (the client hung up or was killed mid-request) is no request at all:
    a real server never acts on half of one."""
    data = h.rfile.read(size)
    if len(data) < size:
        raise ValueError("the connection closed in the middle of the body")
    return data


def _parse_multipart(body: bytes, content_type: str) -> list[Upload]:
    header = _MimeHeader()
    header["content-type"] = content_type
    boundary = header.get_param("boundary")
    if not boundary:
        raise ValueError("multipart body without boundary")
    delimiter = b"\r\n--" + str(boundary).encode("latin-1")
    chunks = (b"\r\n" + body).split(delimiter)
    parts = []
    for chunk in chunks[1:]:
        if chunk.startswith(b"--"):
            break
        if chunk.startswith(b"\r\n"):
            chunk = chunk[2:]
        head, sep, content = chunk.partition(b"\r\n\r\n")
        if not sep:
            raise ValueError("malformed multipart part")
        h = _MimeHeader()
        for line in head.decode("utf-8").split("\r\n"):
            if ":" in line:
                k, v = line.split(":", 1)
                h[k.strip()] = v.strip()
        name = h.get_param("name", header="content-disposition")
        if not name:
            raise ValueError("multipart part without a name")
        filename = h.get_filename()
        parts.append(Upload(str(name), filename if filename is None else str(filename), content,
                            h.get_content_type() if h.get("content-type") else None))
    return parts


_BAD_GATEWAY_PAGE = (b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
                     b"<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.18.0"
                     b"</center>\r\n</body>\r\n</html>\r\n")


def _respond_bad_gateway(h: BaseHTTPRequestHandler) -> None:
    """What api.telegram.org's nginx answers while the Bot API behind it is down."""
    _respond_raw(h, 502, _BAD_GATEWAY_PAGE, "text/html")


def _respond(h: BaseHTTPRequestHandler, status: int, payload: dict) -> None:
    _respond_raw(h, status, json.dumps(payload, ensure_ascii=False).encode("utf-8"),
                 "application/json")


def _respond_raw(h: BaseHTTPRequestHandler, status: int, data: bytes, ctype: str) -> None:
    try:
        h.send_response(status)
        h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)
        h.wfile.flush()
    except OSError:
        h.close_connection = True
