"""Records of the fake's world: what the bot asked for (Request) and what chats hold (Message)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Request", "Message", "UserRec", "ChatRec", "FileRec", "QueryRec", "Fault",
           "CallbackStats", "PollOverlap"]


@dataclass(frozen=True)
class PollOverlap:
    """A getUpdates that arrived while another one, on another connection that was still open,
    was waiting: two bot instances polling at once (a correct deployment never does)."""

    time: float  # time.monotonic() when the second one arrived
    client: str  # "host:port" of the connection it came on
    others: tuple[str, ...]  # the connections of the polls it overlapped


@dataclass
class Request:
    """One HTTP request the bot made, with the answer it got."""

    method: str  # canonical Bot API name (as sent when the method is unknown)
    params: dict[str, Any]  # decoded: ints, bools, dicts, lists; files as bytes
    time: float  # time.monotonic() when it arrived
    ok: bool = False
    result: Any = None
    error_code: int | None = None
    description: str | None = None
    parameters: dict[str, Any] | None = None  # ResponseParameters of an error
    injected: bool = False  # the error came from fail_next()
    fault: str | None = None  # "429", "500", "slow" or "drop" when fault mode hit this request
    flood: str | None = None  # a 429's kind: "group", "bot", "paid", "held", "fault", "injected" (limits.py)

    held_for: float = 0.0  # seconds a "slow" fault held the answer back
    violation: str | None = None  # the strictness violation this request committed
    ignored: list[str] = field(default_factory=list)  # PTB Defaults params the method lacks
    # The chat an edit by inline_message_id lands in (inline.py): Telegram counts such an edit
    # against that chat, so per-chat counts (chat_id below) attribute it there.
    inline_chat: int | str | None = None

    @property
    def chat_id(self) -> int | str | None:
        """The chat the request writes to: its chat_id, or the chat of the inline message it
        edits (a group's id, a user's id for their own chat with the bot, or a private pair's
        key: see inline.py)."""
        return self.params.get("chat_id", self.inline_chat)

    def __repr__(self) -> str:
        status = "ok" if self.ok else f"{self.error_code} {self.description!r}"
        return f"<Request {self.method} {_short(self.params)} -> {status}>"


def _short(value: Any) -> Any:
    """The value with bytes shown by their length (for readable reprs)."""
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    if isinstance(value, dict):
        return {k: _short(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_short(v) for v in value]
    return value


@dataclass
class Message:
    """The current state of one message in a chat (the bot's or a user's)."""

    chat_id: int
    message_id: int
    date: int
    from_bot: bool
    sender: dict | None  # the User dict in "from" (None for some service messages)
    sender_chat: dict | None = None  # the Chat a message was sent on behalf of (anonymous
    # admins, channels), as in Message.sender_chat
    text: str | None = None  # plain text after entity parsing (what people see)
    entities: list[dict] = field(default_factory=list)
    raw_text: str | None = None  # the text exactly as the bot sent it (e.g. HTML source)
    caption: str | None = None
    caption_entities: list[dict] = field(default_factory=list)
    raw_caption: str | None = None
    parse_mode: str | None = None
    photo: bytes | None = None  # PNG/JPEG bytes of a photo message
    photo_size: tuple[int, int] | None = None  # (width, height) as uploaded
    photo_file_id: str | None = None  # file_id of the largest PhotoSize
    animation: bytes | None = None  # GIF/MP4 bytes of an animation message
    animation_file_id: str | None = None
    dice: dict | None = None  # {"emoji": ..., "value": ...}
    reply_markup: dict | None = None  # the InlineKeyboardMarkup dict, None without keyboard
    message_thread_id: int | None = None
    reply_to_message_id: int | None = None
    edits: int = 0
    edit_date: int | None = None
    deleted: bool = False
    pinned: bool = False
    service: dict | None = None  # e.g. {"migrate_to_chat_id": ...}
    via_bot: dict | None = None  # the bot's User dict when a person sent it via inline mode
    inline_message_id: str | None = None  # only for an inline message with an inline keyboard

    @property
    def keyboard(self) -> list[list[dict]]:
        """The inline keyboard rows ([] without keyboard)."""
        return list((self.reply_markup or {}).get("inline_keyboard", []))

    @property
    def buttons(self) -> list[dict]:
        """All inline buttons, row by row."""
        return [b for row in self.keyboard for b in row]

    @property
    def callback_data(self) -> list[str]:
        """callback_data of every callback button, row by row."""
        return [b["callback_data"] for b in self.buttons if "callback_data" in b]

    def button(self, text: str) -> dict:
        """The first button whose text contains `text` (AssertionError if none)."""
        for b in self.buttons:
            if text in b.get("text", ""):
                return b
        raise AssertionError(
            f"no button with {text!r} in message {self.message_id}: "
            f"{[b.get('text') for b in self.buttons]}"
        )

    @property
    def content(self) -> str:
        """Text or caption, whichever the message has ('' if neither)."""
        return self.text if self.text is not None else (self.caption or "")


@dataclass
class UserRec:
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = "en"
    opened: bool = True  # the user has opened the private chat with the bot
    blocked: bool = False

    def to_dict(self) -> dict:
        d: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            d["last_name"] = self.last_name
        if self.username:
            d["username"] = self.username
        if self.language_code:
            d["language_code"] = self.language_code
        return d


@dataclass
class ChatRec:
    id: int
    type: str  # private, group, supergroup
    chat_instance: str
    title: str | None = None
    admins: set[int] = field(default_factory=set)
    creator: int | None = None
    outsiders: set[int] = field(default_factory=set)  # users who are not members of this group
    is_forum: bool = False
    migrated_to: int | None = None
    bot_kicked: bool = False
    messages: dict[int, Message] = field(default_factory=dict)
    next_message_id: int = 1
    pinned: list[int] = field(default_factory=list)
    bot_member: bool = True  # False: a chat the bot is not in (it only sees inline messages there)
    pair: tuple[int, int] | None = None  # a private chat between these two people (inline.py)


@dataclass
class FileRec:
    content: bytes
    format: str  # PNG / JPEG (photos), GIF / MP4 (animations)
    width: int
    height: int
    file_path: str
    sizes: list[dict]  # PhotoSize dicts, smallest first (an animation: its one Animation dict)
    frames: int = 1  # an animated GIF's frames


@dataclass
class QueryRec:
    id: str
    user_id: int
    chat_id: int | None  # None for a press on an inline message
    message_id: int | None
    data: str | None
    pressed_at: float = 0.0  # time.monotonic() of the press
    delivered_at: float | None = None  # first handed to the bot (getUpdates or webhook)
    answer: dict | None = None  # the accepted answer's parameters
    answers: int = 0  # answerCallbackQuery calls that reached the fake's method
    answer_times: list[float] = field(default_factory=list)  # time.monotonic() of each call
    refused_late: bool = False  # the first answer came after the answer timeout
    answer_unseen: bool = False  # the accepted answer was applied but a fault hid its reply


@dataclass(frozen=True)
class CallbackStats:
    """What happened to one callback query: when it was pressed, delivered, answered."""

    id: str
    user_id: int
    chat_id: int | None
    data: str | None
    pressed_at: float
    delivered_at: float | None
    answer_times: tuple[float, ...]  # every answerCallbackQuery call the fake performed
    accepted: bool  # Telegram took an answer (the first, in time and only once)
    late: bool  # the first answer came after the answer timeout and was refused

    @property
    def times_answered(self) -> int:
        return len(self.answer_times)

    @property
    def latency(self) -> float | None:
        """Seconds from delivery to the bot to its first answer (None if either is missing)."""
        if self.delivered_at is None or not self.answer_times:
            return None
        return self.answer_times[0] - self.delivered_at


@dataclass(frozen=True)
class Fault:
    """One request that fault mode (or a chat still in its 429 wait) made fail.

    ``applied`` says whether the fake performed the call anyway: a dropped or slow answer may
    hide a message that was really sent, exactly as on Telegram, so a test can tell "the fault
    swallowed the answer" from a bot bug."""

    method: str
    kind: str  # "429", "500", "slow", "drop"
    applied: bool
    chat_id: int | str | None
    time: float  # time.monotonic()
    retry_after: int | None = None  # for 429
    held: bool = False  # a 429 because the chat was still within an earlier retry_after
    request: Request | None = field(default=None, compare=False, repr=False)
