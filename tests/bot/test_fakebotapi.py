"""Tests of the fake Bot API server itself, driven by the real python-telegram-bot client."""

from __future__ import annotations

import asyncio
import io
import time
import warnings

import html

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeChat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Update,
)
from telegram.error import (
    BadRequest,
    ChatMigrated,
    EndPointNotFound,
    Forbidden,
    RetryAfter,
)
from telegram.ext import ApplicationBuilder, CommandHandler

from tests.fakebotapi import FakeBotAPI
from tests.fakebotapi.htmlparse import HtmlError, parse_html

pytestmark = pytest.mark.filterwarnings(
    "ignore:Please use 'Bot:UserWarning",  # do_api_request on purpose, to send bad requests
    "ignore:.*retry_after.*:DeprecationWarning",
)

ANNA, BORIS, CARL = 1001, 1002, 1003
GROUP = -1001234567890
BASIC = -4001


def png(width: int, height: int, colour: str = "red", mode: str = "RGB") -> bytes:
    buf = io.BytesIO()
    Image.new(mode, (width, height), colour if mode == "RGB" else 1).save(buf, "PNG")
    return buf.getvalue()


def jpeg(width: int, height: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), "green").save(buf, "JPEG")
    return buf.getvalue()


def keyboard(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(text, callback_data=data) for text, data in row] for row in rows]
    )


@pytest.fixture
def fake():
    f = FakeBotAPI()
    f.start()
    f.add_user(ANNA, "Anna", username="anna")
    f.add_user(BORIS, "Boris", last_name="B.")
    f.add_user(CARL, "Carl", opened_private=False)
    f.add_group(GROUP, "Game night", admins=(BORIS,), creator=ANNA)
    yield f
    f.stop()
    assert not [v for v in f.violations if "fake Bot API bug" in v], f.violations


@pytest.fixture
async def bot(fake):
    b = Bot(fake.token, base_url=fake.base_url, base_file_url=fake.base_file_url)
    async with b:
        yield b


# ---- basics ------------------------------------------------------------------------------------


async def test_get_me(fake, bot):
    me = await bot.get_me()
    assert me.id == fake.bot_id and me.is_bot and me.username == fake.bot_username
    assert fake.calls("getMe") and all(r.ok for r in fake.calls("getMe"))
    assert fake.violations == []


async def test_send_message_html_is_parsed_and_stored(fake, bot):
    text = "<b>Anna</b> &amp; <i>Boris</i> 🎲 <a href=\"https://example.org\">rules</a> &#x27;x&#39;"
    msg = await bot.send_message(GROUP, text, parse_mode="HTML",
                                 reply_markup=keyboard([("Join", "j:1")]))
    assert msg.text == "Anna & Boris 🎲 rules 'x'"
    assert [(e.type, e.offset, e.length) for e in msg.entities] == [
        ("bold", 0, 4), ("italic", 7, 5), ("text_link", 16, 5)]  # 🎲 is 2 UTF-16 units
    stored = fake.message(GROUP, msg.message_id)
    assert stored.from_bot and stored.text == msg.text and stored.raw_text == text
    assert stored.parse_mode == "HTML"
    assert stored.callback_data == ["j:1"] and stored.button("Join")["callback_data"] == "j:1"
    assert fake.last_bot_message(GROUP) is stored
    assert msg.reply_markup.inline_keyboard[0][0].callback_data == "j:1"
    assert fake.violations == []


@pytest.mark.parametrize("text, why", [
    ("<b>bold", "Can't find end tag"),
    ("<b>x</i>", "Unmatched end tag"),
    ("<blink>x</blink>", "Unsupported start tag"),
    ("1 < 2", "Unsupported start tag"),
    ("Tom & Jerry", "'&'"),
    ("&nbsp;", "'&'"),
    ('<span class="x">s</span>', "tg-spoiler"),
    ("x</b>", "Unexpected end tag"),
])
async def test_bad_html_is_rejected(fake, bot, text, why):
    with pytest.raises(BadRequest, match="(?i)can't parse entities") as err:
        await bot.send_message(GROUP, text, parse_mode="HTML")
    assert why.lower() in str(err.value).lower()
    assert len(fake.violations) == 1 and "sendMessage" in fake.violations[0]
    assert fake.messages(GROUP) == []


async def test_plain_text_needs_no_escaping_and_limits_count_after_parsing(fake, bot):
    await bot.send_message(GROUP, "1 < 2 & 3 > 2")  # no parse_mode: nothing to parse
    padded = await bot.send_message(GROUP, "\n  <b>x</b> y  \n", parse_mode="HTML")
    assert padded.text == "x y" and padded.entities[0].offset == 0  # trimmed like Telegram
    await bot.send_message(GROUP, "<b>" + "x" * 4096 + "</b>", parse_mode="HTML")
    with pytest.raises(BadRequest, match="(?i)too long"):
        await bot.send_message(GROUP, "x" * 4097)
    with pytest.raises(BadRequest, match="(?i)empty"):
        await bot.send_message(GROUP, "<b> </b>", parse_mode="HTML")
    assert len(fake.violations) == 2


def test_html_parser_details():
    text, ents = parse_html('<pre><code class="language-py">x = 1</code></pre>'
                            '<tg-spoiler>s</tg-spoiler><span class="tg-spoiler">t</span>'
                            '<blockquote expandable>q</blockquote><B>u</B>')
    assert text == "x = 1stqu"
    assert ents == [
        {"offset": 0, "length": 5, "type": "pre", "language": "py"},
        {"offset": 5, "length": 1, "type": "spoiler"},
        {"offset": 6, "length": 1, "type": "spoiler"},
        {"offset": 7, "length": 1, "type": "expandable_blockquote"},
        {"offset": 8, "length": 1, "type": "bold"},
    ]
    assert parse_html("&lt;&gt;&amp;&quot;&#1071;&#x44F;") == ('<>&"Яя', [])
    assert parse_html('<a href="tg://user?id=7">x</a>')[1][0]["type"] == "text_mention"
    with pytest.raises(HtmlError):
        parse_html("<b")
    with pytest.raises(HtmlError):
        parse_html("<tg-emoji>x</tg-emoji>")


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_html_escape_always_parses_back_to_the_text(text):
    plain, entities = parse_html(html.escape(text))
    assert plain == text and entities == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="<>&/ab=\"' #x;01", max_size=30))
def test_html_parser_fails_only_with_html_error(text):
    try:
        plain, entities = parse_html(text)
    except HtmlError:
        return
    for e in entities:
        assert 0 <= e["offset"] and e["offset"] + e["length"] <= len(plain.encode("utf-16-le")) // 2


# ---- keyboards and parameters ------------------------------------------------------------------


async def test_callback_data_is_limited_to_64_bytes(fake, bot):
    await bot.send_message(GROUP, "ok", reply_markup=keyboard([("a", "x" * 64)]))
    with pytest.raises(BadRequest, match="(?i)BUTTON_DATA_INVALID"):
        # 33 characters but 66 bytes: the limit is in bytes
        await bot.send_message(GROUP, "no", reply_markup=keyboard([("a", "é" * 33)]))
    with pytest.raises(BadRequest, match="(?i)BUTTON_DATA_INVALID"):
        await bot.send_message(GROUP, "no", reply_markup=keyboard([("a", "y" * 65)]))
    assert len(fake.violations) == 2 and "66 bytes" in fake.violations[0]
    assert len(fake.messages(GROUP)) == 1


async def test_button_rows_and_totals_are_limited(fake, bot):
    await bot.send_message(GROUP, "8", reply_markup=keyboard([(str(i), str(i)) for i in range(8)]))
    with pytest.raises(BadRequest):
        await bot.send_message(GROUP, "9",
                               reply_markup=keyboard([(str(i), str(i)) for i in range(9)]))
    assert "9 buttons" in fake.violations[-1]
    rows = [[(f"{r}{c}", f"{r}{c}") for c in range(8)] for r in range(13)]  # 104 buttons
    with pytest.raises(BadRequest):
        await bot.send_message(GROUP, "many", reply_markup=keyboard(*rows))
    assert "104 buttons" in fake.violations[-1]
    with pytest.raises(BadRequest, match="(?i)non-empty"):
        await bot.send_message(GROUP, "e", reply_markup=keyboard([("", "x")]))
    with pytest.raises(BadRequest, match="(?i)BUTTON_URL_INVALID"):
        await bot.send_message(GROUP, "u", reply_markup=InlineKeyboardMarkup(
            [[InlineKeyboardButton("site", url="example.org")]]))
    await bot.send_message(GROUP, "u", reply_markup=InlineKeyboardMarkup(
        [[InlineKeyboardButton("me", url=f"https://t.me/{fake.bot_username}?start=x")]]))
    assert len(fake.violations) == 4


async def test_unknown_missing_and_mistyped_parameters_are_rejected(fake, bot):
    with pytest.raises(BadRequest, match="(?i)unknown parameter"):
        await bot.do_api_request("sendMessage",
                                 api_kwargs={"chat_id": GROUP, "text": "x", "colour": "red"})
    with pytest.raises(BadRequest, match="(?i)missing"):
        await bot.do_api_request("sendMessage", api_kwargs={"chat_id": GROUP})
    with pytest.raises(BadRequest, match="(?i)Integer"):
        await bot.do_api_request("deleteMessage",
                                 api_kwargs={"chat_id": GROUP, "message_id": "first"})
    with pytest.raises(BadRequest, match="(?i)unknown field"):
        await bot.do_api_request("sendMessage", api_kwargs={
            "chat_id": GROUP, "text": "x",
            "reply_markup": {"inline_keyboard": [[{"text": "a", "callback_data": "b",
                                                   "colour": "red"}]]}})
    with pytest.raises(BadRequest, match="(?i)scope"):
        await bot.do_api_request("setMyCommands", api_kwargs={
            "commands": [{"command": "new", "description": "New"}],
            "scope": {"type": "everywhere"}})
    assert len(fake.violations) == 5
    assert all(r.violation for r in fake.requests if not r.ok)
    assert fake.messages(GROUP) == []


async def test_unknown_and_unimplemented_methods(fake, bot):
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("sendHologram", api_kwargs={"chat_id": GROUP})
    with pytest.raises(BadRequest, match="(?i)not implemented"):
        await bot.do_api_request("sendPoll", api_kwargs={
            "chat_id": GROUP, "question": "?", "options": [{"text": "a"}, {"text": "b"}]})
    assert fake.violations == ["unknown method 'sendHologram'", "unimplemented method sendPoll"]


# ---- photos ------------------------------------------------------------------------------------


async def test_send_photo_stores_the_image_and_its_size(fake, bot):
    data = png(640, 400)
    msg = await bot.send_photo(GROUP, data, caption="<b>Turn 1</b>", parse_mode="HTML")
    assert msg.caption == "Turn 1" and msg.caption_entities[0].type == "bold"
    assert (msg.photo[-1].width, msg.photo[-1].height) == (640, 400)
    assert msg.photo[0].width == 90
    stored = fake.message(GROUP, msg.message_id)
    assert stored.photo == data and stored.photo_size == (640, 400)
    assert stored.text is None and stored.caption == "Turn 1"
    # resend by file_id, and a JPEG
    again = await bot.send_photo(BORIS, msg.photo[-1].file_id)
    assert fake.message(BORIS, again.message_id).photo == data
    await bot.send_photo(ANNA, jpeg(100, 80))
    assert fake.last_bot_message(ANNA).photo_size == (100, 80)
    # the file can be downloaded through base_file_url
    file = await bot.get_file(msg.photo[-1].file_id)
    assert bytes(await file.download_as_bytearray()) == data
    assert fake.violations == []


async def test_bad_photos_are_rejected(fake, bot):
    with pytest.raises(BadRequest, match="(?i)IMAGE_PROCESS_FAILED"):
        await bot.send_photo(GROUP, b"not an image at all")
    whole = png(300, 200)
    broken = bytearray(whole)
    broken[len(whole) // 2] ^= 0xFF  # one byte of its pixels changed on the way
    for bad in (bytes(broken), whole[:len(whole) // 2]):
        with pytest.raises(BadRequest, match="(?i)IMAGE_PROCESS_FAILED"):
            await bot.send_photo(GROUP, bad)
    with pytest.raises(BadRequest, match="(?i)PHOTO_INVALID_DIMENSIONS"):
        await bot.send_photo(GROUP, png(9000, 1100, mode="1"))
    with pytest.raises(BadRequest, match="(?i)wrong file identifier"):
        await bot.send_photo(GROUP, "AgACAgIAAxkBAAIno-such-file")
    with pytest.raises(BadRequest, match="(?i)caption is too long"):
        await bot.send_photo(GROUP, png(10, 10), caption="c" * 1025)
    assert len(fake.violations) == 6 and fake.messages(GROUP) == []


def gif(frames: int = 3, size: tuple[int, int] = (64, 48)) -> bytes:
    colours = ["red", "green", "blue", "white"]
    images = [Image.new("P", size, i % 4) for i in range(frames)]
    for im in images:
        im.putpalette([v for c in colours for v in Image.new("RGB", (1, 1), c).getpixel((0, 0))])
    buf = io.BytesIO()
    images[0].save(buf, "GIF", save_all=True, append_images=images[1:], duration=[500] * frames, loop=0)
    return buf.getvalue()


async def test_send_animation_takes_an_uploaded_gif_a_caption_and_its_file_id(fake, bot):
    data = gif(4)
    msg = await bot.send_animation(GROUP, data, caption="<b>Replay</b>", parse_mode="HTML", filename="r.gif")
    assert msg.caption == "Replay" and msg.caption_entities[0].type == "bold"
    assert (msg.animation.width, msg.animation.height) == (64, 48)
    assert msg.animation.mime_type == "image/gif" and msg.animation.file_size == len(data)
    assert msg.document.file_id == msg.animation.file_id  # Telegram fills both
    stored = fake.message(GROUP, msg.message_id)
    assert stored.animation == data and stored.caption == "Replay" and stored.photo is None
    req = fake.calls("sendAnimation")[0]
    assert req.params["animation"] == data  # uploaded as a multipart file part
    assert req.result["animation"]["duration"] == 2  # 4 frames of 0.5 s
    # the file_id again (no upload), as a reply
    again = await bot.send_animation(GROUP, msg.animation.file_id, reply_to_message_id=msg.message_id)
    assert fake.message(GROUP, again.message_id).animation == data
    assert fake.message(GROUP, again.message_id).reply_to_message_id == msg.message_id
    file = await bot.get_file(msg.animation.file_id)
    assert bytes(await file.download_as_bytearray()) == data
    assert fake.violations == []


async def test_bad_animations_are_rejected(fake, bot, monkeypatch):
    from tests.fakebotapi import methods
    with pytest.raises(BadRequest, match="(?i)wrong type"):
        await bot.send_animation(GROUP, png(20, 20))  # a PNG is not an animation
    with pytest.raises(BadRequest, match="(?i)wrong type"):
        await bot.send_animation(GROUP, b"GIF89a but not really")
    photo = await bot.send_photo(GROUP, png(20, 20))
    with pytest.raises(BadRequest, match="(?i)type of file mismatch"):
        await bot.send_animation(GROUP, photo.photo[-1].file_id)
    with pytest.raises(BadRequest, match="(?i)caption is too long"):
        await bot.send_animation(GROUP, gif(), caption="c" * 1025)
    monkeypatch.setattr(methods, "MAX_ANIMATION_BYTES", 100)  # 50 MB, shrunk to test the check
    with pytest.raises(BadRequest, match="(?i)file is too big"):
        await bot.send_animation(GROUP, gif(8, (200, 200)))
    assert len(fake.violations) == 5
    assert [m.message_id for m in fake.messages(GROUP)] == [photo.message_id]


async def test_edit_message_media_replaces_the_photo(fake, bot):
    msg = await bot.send_photo(GROUP, png(300, 200), caption="old",
                               reply_markup=keyboard([("Move", "m")]))
    new = png(320, 240, "blue")
    edited = await bot.edit_message_media(
        InputMediaPhoto(new, caption="<i>new</i>", parse_mode="HTML"),
        chat_id=GROUP, message_id=msg.message_id, reply_markup=keyboard([("Move", "m2")]))
    assert edited.caption == "new" and edited.edit_date is not None
    stored = fake.message(GROUP, msg.message_id)
    assert stored.photo == new and stored.photo_size == (320, 240)
    assert stored.edits == 1 and stored.callback_data == ["m2"]
    req = fake.calls("editMessageMedia")[0]
    assert req.params["media"]["media"] == new  # attach:// resolved to the uploaded bytes
    # the same file_id, caption and keyboard again: not modified (not a violation)
    with pytest.raises(BadRequest, match="(?i)message is not modified"):
        await bot.edit_message_media(
            InputMediaPhoto(edited.photo[-1].file_id, caption="<i>new</i>", parse_mode="HTML"),
            chat_id=GROUP, message_id=msg.message_id, reply_markup=keyboard([("Move", "m2")]))
    assert fake.violations == []


# ---- edits -------------------------------------------------------------------------------------


async def test_edits_not_modified_and_keyboard_removal(fake, bot):
    msg = await bot.send_message(GROUP, "Lobby", reply_markup=keyboard([("Join", "j")]))
    with pytest.raises(BadRequest, match="(?i)message is not modified"):
        await bot.edit_message_text("Lobby", chat_id=GROUP, message_id=msg.message_id,
                                    reply_markup=keyboard([("Join", "j")]))
    # as on Telegram, an edit without reply_markup removes the keyboard
    await bot.edit_message_text("Lobby", chat_id=GROUP, message_id=msg.message_id)
    stored = fake.message(GROUP, msg.message_id)
    assert stored.reply_markup is None and stored.edits == 1
    await bot.edit_message_reply_markup(chat_id=GROUP, message_id=msg.message_id,
                                        reply_markup=keyboard([("Start", "s")]))
    assert stored.callback_data == ["s"] and stored.edits == 2
    with pytest.raises(BadRequest, match="(?i)message is not modified"):
        await bot.edit_message_reply_markup(chat_id=GROUP, message_id=msg.message_id,
                                            reply_markup=keyboard([("Start", "s")]))
    fake.user_deletes_message(GROUP, msg.message_id)
    with pytest.raises(BadRequest, match="(?i)message to edit not found"):
        await bot.edit_message_text("gone", chat_id=GROUP, message_id=msg.message_id)
    assert fake.message(GROUP, msg.message_id) is None
    assert fake.violations == []  # all of these are Telegram behaviours, not bot mistakes


async def test_editing_the_wrong_kind_of_message_is_a_violation(fake, bot):
    photo = await bot.send_photo(GROUP, png(50, 50))
    text = await bot.send_message(GROUP, "hi")
    with pytest.raises(BadRequest, match="(?i)no text"):
        await bot.edit_message_text("x", chat_id=GROUP, message_id=photo.message_id)
    with pytest.raises(BadRequest, match="(?i)no caption"):
        await bot.edit_message_caption(chat_id=GROUP, message_id=text.message_id, caption="x")
    user_msg = fake.user_sends(ANNA, GROUP, "hello")
    with pytest.raises(BadRequest, match="(?i)can't be edited"):
        await bot.edit_message_text("x", chat_id=GROUP, message_id=user_msg["message_id"])
    assert len(fake.violations) == 3


async def test_delete_pin_and_caption_edit(fake, bot):
    msg = await bot.send_photo(GROUP, png(50, 50), caption="a")
    await bot.edit_message_caption(chat_id=GROUP, message_id=msg.message_id, caption="b")
    assert fake.message(GROUP, msg.message_id).caption == "b"
    with pytest.raises(BadRequest, match="(?i)not enough rights"):
        await bot.pin_chat_message(GROUP, msg.message_id)  # the bot is not an admin here
    await bot.pin_chat_message(ANNA, (await bot.send_message(ANNA, "pin me")).message_id)
    assert fake.last_bot_message(ANNA).pinned
    assert await bot.delete_message(GROUP, msg.message_id)
    assert fake.messages(GROUP) == []
    with pytest.raises(BadRequest, match="(?i)message to delete not found"):
        await bot.delete_message(GROUP, msg.message_id)
    assert fake.violations == []


# ---- private chats, failures, migration --------------------------------------------------------


async def test_private_chat_403s(fake, bot):
    with pytest.raises(Forbidden, match="(?i)can't initiate conversation"):
        await bot.send_message(CARL, "your rack")
    fake.user_starts_private(CARL, "j_abc")
    await bot.send_message(CARL, "your rack")
    fake.user_blocks_bot(CARL)
    with pytest.raises(Forbidden, match="(?i)blocked by the user"):
        await bot.send_message(CARL, "still there?")
    with pytest.raises(BadRequest, match="(?i)chat not found"):
        await bot.send_message(999, "who?")
    fake.remove_bot_from_group(GROUP)
    with pytest.raises(Forbidden, match="(?i)kicked from the supergroup"):
        await bot.send_message(GROUP, "board")
    assert fake.violations == []  # expected behaviours, not violations
    ups = await bot.get_updates()
    kinds = [(u.message.text if u.message else u.my_chat_member.new_chat_member.status)
             for u in ups]
    assert kinds == ["/start j_abc", "kicked", "kicked"]
    assert ups[-1].my_chat_member.chat.id == GROUP


async def test_retry_after_injection(fake, bot):
    fake.fail_next("sendMessage", error_code=429, description="Too Many Requests: retry after 1",
                   retry_after=1, chat_id=GROUP)
    await bot.send_message(ANNA, "other chats are not affected")
    with pytest.raises(RetryAfter) as err:
        await bot.send_message(GROUP, "x")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PTB 22 warns that retry_after becomes a timedelta
        after = err.value.retry_after
    assert getattr(after, "total_seconds", lambda: after)() == 1
    await bot.send_message(GROUP, "x")  # count=1: the next one goes through
    failed = fake.calls("sendMessage", chat_id=GROUP)[0]
    assert failed.injected and failed.error_code == 429 and failed.parameters == {"retry_after": 1}
    assert fake.violations == []


async def test_chat_migration(fake, bot):
    fake.add_group(BASIC, "Old group", admins=(BORIS,), creator=ANNA, type="group")
    await bot.send_message(BASIC, "board")
    fake.migrate_group(BASIC, GROUP - 1)
    with pytest.raises(ChatMigrated) as err:
        await bot.send_message(BASIC, "board")
    assert err.value.new_chat_id == GROUP - 1
    with pytest.raises(ChatMigrated):
        await bot.get_chat_member(BASIC, ANNA)
    new = await bot.send_message(GROUP - 1, "board again")
    assert new.chat.type == "supergroup" and new.chat.title == "Old group"
    assert (await bot.get_chat_member(GROUP - 1, BORIS)).status == "administrator"
    ups = await bot.get_updates()
    assert [(u.message.migrate_to_chat_id, u.message.migrate_from_chat_id) for u in ups] == [
        (GROUP - 1, None), (None, BASIC)]
    assert [m.text for m in fake.messages(GROUP - 1) if m.from_bot] == ["board again"]
    assert fake.violations == []


# ---- members, commands, dice -------------------------------------------------------------------


async def test_members_and_admins(fake, bot):
    assert (await bot.get_chat_member(GROUP, ANNA)).status == "creator"
    admin = await bot.get_chat_member(GROUP, BORIS)
    assert admin.status == "administrator" and admin.can_delete_messages
    assert (await bot.get_chat_member(GROUP, CARL)).status == "member"
    assert (await bot.get_chat_member(GROUP, 424242)).status == "left"
    assert [m.user.id for m in await bot.get_chat_administrators(GROUP)] == [ANNA, BORIS]
    chat = await bot.get_chat(GROUP)
    assert chat.title == "Game night" and chat.type == "supergroup"
    await bot.send_chat_action(GROUP, "upload_photo")
    with pytest.raises(BadRequest):
        await bot.send_chat_action(GROUP, "dancing")
    assert len(fake.violations) == 1


async def test_commands_per_scope_and_language(fake, bot):
    await bot.set_my_commands([BotCommand("new", "New game")])
    await bot.set_my_commands([BotCommand("new", "Новая игра")],
                              scope=BotCommandScopeAllGroupChats(), language_code="ru")
    await bot.set_my_commands([BotCommand("board", "Board")], scope=BotCommandScopeChat(GROUP))
    assert [c.description for c in await bot.get_my_commands()] == ["New game"]
    ru = await bot.get_my_commands(scope=BotCommandScopeAllGroupChats(), language_code="ru")
    assert [c.description for c in ru] == ["Новая игра"]
    assert fake.commands({"type": "chat", "chat_id": GROUP}) == [
        {"command": "board", "description": "Board"}]
    await bot.delete_my_commands()
    assert await bot.get_my_commands() == ()
    with pytest.raises(BadRequest, match="(?i)BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand("New", "capital letters")])
    assert len(fake.violations) == 1


async def test_profile_and_bulk_delete(fake, bot):
    await bot.set_my_description("Board games in your group", language_code="en")
    await bot.set_my_short_description("Игры", language_code="ru")
    assert (await bot.get_my_description(language_code="en")).description.startswith("Board")
    assert fake.profile("short_description", "ru") == "Игры"
    with pytest.raises(BadRequest):
        await bot.set_my_short_description("x" * 121)
    ids = [(await bot.send_message(GROUP, str(i))).message_id for i in range(3)]
    assert await bot.delete_messages(GROUP, ids[:2])
    assert [m.text for m in fake.messages(GROUP)] == ["2"]
    assert len(fake.violations) == 1


async def test_dice(fake, bot):
    fake.set_next_dice(4)
    msg = await bot.send_dice(GROUP)
    assert msg.dice.value == 4 and msg.dice.emoji == "🎲"
    assert fake.message(GROUP, msg.message_id).dice == {"emoji": "🎲", "value": 4}
    assert 1 <= (await bot.send_dice(GROUP, emoji="🏀")).dice.value <= 5


async def test_writes_per_minute(fake, bot):
    for i in range(5):
        await bot.send_message(GROUP, f"m{i}")
    await bot.edit_message_text("e", chat_id=GROUP, message_id=1)
    await bot.get_chat(GROUP)
    await bot.send_message(ANNA, "dm")
    assert fake.writes_per_minute(GROUP) == 6
    assert fake.writes_per_minute(ANNA) == 1


# ---- updates -----------------------------------------------------------------------------------


async def test_updates_from_users_parse_in_ptb(fake, bot):
    sent = await bot.send_message(GROUP, "Lobby", reply_markup=keyboard([("Join", "lucky:0:j")]))
    fake.user_sends(ANNA, GROUP, "/new@tablebot_test_bot lucky")
    qid = fake.user_presses(BORIS, GROUP, sent.message_id, "lucky:0:j")
    fake.user_presses(CARL, GROUP, sent.message_id, "garbage")  # not on the keyboard: allowed
    assert fake.pending_updates() == 3
    ups = await bot.get_updates(timeout=1)
    assert len(ups) == 3 and all(isinstance(u, Update) for u in ups)
    cmd, press, junk = ups
    assert cmd.effective_user.id == ANNA and cmd.effective_chat.id == GROUP
    assert cmd.message.text == "/new@tablebot_test_bot lucky"
    assert cmd.message.entities[0].type == "bot_command" and cmd.message.entities[0].length == 22
    assert press.callback_query.id == qid and press.callback_query.data == "lucky:0:j"
    assert press.callback_query.from_user.first_name == "Boris"
    assert press.callback_query.message.message_id == sent.message_id
    assert press.callback_query.message.reply_markup.inline_keyboard[0][0].text == "Join"
    assert press.callback_query.chat_instance
    assert junk.callback_query.data == "garbage"
    # unconfirmed updates are delivered again; an offset confirms them
    assert len(await bot.get_updates()) == 3
    assert await bot.get_updates(offset=ups[-1].update_id + 1) == ()
    assert fake.pending_updates() == 0
    # answering: exactly once
    assert await press.callback_query.answer("Joined!", show_alert=True)
    assert fake.callback_answer(qid) == {"callback_query_id": qid, "text": "Joined!",
                                         "show_alert": True}
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await press.callback_query.answer()
    assert "answered twice" in fake.violations[-1]
    with pytest.raises(BadRequest, match="(?i)URL_INVALID"):
        await junk.callback_query.answer(url="https://example.org")
    await junk.callback_query.answer(url=f"https://t.me/{fake.bot_username}?start=j_123")
    with pytest.raises(BadRequest, match="(?i)MESSAGE_TOO_LONG"):
        await bot.answer_callback_query(qid, text="x" * 201)
    assert fake.unanswered_callbacks() == []


async def test_long_polling_returns_promptly(fake, bot):
    t0 = time.monotonic()
    assert await bot.get_updates(timeout=1) == ()
    assert 0.9 <= time.monotonic() - t0 < 2.0  # it really waited for the timeout

    async def later():
        await asyncio.sleep(0.2)
        fake.user_sends(ANNA, ANNA, "hi")

    t0 = time.monotonic()
    task = asyncio.create_task(later())
    ups = await bot.get_updates(timeout=5)
    await task
    assert time.monotonic() - t0 < 1.0
    assert ups[0].message.text == "hi" and ups[0].message.chat.type == "private"


async def test_settle_and_wait_for(fake, bot):
    fake.user_sends(ANNA, GROUP, "/ping")

    async def consume():
        ups = await bot.get_updates(timeout=1)
        await bot.send_message(GROUP, "pong")
        await bot.get_updates(offset=ups[-1].update_id + 1, timeout=0)

    task = asyncio.create_task(consume())
    await fake.wait_for(lambda: fake.last_bot_message(GROUP))
    await fake.settle(quiet=0.1, timeout=5)
    await task
    assert fake.pending_updates() == 0
    with pytest.raises(AssertionError):
        await fake.wait_for(lambda: False, timeout=0.05)


async def test_privacy_mode_hides_plain_group_messages(fake, bot):
    board = await bot.send_message(GROUP, "board")
    fake.user_sends(ANNA, GROUP, "just chatting")  # hidden from a bot in privacy mode
    fake.user_sends(ANNA, GROUP, "/new lucky")
    fake.user_sends(ANNA, GROUP, "/new@other_bot lucky")  # another bot's command: hidden
    fake.user_sends(BORIS, GROUP, "ok", reply_to=board.message_id)
    fake.user_sends(BORIS, GROUP, "hey @tablebot_test_bot")
    fake.user_sends(BORIS, BORIS, "anything in private")
    texts = [u.message.text for u in await bot.get_updates()]
    assert texts == ["/new lucky", "ok", "hey @tablebot_test_bot", "anything in private"]
    assert [m.text for m in fake.messages(GROUP)][:2] == ["board", "just chatting"]
    # a bot that is an admin sees everything
    fake.add_group(GROUP - 5, "Admins", admins=(fake.bot_id,))
    fake.user_sends(ANNA, GROUP - 5, "just chatting")
    assert fake.pending_updates() == 5


async def test_optional_flood_control(bot):
    flood = FakeBotAPI(flood_limit=3)
    flood.start()
    try:
        flood.add_group(GROUP, "G")
        flood.add_user(ANNA, "Anna")
        async with Bot(flood.token, base_url=flood.base_url) as b:
            for i in range(3):
                await b.send_message(GROUP, str(i))
            with pytest.raises(RetryAfter):
                await b.edit_message_text("x", chat_id=GROUP, message_id=1)
            for i in range(5):  # private chats are not limited per minute
                await b.send_message(ANNA, str(i))
        assert flood.writes_per_minute(GROUP) == 3
        assert flood.writes_per_minute(GROUP, include_failed=True) == 4
        assert flood.violations == []
    finally:
        flood.stop()


async def test_a_limit_for_the_whole_bot_unknown_to_it(bot):
    limited = FakeBotAPI(bot_limit=3)
    limited.start()
    try:
        for chat in (GROUP, GROUP - 1, GROUP - 2):
            limited.add_group(chat, "G")
        limited.add_user(ANNA, "Anna")
        async with Bot(limited.token, base_url=limited.base_url) as b:
            sent = await b.send_message(GROUP, "1")
            await b.edit_message_text("1 edited", chat_id=GROUP, message_id=sent.message_id)  # edits count
            await b.send_message(ANNA, "2")  # private chats too
            with pytest.raises(RetryAfter):  # a fourth write within the second, to another group
                await b.send_message(GROUP - 1, "3")
            with pytest.raises(RetryAfter):  # that group waits its retry_after out, whatever the bot's second
                limited.set_bot_limit(None)
                await b.send_message(GROUP - 1, "3")
            await b.send_message(GROUP - 2, "4")  # the limit lifted: another chat writes again
            limited.set_bot_limit(3)
            await asyncio.sleep(1.0)  # a new second, and its retry_after passed
            await b.send_message(GROUP - 1, "3")
            # Paid broadcasts are outside the limit.
            for _ in range(5):
                await b.send_message(ANNA, "paid", allow_paid_broadcast=True)
        assert limited.floods_by_kind() == {"bot": 1, "held": 1}
        assert [m.text for m in limited.messages(GROUP - 1)] == ["3"]
        assert limited.violations == []
    finally:
        limited.stop()


async def test_a_groups_limit_counts_edits_in_a_window_of_its_own(bot):
    limited = FakeBotAPI(flood_limit=3, flood_window=0.5)
    limited.start()
    try:
        limited.add_group(GROUP, "G")
        async with Bot(limited.token, base_url=limited.base_url) as b:
            sent = await b.send_message(GROUP, "1")
            await b.edit_message_text("2", chat_id=GROUP, message_id=sent.message_id)
            await b.edit_message_text("3", chat_id=GROUP, message_id=sent.message_id)
            with pytest.raises(RetryAfter):  # a fourth within half a second: refused for a second (at least 1)
                await b.edit_message_text("4", chat_id=GROUP, message_id=sent.message_id)
            await asyncio.sleep(1.0)
            await b.edit_message_text("4", chat_id=GROUP, message_id=sent.message_id)
        assert limited.floods_by_kind() == {"group": 1}
        assert limited.writes_per_minute(GROUP, window=0.5) == 3
    finally:
        limited.stop()


async def test_json_bodies_and_query_strings_are_understood(fake):

    import httpx

    url = f"{fake.base_url}{fake.token}"
    async with httpx.AsyncClient() as client:
        r = await client.post(f"{url}/sendMessage", json={
            "chat_id": GROUP, "text": "json",
            "reply_markup": {"inline_keyboard": [[{"text": "a", "callback_data": "b"}]]}})
        assert r.status_code == 200 and r.json()["result"]["text"] == "json"
        r = await client.get(f"{url}/getChat", params={"chat_id": str(GROUP)})
        assert r.json()["result"]["title"] == "Game night"
        r = await client.post(f"{url}/sendMessage", json={"chat_id": GROUP, "text": 5,
                                                          "disable_notification": "maybe"})
        assert r.status_code == 400 and r.json()["ok"] is False
        r = await client.get(f"{fake.base_url}wrong:token/getMe")
        assert r.status_code == 401
    assert fake.last_bot_message(GROUP).callback_data == ["b"]
    assert len(fake.violations) == 2


async def test_a_request_cut_off_mid_body_is_not_acted_on(fake):
    """A client killed while uploading (kill -9 in the middle of an edit) leaves half a body:
    the server neither acts on it nor calls it a bad request."""
    host, port = fake.base_url.split("//")[1].split("/")[0].split(":")
    body = (b"--b\r\nContent-Disposition: form-data; name=\"chat_id\"\r\n\r\n"
            + str(GROUP).encode() + b"\r\n--b\r\nContent-Disposition: form-data; name=\"text\""
            b"\r\n\r\nhalf")
    head = (f"POST /bot{fake.token}/sendMessage HTTP/1.1\r\nHost: {host}\r\n"
            f"Content-Type: multipart/form-data; boundary=b\r\nContent-Length: {len(body) + 500}"
            "\r\n\r\n").encode()
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(head + body)
    await writer.drain()
    writer.close()
    assert await reader.read() == b"", "no answer to half a request"
    await asyncio.sleep(0.2)
    assert fake.messages(GROUP) == [] and fake.violations == []


async def test_application_polling_end_to_end(fake):
    async def echo(update, context):
        await update.message.reply_text(" ".join(context.args) or "echo")

    app = (ApplicationBuilder().token(fake.token).base_url(fake.base_url)
           .base_file_url(fake.base_file_url).build())
    app.add_handler(CommandHandler("echo", echo))
    await app.initialize()
    await app.start()
    await app.updater.start_polling(poll_interval=0, timeout=1)
    try:
        fake.user_sends(ANNA, GROUP, "/echo hello world")
        fake.user_starts_private(BORIS)
        fake.user_sends(BORIS, BORIS, "/echo@tablebot_test_bot private")
        await fake.wait_for(lambda: fake.last_bot_message(BORIS))
        await fake.settle(quiet=0.1, timeout=5)
    finally:
        t0 = time.monotonic()
        await app.updater.stop()
        await app.stop()
        await app.shutdown()
        elapsed = time.monotonic() - t0
    assert elapsed < 3.0
    reply = fake.last_bot_message(GROUP)
    assert reply.text == "hello world" and reply.reply_to_message_id == 1
    assert fake.last_bot_message(BORIS).text == "private"
    assert fake.pending_updates() == 0
    assert fake.violations == []
