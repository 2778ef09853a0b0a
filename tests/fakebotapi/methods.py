"""What the Bot API methods do: Telegram's semantics and limits, on the fake's world.

`TelegramMethods` is mixed into FakeBotAPI (server.py). Each `_m_<method>(params)` runs with the
world lock held, gets parameters already decoded and type-checked against api.json, and returns
the result or raises ApiError. `_bad(...)` is an answer a correct bot never causes (a violation);
a plain ApiError is a Telegram behaviour the bot must cope with (403, not modified, ...).
"""

from __future__ import annotations

import io
import json
import re
import time
from typing import Any

from PIL import Image, UnidentifiedImageError

from .autolinks import auto_entities
from .htmlparse import HtmlError, parse_html, strip_entities_text, utf16_len
from .world import ChatRec, FileRec, Message, UserRec

__all__ = ["ApiError", "TelegramMethods"]

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_ANSWER_TEXT = 200
MAX_CALLBACK_DATA = 64
MAX_ROW = 8
MAX_BUTTONS = 100
MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_PHOTO_SIDES = 10000
MAX_PHOTO_RATIO = 20
MAX_ANIMATION_BYTES = 50 * 1024 * 1024  # sendAnimation: "animation files of up to 50 MB"

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
CHAT_ACTIONS = {
    "typing", "upload_photo", "record_video", "upload_video", "record_voice", "upload_voice",
    "upload_document", "choose_sticker", "find_location", "record_video_note",
    "upload_video_note",
}
DICE = {"🎲": 6, "🎯": 6, "🎳": 6, "🏀": 5, "⚽": 5, "🎰": 64}
# update types that getUpdates only delivers when allowed_updates names them
NOT_BY_DEFAULT = {"chat_member", "message_reaction", "message_reaction_count"}
# python-telegram-bot's ext.Defaults (parse_mode, link_preview_options, disable_notification,
# protect_content) are put into every request built by Bot._send_message, also into methods that
# do not take them (editMessageMedia, editMessageReplyMarkup, sendDice...). Telegram ignores
# unknown parameters, so the fake drops these few silently (listed in Request.ignored) instead of
# calling them violations; any other unknown parameter is a violation.
PTB_DEFAULTS_EXTRA = frozenset({"parse_mode", "link_preview_options", "disable_notification",
                                "protect_content"})
_COMMAND_RE = re.compile(r"(?<![\w/])/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![\w/])")
_BOT_COMMAND_RE = re.compile(r"[a-z0-9_]{1,32}")
_LANG_RE = re.compile(r"[a-z]{2}")
# Telegram takes only https:// for a Mini App; the tests serve it on a loopback address.
_WEB_APP_URL_RE = re.compile(r"(https://|http://(127\.0\.0\.1|localhost)[:/])\S+\Z")
_URL_BUTTON_RE = re.compile(r"(https?://[^\s]+|tg://[^\s]+)", re.IGNORECASE)


class ApiError(Exception):
    """An error answer: {"ok": false, "error_code", "description", "parameters"}."""

    def __init__(self, code: int, description: str, *, parameters: dict | None = None,
                 violation: str | None = None, injected: bool = False):
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters
        self.violation = violation
        self.injected = injected


def _bad(description: str, violation: str | None = None) -> ApiError:
    """A 400 that a correct bot never causes (recorded as a violation)."""
    return ApiError(400, description, violation=violation or description)


_WRITE_PREFIXES = ("send", "edit", "copyMessage", "forwardMessage")


def _is_write(method: str) -> bool:
    if method in ("deleteMessage", "deleteMessages"):
        return True
    return method.startswith(_WRITE_PREFIXES) and method != "sendChatAction"


class TelegramMethods:
    """The world helpers and Bot API method handlers of FakeBotAPI."""

    # ==== world helpers (call with the lock held) ===============================================

    def _chat_instance(self) -> str:
        return str(self._rng.randrange(-(2**62), 2**62))

    def _user(self, user_id: int) -> UserRec:
        user = self._users.get(user_id)
        if user is None:
            raise ValueError(f"unknown user {user_id}: call add_user first")
        return user

    def _world_chat(self, chat_id: int) -> ChatRec:
        chat = self._chats.get(chat_id)
        if chat is None:
            raise ValueError(f"unknown chat {chat_id}: call add_user/add_group first")
        if chat.migrated_to is not None:
            raise ValueError(f"chat {chat_id} migrated to {chat.migrated_to}")
        return chat

    def _open_private(self, user: UserRec) -> None:
        if user.blocked:
            user.blocked = False
            self._enqueue("my_chat_member", self._member_update(
                user, {"status": "kicked", "user": self._bot_user(), "until_date": 0},
                {"status": "member", "user": self._bot_user()}))
        user.opened = True

    def _member_update(self, user: UserRec, old: dict, new: dict) -> dict:
        return {
            "chat": self._chat_dict(self._chats[user.id]),
            "from": user.to_dict(),
            "date": int(time.time()),
            "old_chat_member": old,
            "new_chat_member": new,
        }

    def _enqueue(self, kind: str, payload: dict) -> None:
        update = {"update_id": self._next_update_id, kind: payload}
        self._next_update_id += 1
        bugs = self.spec.check_value(update, ["Update"], "update")
        if bugs:
            self.violations.append(f"fake Bot API bug in an update: {'; '.join(bugs)}")
        self._updates.append(update)
        self._last_activity = time.monotonic()
        self._cond.notify_all()

    def _bot_user(self) -> dict:
        return {"id": self.bot_id, "is_bot": True, "first_name": self.bot_first_name,
                "username": self.bot_username}

    def _chat_dict(self, chat: ChatRec) -> dict:
        if chat.type == "private":
            user = self._users[chat.id]
            d: dict[str, Any] = {"id": chat.id, "type": "private",
                                 "first_name": user.first_name}
            if user.last_name:
                d["last_name"] = user.last_name
            if user.username:
                d["username"] = user.username
            return d
        d = {"id": chat.id, "type": chat.type, "title": chat.title}
        if chat.is_forum:
            d["is_forum"] = True
        return d

    def _new_message(self, chat: ChatRec, *, from_bot: bool, sender: dict | None,
                     thread: int | None = None) -> Message:
        m = Message(chat_id=chat.id, message_id=chat.next_message_id, date=int(time.time()),
                    from_bot=from_bot, sender=sender, message_thread_id=thread)
        chat.next_message_id += 1
        chat.messages[m.message_id] = m
        return m

    def _message_dict(self, m: Message, *, nested: bool = False) -> dict:
        chat = self._chats[m.chat_id]
        d: dict[str, Any] = {"message_id": m.message_id}
        if m.message_thread_id is not None:
            d["message_thread_id"] = m.message_thread_id
        if m.sender is not None:
            d["from"] = m.sender
        if m.sender_chat is not None:
            d["sender_chat"] = m.sender_chat
        d["chat"] = self._chat_dict(chat)
        d["date"] = m.date
        if m.message_thread_id is not None and chat.is_forum:
            d["is_topic_message"] = True
        if m.reply_to_message_id is not None and not nested:
            target = chat.messages.get(m.reply_to_message_id)
            if target is not None and not target.deleted:
                d["reply_to_message"] = self._message_dict(target, nested=True)
        if m.edit_date is not None:
            d["edit_date"] = m.edit_date
        if m.text is not None:
            d["text"] = m.text
            if m.entities:
                d["entities"] = m.entities
        if m.photo is not None:
            d["photo"] = list(self._files[m.photo_file_id].sizes)
        if m.animation is not None:
            # Telegram fills both fields of an animation message (document for old clients).
            info = dict(self._files[m.animation_file_id].sizes[0])
            d["animation"] = info
            d["document"] = {k: info[k] for k in ("file_id", "file_unique_id", "file_name", "mime_type",
                                                  "file_size") if k in info}
        if (m.photo is not None or m.animation is not None) and m.caption:
            d["caption"] = m.caption
            if m.caption_entities:
                d["caption_entities"] = m.caption_entities
        if m.dice is not None:
            d["dice"] = dict(m.dice)
        if m.service:
            d.update(m.service)
        if m.reply_markup is not None:
            d["reply_markup"] = m.reply_markup
        return d

    def _chat_for(self, chat_id: int | str, *, write: bool = True) -> ChatRec:
        """The chat a request targets, raising what Telegram answers for it."""
        chat = self._chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        if chat.migrated_to is not None:
            raise ApiError(400, "Bad Request: group chat was upgraded to a supergroup chat",
                           parameters={"migrate_to_chat_id": chat.migrated_to})
        if chat.bot_kicked:
            kind = "supergroup chat" if chat.type == "supergroup" else "group chat"
            raise ApiError(403, f"Forbidden: bot was kicked from the {kind}")
        if chat.type == "private" and write:
            user = self._users[chat.id]
            if user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not user.opened:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat

    def _bot_is_admin(self, chat: ChatRec) -> bool:
        return chat.type == "private" or self.bot_id in chat.admins or chat.creator == self.bot_id

    # ---- content checks ------------------------------------------------------------------------

    def _format(self, text: str | None, parse_mode: str | None, entities: list | None, *,
                what: str) -> tuple[str, list[dict]]:
        """Parse text/caption like Telegram: returns (plain text, entities), checks lengths."""
        text = text or ""
        if parse_mode:
            if parse_mode.lower() != "html":
                if parse_mode in ("Markdown", "MarkdownV2"):
                    raise _bad(f"Bad Request: parse_mode {parse_mode} is not supported by the "
                               f"fake (use HTML)")
                raise _bad(f"Bad Request: unsupported parse_mode {parse_mode!r}")
            try:
                plain, ents = parse_html(text)
            except HtmlError as exc:
                raise _bad(f"Bad Request: can't parse entities: {exc}") from None
        else:
            plain, ents = text, [dict(e) for e in (entities or [])]
            total = utf16_len(plain)
            for e in ents:
                if e["offset"] < 0 or e["length"] <= 0 or e["offset"] + e["length"] > total:
                    raise _bad(f"Bad Request: can't parse entities: entity {e} is out of the "
                               f"text ({total} UTF-16 code units)")
        plain, ents = strip_entities_text(plain, ents)
        ents = sorted(ents + auto_entities(plain, ents), key=lambda e: (e["offset"], -e["length"]))
        resolved = []
        for e in ents:
            if e.get("type") == "text_mention" and "user_id" in e:
                user = self._users.get(e.pop("user_id"))
                if user is None:
                    continue
                e["user"] = user.to_dict()
            resolved.append(e)
        n = utf16_len(plain)
        if what == "text":
            if n == 0:
                raise _bad("Bad Request: message text is empty")
            if n > MAX_TEXT:
                raise _bad("Bad Request: message is too long",
                           f"message text is {n} characters after entity parsing (max {MAX_TEXT})")
        elif n > MAX_CAPTION:
            raise _bad("Bad Request: message caption is too long",
                       f"caption is {n} characters after entity parsing (max {MAX_CAPTION})")
        return plain, resolved

    def _check_markup(self, markup: dict | None, chat_id: Any = None) -> dict | None:
        """Telegram's limits on reply markup; returns the inline keyboard to store (or None).
        ``chat_id``: where it goes (web_app buttons work only in private chats)."""
        if markup is None:
            return None
        if "inline_keyboard" not in markup:
            rows = markup.get("keyboard")
            if rows is not None:
                for row in rows:
                    for b in row:
                        if not b.get("text", "").strip():
                            raise _bad("Bad Request: keyboard button text must be non-empty")
            return None  # reply keyboards are not part of the message
        rows = markup["inline_keyboard"]
        total = 0
        for r, row in enumerate(rows):
            if len(row) > MAX_ROW:
                raise _bad("Bad Request: BUTTON_TYPE_INVALID",
                           f"inline keyboard row {r} has {len(row)} buttons (max {MAX_ROW})")
            for b in row:
                total += 1
                where = f"button {b.get('text')!r} in row {r}"
                if not b.get("text", "").strip():
                    raise _bad("Bad Request: can't parse inline keyboard button: text must be "
                               "non-empty", f"{where}: empty button text")
                kinds = [k for k in b if k not in ("text", "icon_custom_emoji_id", "style")]
                if not kinds:
                    raise _bad("Bad Request: can't parse inline keyboard button: Text buttons "
                               "are unallowed in the inline keyboard", f"{where}: no action")
                if len(kinds) > 1:
                    raise _bad("Bad Request: can't parse inline keyboard button: exactly one "
                               "of the optional fields must be used",
                               f"{where}: several actions {kinds}")
                if "style" in b and b["style"] not in ("danger", "success", "primary"):
                    raise _bad("Bad Request: BUTTON_STYLE_INVALID", f"{where}: bad style")
                if "callback_data" in b:
                    size = len(b["callback_data"].encode("utf-8"))
                    if not 1 <= size <= MAX_CALLBACK_DATA:
                        raise _bad("Bad Request: BUTTON_DATA_INVALID",
                                   f"{where}: callback_data {b['callback_data']!r} is {size} "
                                   f"bytes (1-{MAX_CALLBACK_DATA} allowed)")
                if "url" in b and not _URL_BUTTON_RE.fullmatch(b["url"]):
                    raise _bad("Bad Request: BUTTON_URL_INVALID",
                               f"{where}: url {b['url']!r} is not http(s):// or tg://")
                if "web_app" in b:
                    url = str((b["web_app"] or {}).get("url", ""))
                    if not _WEB_APP_URL_RE.match(url):
                        raise _bad("Bad Request: BUTTON_URL_INVALID", f"{where}: web_app url {url!r} is not https://")
                    if chat_id is not None and not str(chat_id).isdigit():
                        raise _bad("Bad Request: BUTTON_TYPE_INVALID",
                                   f"{where}: web_app buttons only work in private chats")
                if "pay" in b or "callback_game" in b:
                    raise _bad("Bad Request: BUTTON_TYPE_INVALID",
                               f"{where}: pay/callback_game buttons need an invoice or a game")
        if total > MAX_BUTTONS:
            raise _bad("Bad Request: reply markup is too long",
                       f"inline keyboard has {total} buttons (max {MAX_BUTTONS})")
        return markup if total else None

    def _photo(self, value: bytes | str) -> FileRec:
        """An uploaded photo (validated) or a known file_id."""
        if isinstance(value, str):
            rec = self._files.get(value)
            if rec is not None:
                return rec
            if re.match(r"https?://", value):
                raise _bad("Bad Request: wrong file identifier/HTTP URL specified",
                           f"photo by URL {value!r}: the fake has no internet")
            raise _bad("Bad Request: wrong file identifier/HTTP URL specified",
                       f"unknown file_id {value!r}")
        if len(value) > MAX_PHOTO_BYTES:
            raise _bad("Bad Request: file is too big",
                       f"photo is {len(value)} bytes (max {MAX_PHOTO_BYTES})")
        try:
            with Image.open(io.BytesIO(value)) as im:
                fmt = im.format
                width, height = im.size
                # A PNG's chunks are read to its end and their checksums checked, its pixels not
                # decoded: a broken or cut file is refused all the same, in a fortieth of the
                # time (the bench uploads forty tables a second); anything else is decoded.
                im.verify() if fmt == "PNG" else im.load()
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
            raise _bad("Bad Request: IMAGE_PROCESS_FAILED",
                       f"photo is not a readable image: {exc}") from None
        if fmt not in ("PNG", "JPEG"):
            raise _bad("Bad Request: IMAGE_PROCESS_FAILED",
                       f"photo is {fmt}; the fake accepts PNG and JPEG")
        if width + height > MAX_PHOTO_SIDES:
            raise _bad("Bad Request: PHOTO_INVALID_DIMENSIONS",
                       f"photo is {width}x{height}: width + height > {MAX_PHOTO_SIDES}")
        if max(width, height) > MAX_PHOTO_RATIO * min(width, height):
            raise _bad("Bad Request: PHOTO_INVALID_DIMENSIONS",
                       f"photo is {width}x{height}: aspect ratio > {MAX_PHOTO_RATIO}")
        n = len(self._files)
        sizes = []
        dims = []
        for limit in (90, 320, 800, 1280, 2560):
            scale = min(1.0, limit / max(width, height))
            dim = (max(1, round(width * scale)), max(1, round(height * scale)))
            if dim not in dims:
                dims.append(dim)
            if scale >= 1.0:
                break
        ext = "png" if fmt == "PNG" else "jpg"
        rec = FileRec(value, fmt, width, height, f"photos/file_{n}.{ext}", sizes)
        for i, (w, h) in enumerate(dims):
            file_id = f"AgACAgIAAxkBAAI{self._rng.getrandbits(128):032x}{i}"
            size = {"file_id": file_id,
                    "file_unique_id": f"AQAD{self._rng.getrandbits(64):016x}",
                    "file_size": max(1, len(value) * w * h // (width * height)),
                    "width": w, "height": h}
            sizes.append(size)
            self._files[file_id] = rec
        self._file_paths[rec.file_path] = rec
        return rec

    def _animation(self, value: bytes | str) -> FileRec:
        """An uploaded animation (a GIF or an MP4 of at most 50 MB) or a known animation file_id."""
        if isinstance(value, str):
            rec = self._files.get(value)
            if rec is not None:
                if rec.format not in ("GIF", "MP4"):
                    raise _bad("Bad Request: type of file mismatch",
                               f"file_id {value!r} of a {rec.format} photo sent as an animation")
                return rec
            if re.match(r"https?://", value):
                raise _bad("Bad Request: wrong file identifier/HTTP URL specified",
                           f"animation by URL {value!r}: the fake has no internet")
            raise _bad("Bad Request: wrong file identifier/HTTP URL specified", f"unknown file_id {value!r}")
        if not value:
            raise _bad("Bad Request: file must be non-empty", "animation upload is empty")
        if len(value) > MAX_ANIMATION_BYTES:
            raise _bad("Bad Request: file is too big",
                       f"animation is {len(value)} bytes (max {MAX_ANIMATION_BYTES})")
        frames, duration_ms = 1, 0
        if value[4:8] == b"ftyp":
            fmt, width, height, mime = "MP4", 0, 0, "video/mp4"
        else:
            try:
                with Image.open(io.BytesIO(value)) as im:
                    fmt = im.format
                    width, height = im.size
                    if fmt == "GIF":
                        frames = getattr(im, "n_frames", 1)
                        for i in range(frames):
                            im.seek(i)
                            duration_ms += int(im.info.get("duration", 0))
            except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError) as exc:
                raise _bad("Bad Request: wrong type of the web page content",
                           f"animation is neither a GIF nor an MP4: {exc}") from None
            if fmt != "GIF":
                raise _bad("Bad Request: wrong type of the web page content",
                           f"animation is {fmt}; sendAnimation takes a GIF or an MP4")
            mime = "image/gif"
        n = len(self._files)
        file_id = f"CgACAgIAAxkBAAI{self._rng.getrandbits(128):032x}"
        info = {"file_id": file_id, "file_unique_id": f"AgAD{self._rng.getrandbits(64):016x}",
                "width": width, "height": height, "duration": round(duration_ms / 1000),
                "mime_type": mime, "file_size": len(value)}
        rec = FileRec(value, fmt, width, height, f"animations/file_{n}.{fmt.lower()}", [info], frames)
        self._files[file_id] = rec
        self._file_paths[rec.file_path] = rec
        return rec

    def _reply_to(self, chat: ChatRec, reply: dict | None) -> int | None:
        if reply is None:
            return None
        target_chat = chat
        if "chat_id" in reply and reply["chat_id"] != chat.id:
            target_chat = self._chat_for(reply["chat_id"], write=False)
        m = target_chat.messages.get(reply["message_id"])
        if m is None or m.deleted:
            if reply.get("allow_sending_without_reply"):
                return None
            raise ApiError(400, "Bad Request: message to be replied not found")
        return reply["message_id"] if target_chat is chat else None

    def _edit_target(self, p: dict) -> tuple[ChatRec, Message]:
        if "inline_message_id" in p:
            raise _bad("Bad Request: MESSAGE_ID_INVALID",
                       "inline messages are not supported by the fake")
        if "chat_id" not in p or "message_id" not in p:
            raise _bad("Bad Request: message identifier is not specified")
        chat = self._chat_for(p["chat_id"])
        m = chat.messages.get(p["message_id"])
        if m is None or m.deleted:
            raise ApiError(400, "Bad Request: message to edit not found")
        if not m.from_bot:
            raise _bad("Bad Request: message can't be edited",
                       f"message {m.message_id} in chat {chat.id} is not the bot's")
        return chat, m

    def _edited(self, m: Message) -> dict:
        m.edits += 1
        m.edit_date = int(time.time())
        return self._message_dict(m)

    def _scope_key(self, scope: dict | None) -> str:
        return json.dumps(scope or {"type": "default"}, sort_keys=True)

    # ==== methods ===============================================================================
    # Each _m_<method>(params) runs with the lock held and returns the result or raises ApiError.

    def _m_getMe(self, p: dict) -> dict:
        return {**self._bot_user(), "can_join_groups": True,
                "can_read_all_group_messages": not self.privacy_mode,
                "supports_inline_queries": False,
                "can_connect_to_business": False, "has_main_web_app": False}

    def _m_logOut(self, p: dict) -> bool:
        return True

    def _m_close(self, p: dict) -> bool:
        return True

    def _m_setWebhook(self, p: dict) -> bool:
        if not p["url"].startswith("https://") and p["url"] != "":
            raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided for "
                                "webhook")
        secret = p.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret):
            raise ApiError(400, "Bad Request: secret token contains unallowed characters")
        self._webhook = {"url": p["url"], "secret_token": secret} if p["url"] else None
        self._cond.notify_all()
        if p.get("allowed_updates") is not None:
            self._allowed_updates = p["allowed_updates"]
        if p.get("drop_pending_updates"):
            self._updates.clear()
        return True

    def _m_deleteWebhook(self, p: dict) -> bool:
        self._webhook = None
        if p.get("drop_pending_updates"):
            self._updates.clear()
        return True

    def _m_getWebhookInfo(self, p: dict) -> dict:
        info: dict[str, Any] = {"url": (self._webhook or {}).get("url", ""),
                                "has_custom_certificate": False,
                                "pending_update_count": len(self._updates)}
        if self._allowed_updates:
            info["allowed_updates"] = list(self._allowed_updates)
        return info

    def _m_getUpdates(self, p: dict) -> list[dict]:
        with self._poller() as hung_up:
            return self._get_updates(p, hung_up)

    def _get_updates(self, p: dict, hung_up) -> list[dict]:
        if self._webhook is not None:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; "
                                "use deleteWebhook to delete the webhook first")
        offset = p.get("offset")
        limit = min(max(p.get("limit", 100), 1), 100)
        timeout = max(p.get("timeout", 0), 0)
        if "allowed_updates" in p:
            self._allowed_updates = p["allowed_updates"] or None
        self._poll_generation += 1
        generation = self._poll_generation
        self._cond.notify_all()  # an older long poll ends with 409
        if offset is not None:
            before = len(self._updates)
            if offset < 0:
                self._updates = self._updates[offset:]
            else:
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
            if len(self._updates) != before:
                # the bot starts handling what it fetched: settle() counts quiet time from here
                self._last_activity = time.monotonic()
        deadline = time.monotonic() + timeout
        while True:
            if self._stopping or self._down:
                return []  # the HTTP layer drops the connection when the API went down
            if hung_up():
                return []  # the bot went away (killed, stopped): nobody waits for this poll
            if generation != self._poll_generation:
                raise ApiError(409, "Conflict: terminated by other getUpdates request; make "
                                    "sure that only one bot instance is running")
            allowed = self._allowed_updates
            kept = []
            for u in self._updates:
                kind = next((k for k in u if k != "update_id"), "")  # "" for a bare raw update
                if (kind in allowed) if allowed else (kind not in NOT_BY_DEFAULT):
                    kept.append(u)
            self._updates = kept
            if kept:
                batch = kept[:limit]
                self._note_delivered(batch)
                return [json.loads(json.dumps(u)) for u in batch]
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return []
            self._cond.wait(min(remaining, 0.1))  # and look again whether the bot hung up

    def _m_setMyCommands(self, p: dict) -> bool:
        commands = p["commands"]
        if len(commands) > 100:
            raise _bad("Bad Request: too many commands", f"{len(commands)} commands (max 100)")
        for c in commands:
            if not _BOT_COMMAND_RE.fullmatch(c["command"]):
                raise _bad("Bad Request: BOT_COMMAND_INVALID",
                           f"command {c['command']!r}: 1-32 of a-z, 0-9, _")
            if not 1 <= len(c["description"]) <= 256:
                raise _bad("Bad Request: BOT_COMMAND_DESCRIPTION_INVALID",
                           f"command {c['command']!r}: description must be 1-256 characters")
        key = self._command_key(p)
        if commands:
            self._commands[key] = [dict(c) for c in commands]
        else:
            self._commands.pop(key, None)
        return True

    def _m_getMyCommands(self, p: dict) -> list[dict]:
        return [dict(c) for c in self._commands.get(self._command_key(p), [])]

    def _m_deleteMyCommands(self, p: dict) -> bool:
        self._commands.pop(self._command_key(p), None)
        return True

    def _lang(self, p: dict) -> str:
        lang = p.get("language_code", "")
        if lang and not _LANG_RE.fullmatch(lang):
            raise _bad("Bad Request: LANG_CODE_INVALID",
                       f"language_code {lang!r} is not a two-letter ISO 639-1 code")
        return lang

    def _command_key(self, p: dict) -> tuple[str, str]:
        lang = self._lang(p)
        scope = p.get("scope")
        if scope and "chat_id" in scope:
            chat = self._chat_for(scope["chat_id"], write=False)
            if scope["type"] != "chat" and chat.type == "private":
                raise ApiError(400, "Bad Request: can't use the scope in a private chat")
        return self._scope_key(scope), lang

    def _bot_post(self, p: dict) -> Message:
        """A new message of the bot's in ``p["chat_id"]``: its keyboard checked, a reply and a
        topic as asked (what sendMessage, sendPhoto, sendAnimation and sendDice share)."""
        markup = self._check_markup(p.get("reply_markup"), p.get("chat_id"))
        chat = self._chat_for(p["chat_id"])
        reply_to = self._reply_to(chat, p.get("reply_parameters"))
        m = self._new_message(chat, from_bot=True, sender=self._bot_user(),
                              thread=p.get("message_thread_id"))
        m.reply_markup = markup
        m.reply_to_message_id = reply_to
        return m

    def _m_sendMessage(self, p: dict) -> dict:
        text, entities = self._format(p["text"], p.get("parse_mode"), p.get("entities"),
                                      what="text")
        m = self._bot_post(p)
        m.text, m.entities, m.raw_text = text, entities, p["text"]
        m.parse_mode = p.get("parse_mode")
        return self._message_dict(m)

    def _m_sendPhoto(self, p: dict) -> dict:
        caption, entities = self._format(p.get("caption"), p.get("parse_mode"),
                                         p.get("caption_entities"), what="caption")
        rec = self._photo(p["photo"])
        m = self._bot_post(p)
        self._set_photo(m, rec, caption, entities, p.get("caption"), p.get("parse_mode"))
        return self._message_dict(m)

    def _m_sendAnimation(self, p: dict) -> dict:
        caption, entities = self._format(p.get("caption"), p.get("parse_mode"),
                                         p.get("caption_entities"), what="caption")
        rec = self._animation(p["animation"])
        m = self._bot_post(p)
        m.animation = rec.content
        m.animation_file_id = rec.sizes[0]["file_id"]
        m.caption = caption or None
        m.caption_entities = entities if caption else []
        m.raw_caption = p.get("caption")
        m.parse_mode = p.get("parse_mode")
        return self._message_dict(m)

    def _set_photo(self, m: Message, rec: FileRec, caption: str, entities: list,
                   raw_caption: str | None, parse_mode: str | None) -> None:
        m.photo = rec.content
        m.photo_size = (rec.width, rec.height)
        m.photo_file_id = rec.sizes[-1]["file_id"]
        m.caption = caption or None
        m.caption_entities = entities if caption else []
        m.raw_caption = raw_caption
        m.parse_mode = parse_mode

    def _m_sendDice(self, p: dict) -> dict:
        emoji = p.get("emoji", "🎲")
        if emoji not in DICE:
            raise _bad("Bad Request: EMOTICON_INVALID", f"dice emoji {emoji!r}")
        m = self._bot_post(p)
        value = self._forced_dice.popleft() if self._forced_dice else None
        if value is None or not 1 <= value <= DICE[emoji]:
            value = self._rng.randint(1, DICE[emoji])
        m.dice = {"emoji": emoji, "value": value}
        return self._message_dict(m)

    def _m_editMessageText(self, p: dict) -> dict:
        text, entities = self._format(p["text"], p.get("parse_mode"), p.get("entities"),
                                      what="text")
        markup = self._check_markup(p.get("reply_markup"), p.get("chat_id"))
        chat, m = self._edit_target(p)
        if m.text is None:
            raise _bad("Bad Request: there is no text in the message to edit",
                       f"editMessageText on message {m.message_id} which has no text")
        self._set_text(m, text, entities, markup, p)
        return self._edited(m)

    @staticmethod
    def _set_text(m, text: str, entities: list, markup, p: dict) -> None:
        """An edit of a message's text (``p``: the call), or Telegram's "not modified"."""
        if m.text == text and m.entities == entities and m.reply_markup == markup:
            raise ApiError(400, NOT_MODIFIED)
        m.text, m.entities, m.raw_text = text, entities, p["text"]
        m.parse_mode = p.get("parse_mode")
        m.reply_markup = markup

    @staticmethod
    def _set_caption(m, caption: str | None, entities: list, markup, p: dict) -> None:
        """An edit of a photo's caption (``p``: the call), or Telegram's "not modified"."""
        new_caption = caption or None
        new_entities = entities if caption else []
        if (m.caption == new_caption and m.caption_entities == new_entities
                and m.reply_markup == markup):
            raise ApiError(400, NOT_MODIFIED)
        m.caption, m.caption_entities, m.raw_caption = new_caption, new_entities, p.get("caption")
        m.parse_mode = p.get("parse_mode")
        m.reply_markup = markup

    def _m_editMessageCaption(self, p: dict) -> dict:
        caption, entities = self._format(p.get("caption"), p.get("parse_mode"),
                                         p.get("caption_entities"), what="caption")
        markup = self._check_markup(p.get("reply_markup"), p.get("chat_id"))
        chat, m = self._edit_target(p)
        if m.photo is None:
            raise _bad("Bad Request: there is no caption in the message to edit",
                       f"editMessageCaption on message {m.message_id} which has no media")
        self._set_caption(m, caption, entities, markup, p)
        return self._edited(m)

    def _m_editMessageMedia(self, p: dict) -> dict:
        media = p["media"]
        if media.get("type") != "photo":
            raise _bad("Bad Request: MEDIA_INVALID",
                       f"editMessageMedia with {media.get('type')!r} media is not supported by "
                       f"the fake (photo only)")
        caption, entities = self._format(media.get("caption"), media.get("parse_mode"),
                                         media.get("caption_entities"), what="caption")
        markup = self._check_markup(p.get("reply_markup"), p.get("chat_id"))
        rec = self._photo(media["media"])
        chat, m = self._edit_target(p)
        if m.photo is None:
            raise _bad("Bad Request: there is no media in the message to edit",
                       f"editMessageMedia on message {m.message_id} which has no photo")
        new_caption = caption or None
        if (isinstance(media["media"], str) and self._files.get(m.photo_file_id) is rec
                and m.caption == new_caption
                and m.caption_entities == (entities if caption else [])
                and m.reply_markup == markup):
            raise ApiError(400, NOT_MODIFIED)
        self._set_photo(m, rec, caption, entities, media.get("caption"),
                        media.get("parse_mode"))
        m.reply_markup = markup
        return self._edited(m)

    def _m_editMessageReplyMarkup(self, p: dict) -> dict:
        markup = self._check_markup(p.get("reply_markup"), p.get("chat_id"))
        chat, m = self._edit_target(p)
        if m.reply_markup == markup:
            raise ApiError(400, NOT_MODIFIED)
        m.reply_markup = markup
        return self._edited(m)

    def _m_deleteMessage(self, p: dict) -> bool:
        chat = self._chat_for(p["chat_id"])
        m = chat.messages.get(p["message_id"])
        if m is None or m.deleted:
            raise ApiError(400, "Bad Request: message to delete not found")
        if not m.from_bot and not self._bot_is_admin(chat):
            raise ApiError(400, "Bad Request: message can't be deleted")
        m.deleted = True
        if m.message_id in chat.pinned:
            chat.pinned.remove(m.message_id)
        return True

    def _m_deleteMessages(self, p: dict) -> bool:
        ids = p["message_ids"]
        if not 1 <= len(ids) <= 100:
            raise _bad("Bad Request: message_ids must hold 1-100 identifiers")
        chat = self._chat_for(p["chat_id"])
        found = [chat.messages[i] for i in ids if i in chat.messages
                 and not chat.messages[i].deleted]
        if not found:
            raise ApiError(400, "Bad Request: message to delete not found")
        for m in found:
            if m.from_bot or self._bot_is_admin(chat):
                m.deleted = True
        return True

    def _set_profile(self, p: dict, key: str, limit: int) -> bool:
        lang = self._lang(p)
        text = p.get(key, "")
        if len(text) > limit:
            raise _bad(f"Bad Request: {key} is too long", f"{key} is {len(text)} characters "
                                                          f"(max {limit})")
        if text:
            self._profile[(key, lang)] = text
        else:
            self._profile.pop((key, lang), None)
        return True

    def _get_profile(self, p: dict, key: str) -> dict:
        lang = self._lang(p)
        default = self.bot_first_name if key == "name" else ""
        return {key: self._profile.get((key, lang), self._profile.get((key, ""), default))}

    def _m_setMyName(self, p: dict) -> bool:
        return self._set_profile(p, "name", 64)

    def _m_getMyName(self, p: dict) -> dict:
        return self._get_profile(p, "name")

    def _m_setMyDescription(self, p: dict) -> bool:
        return self._set_profile(p, "description", 512)

    def _m_getMyDescription(self, p: dict) -> dict:
        return self._get_profile(p, "description")

    def _m_setMyShortDescription(self, p: dict) -> bool:
        return self._set_profile(p, "short_description", 120)

    def _m_getMyShortDescription(self, p: dict) -> dict:
        return self._get_profile(p, "short_description")

    def _m_answerCallbackQuery(self, p: dict) -> bool:
        text = p.get("text", "")
        if len(text) > MAX_ANSWER_TEXT:
            raise _bad("Bad Request: MESSAGE_TOO_LONG",
                       f"callback answer text is {len(text)} characters (max {MAX_ANSWER_TEXT})")
        url = p.get("url")
        if url is not None:
            ok = re.fullmatch(
                rf"(?:https?://)?(?:t\.me|telegram\.me)/{re.escape(self.bot_username)}"
                rf"\?start=[A-Za-z0-9_-]{{1,64}}", url, re.IGNORECASE)
            if not ok:
                raise _bad("Bad Request: URL_INVALID",
                           f"callback answer url {url!r} is not t.me/{self.bot_username}"
                           f"?start=<1-64 of A-Za-z0-9_->")
        if p.get("cache_time", 0) < 0:
            raise _bad("Bad Request: cache_time must be non-negative")
        q = self._queries.get(p["callback_query_id"])
        if q is None:
            raise _bad(QUERY_TOO_OLD, f"unknown callback query id {p['callback_query_id']!r}")
        now = time.monotonic()
        q.answers += 1
        q.answer_times.append(now)
        if q.answer is not None:
            if q.answer_unseen:  # a fault hid the first answer's reply: retrying is fair
                raise ApiError(400, QUERY_TOO_OLD)
            raise _bad(QUERY_TOO_OLD, f"callback query {q.id} answered twice "
                                      f"(data {q.data!r})")
        if q.refused_late or self._answer_is_late(q, now):
            q.refused_late = True  # Telegram's answer to a slow bot, not a violation
            raise ApiError(400, QUERY_TOO_OLD)
        q.answer = dict(p)
        return True

    def _answer_is_late(self, q, now: float) -> bool:
        """Telegram refuses an answer once the user's client stopped waiting for it (about
        15 s after the press); ``callback_answer_timeout=None`` turns this off."""
        timeout = self.callback_answer_timeout
        return timeout is not None and now - q.pressed_at > timeout

    def _m_getChat(self, p: dict) -> dict:
        chat = self._chat_for(p["chat_id"], write=False)
        return {**self._chat_dict(chat), "accent_color_id": 0, "max_reaction_count": 11,
                "accepted_gift_types": {"unlimited_gifts": False, "limited_gifts": False,
                                        "unique_gifts": False, "premium_subscription": False,
                                        "gifts_from_channels": False}}

    def _member(self, chat: ChatRec, user_id: int) -> dict:
        if user_id == self.bot_id:
            user = self._bot_user()
        elif user_id in self._users:
            user = self._users[user_id].to_dict()
        else:
            return {"status": "left",
                    "user": {"id": user_id, "is_bot": False, "first_name": "Unknown"}}
        if chat.type == "private":
            if user_id in (chat.id, self.bot_id):
                return {"status": "member", "user": user}
            return {"status": "left", "user": user}
        if chat.creator == user_id:
            return {"status": "creator", "user": user, "is_anonymous": False}
        if user_id in chat.admins:
            return {"status": "administrator", "user": user, "can_be_edited": False,
                    "is_anonymous": False, "can_manage_chat": True, "can_delete_messages": True,
                    "can_manage_video_chats": True, "can_restrict_members": True,
                    "can_promote_members": False, "can_change_info": True,
                    "can_invite_users": True, "can_post_stories": False,
                    "can_edit_stories": False, "can_delete_stories": False,
                    "can_pin_messages": True,
                    **({"can_manage_topics": True} if chat.type == "supergroup" else {})}
        if user_id in chat.outsiders:
            return {"status": "left", "user": user}
        return {"status": "member", "user": user}

    def _m_getChatMember(self, p: dict) -> dict:
        chat = self._chat_for(p["chat_id"], write=False)
        return self._member(chat, p["user_id"])

    def _m_getChatAdministrators(self, p: dict) -> list[dict]:
        chat = self._chat_for(p["chat_id"], write=False)
        if chat.type == "private":
            raise ApiError(400, "Bad Request: there are no administrators in the private chat")
        ids = [chat.creator] if chat.creator is not None else []
        ids += [uid for uid in sorted(chat.admins) if uid != chat.creator]
        return [self._member(chat, uid) for uid in ids
                if uid in self._users or uid == self.bot_id]

    def _m_sendChatAction(self, p: dict) -> bool:
        if p["action"] not in CHAT_ACTIONS:
            raise _bad("Bad Request: wrong parameter action in request",
                       f"unknown chat action {p['action']!r}")
        self._chat_for(p["chat_id"])
        return True

    def _m_pinChatMessage(self, p: dict) -> bool:
        chat = self._chat_for(p["chat_id"])
        if not self._bot_is_admin(chat):
            raise ApiError(400, "Bad Request: not enough rights to manage pinned messages in "
                                "the chat")
        m = chat.messages.get(p["message_id"])
        if m is None or m.deleted:
            raise ApiError(400, "Bad Request: message to pin not found")
        m.pinned = True
        if m.message_id in chat.pinned:
            chat.pinned.remove(m.message_id)
        chat.pinned.append(m.message_id)
        return True

    def _m_unpinChatMessage(self, p: dict) -> bool:
        chat = self._chat_for(p["chat_id"])
        if not self._bot_is_admin(chat):
            raise ApiError(400, "Bad Request: not enough rights to manage pinned messages in "
                                "the chat")
        mid = p.get("message_id", chat.pinned[-1] if chat.pinned else None)
        if mid is None:
            return True
        if mid not in chat.pinned:
            raise ApiError(400, "Bad Request: message to unpin not found")
        chat.pinned.remove(mid)
        chat.messages[mid].pinned = False
        return True

    def _m_getFile(self, p: dict) -> dict:
        rec = self._files.get(p["file_id"])
        if rec is None:
            raise _bad("Bad Request: invalid file_id", f"unknown file_id {p['file_id']!r}")
        size = next(s for s in rec.sizes if s["file_id"] == p["file_id"])
        return {"file_id": size["file_id"], "file_unique_id": size["file_unique_id"],
                "file_size": len(rec.content), "file_path": rec.file_path}
