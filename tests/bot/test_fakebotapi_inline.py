"""The fake Bot API's inline mode (tests/fakebotapi/inline.py), driven by python-telegram-bot's
Bot: queries from chats the bot is not in, answers and their limits, chosen results, presses on
inline messages, edits by inline_message_id and Telegram's refusals of them."""

from __future__ import annotations

import asyncio
import io
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from PIL import Image
from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultCachedPhoto,
    InlineQueryResultPhoto,
    InlineQueryResultsButton,
    InputMediaPhoto,
    InputTextMessageContent,
    WebAppInfo,
)
from telegram.error import BadRequest, NetworkError

from tests.fakebotapi import FakeBotAPI

pytestmark = pytest.mark.filterwarnings(
    "ignore:Please use 'Bot:UserWarning",  # do_api_request on purpose, to send bad requests
)

ANNA, BORIS, CARL, DORA = 1001, 1002, 1003, 1004
GROUP = -1001234567890  # the bot is a member
FOREIGN = -1002000000001  # a supergroup the bot is not in
FORUM = -1002000000002  # a forum the bot is not in
BASIC = -4005  # a basic group the bot is not in
CHANNEL = -1002000000003  # a channel the bot is not in; Anna created it
# A well-formed inline_message_id (DC 2) that this fake never issued: the one a real bot's test
# edits in pengrad's java-telegram-bot-api.
STRANGER_ID = "AgAAAPrwAQCj_Q4D2s-51_8jsuU"


def png(width: int = 40, height: int = 30, colour: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buf, "PNG")
    return buf.getvalue()


def jpeg(width: int = 40, height: int = 30) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), "green").save(buf, "JPEG")
    return buf.getvalue()


def keyboard(*pairs: tuple[str, str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(t, callback_data=d) for t, d in pairs]])


def article(rid: str, text: str = "A lobby", markup: InlineKeyboardMarkup | None = None,
            **kwargs) -> InlineQueryResultArticle:
    return InlineQueryResultArticle(rid, kwargs.pop("title", f"Game {rid}"),
                                    InputTextMessageContent(text, parse_mode=kwargs.pop(
                                        "parse_mode", None)), reply_markup=markup, **kwargs)


@pytest.fixture
def fake():
    f = FakeBotAPI()
    f.start()
    f.add_user(ANNA, "Anna", username="anna")
    f.add_user(BORIS, "Boris")
    f.add_user(CARL, "Carl", opened_private=False)  # has never talked to the bot
    f.add_user(DORA, "Dora")
    f.add_group(GROUP, "Game night", creator=ANNA)
    f.add_chat_without_bot(FOREIGN, "Book club")
    f.add_chat_without_bot(FORUM, "Forum", is_forum=True)
    f.add_chat_without_bot(BASIC, "Family", type="group")
    f.add_chat_without_bot(CHANNEL, "News", type="channel", creator=ANNA)
    f.set_inline_mode(True, feedback=True)
    yield f
    f.stop()
    assert not [v for v in f.violations if "fake Bot API bug" in v], f.violations


@pytest.fixture
async def bot(fake):
    async with Bot(fake.token, base_url=fake.base_url, base_file_url=fake.base_file_url) as b:
        yield b


@pytest.fixture
def pictures():
    """A picture server on 127.0.0.1, as the bot's own web server would be: {path: (status,
    content type, bytes)}; yields (base URL, the routes to fill)."""
    routes: dict[str, tuple[int, str, bytes]] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server naming
            status, ctype, body = routes.get(self.path, (404, "text/plain", b"not found"))
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", routes
    server.shutdown()
    server.server_close()


async def answered(fake, bot, user: int, chat, results, query: str = "", **kwargs) -> str:
    """A query typed by ``user`` in ``chat``, answered by the bot with ``results``."""
    qid = fake.user_queries_inline(user, chat, query)
    assert await bot.answer_inline_query(qid, results, **kwargs) is True
    return qid


async def posted(fake, bot, user: int, chat, markup=keyboard(("Join", "j")), text="A lobby"):
    """An inline message with a keyboard, chosen by ``user`` in ``chat``."""
    qid = await answered(fake, bot, user, chat, [article("lobby", text, markup)])
    return fake.user_chooses_result(user, qid, "lobby")


async def sent_photo_id(bot, colour: str = "blue") -> str:
    """The file_id of a photo the bot uploaded before (to Anna's private chat)."""
    return (await bot.send_photo(ANNA, png(colour=colour))).photo[-1].file_id


async def updates(bot) -> list:
    ups = await bot.get_updates(timeout=0)
    if ups:
        await bot.get_updates(offset=ups[-1].update_id + 1, timeout=0)
    return list(ups)


# ---- BotFather's switches ----------------------------------------------------------------------


async def test_get_me_says_whether_inline_mode_is_on_and_off_means_no_queries(fake, bot):
    assert (await bot.get_me()).supports_inline_queries is True
    fake.set_inline_mode(False)
    assert (await bot.get_me()).supports_inline_queries is False
    assert fake.user_queries_inline(ANNA, ANNA, "gen") is None
    assert await updates(bot) == []
    assert FakeBotAPI().inline_mode is False  # a new bot, as BotFather makes it


async def test_feedback_off_sends_no_chosen_inline_result(fake, bot):
    fake.set_inline_mode(True, feedback=False)
    pair = fake.add_private_pair(ANNA, BORIS)
    m = await posted(fake, bot, ANNA, pair)
    ups = await updates(bot)
    assert [u.inline_query is not None for u in ups] == [True]  # the query, nothing after it
    assert m.inline_message_id and fake.inline_message(m.inline_message_id) is m


# ---- inline queries ----------------------------------------------------------------------------


async def test_queries_carry_the_chat_type_of_where_they_were_typed(fake, bot):
    pair = fake.add_private_pair(ANNA, CARL)
    assert fake.add_private_pair(CARL, ANNA) == pair  # one chat for both
    ids = [
        fake.user_queries_inline(ANNA, ANNA, "gen"),  # her own chat with the bot
        fake.user_queries_inline(ANNA, CARL, "конусы"),  # her chat with Carl, by his id
        fake.user_queries_inline(CARL, pair, ""),  # the same chat, by its key
        fake.user_queries_inline(BORIS, GROUP, "x" * 256),
        fake.user_queries_inline(BORIS, FOREIGN, "lucky"),
        fake.user_queries_inline(BORIS, BASIC, "lucky"),
        fake.user_queries_inline(DORA, FORUM, "trio", message_thread_id=7),
        fake.user_queries_inline(ANNA, CHANNEL, "news"),
    ]
    ups = await updates(bot)
    queries = [u.inline_query for u in ups]
    assert [q.id for q in queries] == ids and len(set(ids)) == len(ids)
    assert [q.chat_type for q in queries] == ["sender", "private", "private", "supergroup",
                                              "supergroup", "group", "supergroup", "channel"]
    assert [q.from_user.id for q in queries] == [ANNA, ANNA, CARL, BORIS, BORIS, BORIS, DORA, ANNA]
    assert queries[1].query == "конусы" and queries[3].query == "x" * 256
    assert all(q.offset == "" for q in queries)
    assert fake.unanswered_inline_queries() == ids


async def test_people_query_only_where_they_can_write(fake):
    fake.add_outsider(FOREIGN, CARL)
    with pytest.raises(ValueError, match="256"):
        fake.user_queries_inline(ANNA, ANNA, "x" * 257)
    with pytest.raises(ValueError, match="add_private_pair"):
        fake.user_queries_inline(ANNA, BORIS, "gen")
    with pytest.raises(ValueError, match="not in chat"):
        fake.user_queries_inline(CARL, FOREIGN, "gen")
    with pytest.raises(ValueError, match="cannot post"):
        fake.user_queries_inline(BORIS, CHANNEL, "gen")
    with pytest.raises(ValueError, match="not a forum"):
        fake.user_queries_inline(BORIS, FOREIGN, "gen", message_thread_id=7)
    with pytest.raises(ValueError, match="never opened"):
        fake.user_queries_inline(CARL, CARL, "gen")
    pair = fake.add_private_pair(ANNA, BORIS)
    with pytest.raises(ValueError, match="not in chat"):
        fake.user_queries_inline(DORA, pair, "gen")


# ---- answerInlineQuery -------------------------------------------------------------------------


async def test_an_answer_is_kept_with_every_parameter(fake, bot, pictures):
    base, routes = pictures
    routes["/board.jpg"] = (200, "image/jpeg", jpeg())
    photo_id = await sent_photo_id(bot)
    qid = fake.user_queries_inline(ANNA, GROUP, "gen")
    results = [
        article("genial", "<b>Genial</b> lobby", keyboard(("Join", "g:j"), ("Start", "g:s")),
                parse_mode="HTML", description="Hexagons", thumbnail_url=f"{base}/thumb.png"),
        InlineQueryResultCachedPhoto("cones", photo_id, caption="Cones",
                                     reply_markup=InlineKeyboardMarkup([[
                                         InlineKeyboardButton(
                                             "Another", switch_inline_query_current_chat="cones")]])),
        InlineQueryResultPhoto("trio", f"{base}/board.jpg", f"{base}/thumb.jpg",
                               caption="Trio"),
    ]
    assert await bot.answer_inline_query(
        qid, results, cache_time=5, is_personal=True, next_offset="3",
        button=InlineQueryResultsButton("Get your hand in private", start_parameter="inline"))
    kept = fake.inline_answer(qid)
    assert kept["cache_time"] == 5 and kept["is_personal"] is True and kept["next_offset"] == "3"
    assert kept["button"] == {"text": "Get your hand in private", "start_parameter": "inline"}
    assert [r["id"] for r in fake.inline_results(qid)] == ["genial", "cones", "trio"]
    assert fake.inline_results(qid)[0]["input_message_content"]["message_text"] == (
        "<b>Genial</b> lobby")
    assert fake.unanswered_inline_queries() == []
    # the same query answered again: Telegram's refusal, and the bot's mistake
    with pytest.raises(BadRequest, match="(?i)query is too old and response timeout expired"):
        await bot.answer_inline_query(qid, results[:1])
    assert fake.violations == [f"answerInlineQuery: inline query {qid} answered twice "
                               f"(query 'gen')"]
    # a Mini App button above the results is an answer too
    other = fake.user_queries_inline(ANNA, GROUP, "")
    assert await bot.answer_inline_query(other, [], button=InlineQueryResultsButton(
        "Open the table", web_app=WebAppInfo("https://example.org/app")))
    assert fake.inline_results(other) == []


def bad_answers(base: str) -> list[tuple[str, dict, str]]:
    """(case, parameters besides inline_query_id, Telegram's description) for answers Telegram
    refuses."""
    text = {"message_text": "A lobby"}

    def art(rid="a", **extra):
        return {"type": "article", "id": rid, "title": "Game", "input_message_content": text,
                **extra}

    return [
        ("51 results", {"results": [art(str(i)) for i in range(51)]},
         "too many inline query results specified"),
        ("duplicate id", {"results": [art("a"), art("a")]}, "RESULT_ID_DUPLICATE"),
        ("empty id", {"results": [art("")]}, "RESULT_ID_INVALID"),
        ("65-byte id", {"results": [art("é" * 32 + "x")]}, "RESULT_ID_INVALID"),
        ("long next_offset", {"results": [art()], "next_offset": "9" * 65},
         "NEXT_OFFSET_INVALID"),
        ("empty title", {"results": [{**art(), "title": ""}]}, "ARTICLE_TITLE_EMPTY"),
        ("article without content", {"results": [{"type": "article", "id": "a",
                                                  "title": "Game"}]},
         "input_message_content"),
        ("empty text", {"results": [art(input_message_content={"message_text": ""})]},
         "message text is empty"),
        ("bad HTML", {"results": [art(input_message_content={"message_text": "<b>x",
                                                             "parse_mode": "HTML"})]},
         "can't parse entities"),
        ("65-byte callback data", {"results": [art(reply_markup={"inline_keyboard": [[
            {"text": "Join", "callback_data": "x" * 65}]]})]}, "BUTTON_DATA_INVALID"),
        ("web_app button in an inline message", {"results": [art(reply_markup={
            "inline_keyboard": [[{"text": "Table", "web_app": {"url": "https://example.org"}}]]})]},
         "BUTTON_TYPE_INVALID"),
        ("empty start_parameter", {"results": [], "button": {"text": "Start",
                                                             "start_parameter": ""}},
         "can't use empty start_parameter"),
        ("long start_parameter", {"results": [], "button": {"text": "Start",
                                                            "start_parameter": "s" * 65}},
         "too long start_parameter specified"),
        ("start_parameter with a space", {"results": [], "button": {
            "text": "Start", "start_parameter": "my game"}},
         "unallowed characters in start_parameter are used"),
        ("button with no action", {"results": [], "button": {"text": "Start"}},
         "must have exactly one optional field"),
        ("unknown cached photo", {"results": [{"type": "photo", "id": "p",
                                               "photo_file_id": "AgACAgIAAxkBAAInope"}]},
         "wrong file identifier/HTTP URL specified"),
        ("photo without thumbnail", {"results": [{"type": "photo", "id": "p",
                                                  "photo_url": f"{base}/board.jpg",
                                                  "thumbnail_url": ""}]},
         "PHOTO_THUMB_URL_EMPTY"),
        ("photo by a PNG URL", {"results": [{"type": "photo", "id": "p",
                                             "photo_url": f"{base}/board.png",
                                             "thumbnail_url": f"{base}/board.png"}]},
         "PHOTO_CONTENT_TYPE_INVALID"),
        ("photo from the internet", {"results": [{"type": "photo", "id": "p",
                                                  "photo_url": "https://example.org/a.jpg",
                                                  "thumbnail_url": "https://example.org/t.jpg"}]},
         "WEBDOCUMENT_INVALID"),
    ]


async def test_answers_telegram_refuses_are_violations(fake, bot, pictures):
    base, routes = pictures
    routes["/board.png"] = (200, "image/png", png())
    for case, params, description in bad_answers(base):
        qid = fake.user_queries_inline(ANNA, GROUP, case)
        before = len(fake.violations)
        with pytest.raises(BadRequest, match=f"(?i){description}"):
            await bot.do_api_request("answerInlineQuery",
                                     api_kwargs={"inline_query_id": qid, **params})
        assert len(fake.violations) == before + 1, case
        assert fake.inline_answer(qid) is None, case
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await bot.answer_inline_query("123456789", [])  # never asked
    assert "unknown inline query id" in fake.violations[-1]


async def test_answering_again_after_a_lost_reply_is_no_violation(fake, bot):
    qid = fake.user_queries_inline(ANNA, ANNA, "gen")
    fake.set_faults(rate=1.0, kinds=("drop_after",), methods={"answerInlineQuery"})
    with pytest.raises(NetworkError):
        await bot.answer_inline_query(qid, [article("a")])
    fake.clear_faults()
    assert fake.inline_results(qid)[0]["id"] == "a"  # Telegram took it; the bot never heard
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await bot.answer_inline_query(qid, [article("a")])
    assert fake.violations == []


async def test_a_late_answer_is_refused_but_is_no_violation(fake, bot):
    fake.inline_answer_timeout = 0.05
    qid = fake.user_queries_inline(ANNA, ANNA, "gen")
    await asyncio.sleep(0.1)
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await bot.answer_inline_query(qid, [article("a")])
    assert fake.inline_answer(qid) is None and fake.violations == []
    with pytest.raises(ValueError, match="no answer"):
        fake.user_chooses_result(ANNA, qid, "a")


async def test_scrolling_sends_the_next_offset(fake, bot):
    qid = await answered(fake, bot, ANNA, GROUP, [article("1")], query="g", next_offset="1")
    more = fake.user_scrolls_results(qid)
    assert more != qid and fake.inline_query(more).offset == "1"
    assert await bot.answer_inline_query(more, [article("2")], next_offset="")
    assert fake.user_scrolls_results(more) is None
    ups = await updates(bot)
    assert [(u.inline_query.query, u.inline_query.offset) for u in ups] == [("g", ""), ("g", "1")]


# ---- choosing a result -------------------------------------------------------------------------


async def test_a_chosen_result_is_posted_via_the_bot_in_the_chat_of_the_query(fake, bot):
    pair = fake.add_private_pair(ANNA, BORIS)
    qid = await answered(fake, bot, ANNA, BORIS, [
        article("lobby", "<b>Genial</b>: join!", keyboard(("Join", "g:j")), parse_mode="HTML"),
        article("plain", "No buttons here")], query="gen")
    m = fake.user_chooses_result(ANNA, qid, "lobby")
    assert m.chat_id == pair and m.sender["id"] == ANNA and not m.from_bot
    assert m.via_bot["id"] == fake.bot_id and m.via_bot["username"] == fake.bot_username
    assert m.text == "Genial: join!" and m.entities[0]["type"] == "bold"
    assert m.callback_data == ["g:j"] and m.edits == 0
    imid = m.inline_message_id
    assert isinstance(imid, str) and len(imid) == 32 and fake.inline_message(imid) is m
    plain = fake.user_chooses_result(ANNA, qid, "plain")  # chosen again from the same list
    assert plain.inline_message_id is None and plain.text == "No buttons here"
    assert fake.messages(pair) == [m, plain] and fake.inline_messages(pair) == [m]
    ups = await updates(bot)  # the bot is not in their chat: only the query and the feedback
    assert [u.inline_query is not None for u in ups] == [True, False, False]
    chosen = [u.chosen_inline_result for u in ups[1:]]
    assert [(c.result_id, c.query, c.from_user.id) for c in chosen] == [
        ("lobby", "gen", ANNA), ("plain", "gen", ANNA)]
    assert chosen[0].inline_message_id == imid and chosen[1].inline_message_id is None
    with pytest.raises(ValueError, match="only the person"):
        fake.user_chooses_result(BORIS, qid, "lobby")
    with pytest.raises(ValueError, match="no result 'nope'"):
        fake.user_chooses_result(ANNA, qid, "nope")


async def test_where_the_bot_is_it_gets_the_message_sent_via_it(fake, bot):
    own = await posted(fake, bot, ANNA, ANNA)  # in her own chat with the bot
    group = await posted(fake, bot, BORIS, GROUP)  # a group with the bot in privacy mode
    ups = await updates(bot)
    messages = [u.message for u in ups if u.message is not None]
    assert [(x.chat.id, x.message_id) for x in messages] == [
        (ANNA, own.message_id), (GROUP, group.message_id)]
    assert all(x.via_bot.id == fake.bot_id for x in messages)
    assert messages[1].from_user.id == BORIS and messages[1].reply_markup.inline_keyboard


async def test_photo_results_post_the_photo_and_a_channel_post_is_the_channels(fake, bot,
                                                                               pictures):
    base, routes = pictures
    routes["/board.jpg"] = (200, "image/jpeg", jpeg(60, 40))
    photo_id = await sent_photo_id(bot)
    qid = await answered(fake, bot, ANNA, CHANNEL, [
        InlineQueryResultCachedPhoto("cached", photo_id, caption="<i>Cones</i>",
                                     parse_mode="HTML", reply_markup=keyboard(("Join", "c:j"))),
        InlineQueryResultPhoto("url", f"{base}/board.jpg", f"{base}/thumb.jpg",
                               caption="Trio")])
    cached = fake.user_chooses_result(ANNA, qid, "cached")
    assert cached.photo_file_id == photo_id and cached.caption == "Cones"
    assert cached.caption_entities[0]["type"] == "italic" and cached.inline_message_id
    by_url = fake.user_chooses_result(ANNA, qid, "url")
    assert by_url.photo == jpeg(60, 40) and by_url.photo_size == (60, 40)
    assert by_url.inline_message_id is None  # no keyboard, no id
    assert cached.sender is None and cached.sender_chat["id"] == CHANNEL  # signed by the channel


async def test_a_forum_topic_gets_the_message_in_its_topic(fake, bot):
    qid = fake.user_queries_inline(DORA, FORUM, "trio", message_thread_id=7)
    await bot.answer_inline_query(qid, [article("t", markup=keyboard(("Join", "t:j")))])
    m = fake.user_chooses_result(DORA, qid, "t")
    assert m.chat_id == FORUM and m.message_thread_id == 7


# ---- presses on inline messages ----------------------------------------------------------------


async def test_presses_carry_the_inline_message_id_and_the_chats_one_chat_instance(fake, bot):
    pair = fake.add_private_pair(ANNA, BORIS)
    lobby = await posted(fake, bot, ANNA, pair)
    there = await posted(fake, bot, BORIS, FOREIGN)
    await updates(bot)
    presses = [fake.user_presses_inline(BORIS, lobby.inline_message_id, "j"),
               fake.user_presses(ANNA, pair, lobby.message_id, "j"),  # by the chat's message
               fake.user_presses_inline(DORA, there.inline_message_id, "j")]
    queries = [u.callback_query for u in await updates(bot)]
    assert [q.id for q in queries] == presses
    assert [q.from_user.id for q in queries] == [BORIS, ANNA, DORA]
    assert all(q.message is None for q in queries)
    assert [q.inline_message_id for q in queries] == [lobby.inline_message_id] * 2 + [
        there.inline_message_id]
    assert queries[0].chat_instance == queries[1].chat_instance == fake.chat_instance(pair)
    assert queries[2].chat_instance == fake.chat_instance(FOREIGN) != fake.chat_instance(pair)
    assert fake.chat_instance(ANNA) not in (fake.chat_instance(pair), fake.chat_instance(GROUP))
    # answered as any press: a pop-up with a start link, once
    assert await queries[0].answer("Open the bot first", show_alert=True,
                                   url=f"https://t.me/{fake.bot_username}?start=hand")
    assert await queries[1].answer() and await queries[2].answer()
    assert fake.unanswered_callbacks() == [] and fake.violations == []
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await queries[0].answer()
    assert "answered twice" in fake.violations[-1]


async def test_only_people_in_the_chat_press_and_an_unknown_id_is_the_odd_press(fake, bot):
    pair = fake.add_private_pair(ANNA, BORIS)
    lobby = await posted(fake, bot, ANNA, pair)
    with pytest.raises(ValueError, match="not in chat"):
        fake.user_presses_inline(CARL, lobby.inline_message_id, "j")
    fake.user_deletes_message(pair, lobby.message_id)
    with pytest.raises(ValueError, match="deleted"):
        fake.user_presses_inline(BORIS, lobby.inline_message_id, "j")
    await updates(bot)
    odd = fake.user_presses_inline(CARL, STRANGER_ID, "x")  # a message the fake never sent
    (update,) = await updates(bot)
    assert update.callback_query.id == odd and update.callback_query.message is None
    assert update.callback_query.chat_instance not in (fake.chat_instance(pair),
                                                       fake.chat_instance(CARL))
    await bot.answer_callback_query(odd)
    assert fake.violations == []


# ---- edits by inline_message_id ----------------------------------------------------------------


async def test_edits_by_inline_message_id_answer_true_and_change_the_message(fake, bot):
    pair = fake.add_private_pair(ANNA, BORIS)
    m = await posted(fake, bot, ANNA, pair)
    imid = m.inline_message_id
    assert await bot.edit_message_text("<b>Anna</b> hosts", inline_message_id=imid,
                                       parse_mode="HTML", reply_markup=keyboard(("Start", "s")))
    assert m.text == "Anna hosts" and m.callback_data == ["s"] and m.edits == 1
    with pytest.raises(BadRequest, match="(?i)message is not modified"):
        await bot.edit_message_text("<b>Anna</b> hosts", inline_message_id=imid,
                                    parse_mode="HTML", reply_markup=keyboard(("Start", "s")))
    assert await bot.edit_message_reply_markup(inline_message_id=imid,
                                               reply_markup=keyboard(("Go", "go")))
    with pytest.raises(BadRequest, match="(?i)message is not modified"):
        await bot.edit_message_reply_markup(inline_message_id=imid,
                                            reply_markup=keyboard(("Go", "go")))
    # a text becomes a photo: editMessageMedia "adds media to text messages"
    photo_id = await sent_photo_id(bot)
    assert await bot.edit_message_media(InputMediaPhoto(photo_id, caption="Turn 1"),
                                        inline_message_id=imid, reply_markup=keyboard(("Go", "g")))
    assert m.text is None and m.photo_file_id == photo_id and m.caption == "Turn 1"
    with pytest.raises(BadRequest, match="(?i)message is not modified"):
        await bot.edit_message_media(InputMediaPhoto(photo_id, caption="Turn 1"),
                                     inline_message_id=imid, reply_markup=keyboard(("Go", "g")))
    assert await bot.edit_message_caption(inline_message_id=imid, caption="Turn 2",
                                          reply_markup=keyboard(("Go", "g")))
    # without reply_markup the keyboard goes, as in a chat; the id still edits the message
    assert await bot.edit_message_caption(inline_message_id=imid, caption="The end")
    assert m.caption == "The end" and m.reply_markup is None and m.edits == 5
    assert fake.inline_message(imid) is m and fake.violations == []


async def test_edits_of_the_wrong_kind_of_inline_message_are_violations(fake, bot):
    m = await posted(fake, bot, BORIS, FOREIGN)
    with pytest.raises(BadRequest, match="(?i)there is no caption in the message to edit"):
        await bot.edit_message_caption(inline_message_id=m.inline_message_id, caption="x")
    await bot.edit_message_media(InputMediaPhoto(await sent_photo_id(bot)),
                                 inline_message_id=m.inline_message_id)
    with pytest.raises(BadRequest, match="(?i)there is no text in the message to edit"):
        await bot.edit_message_text("x", inline_message_id=m.inline_message_id)
    with pytest.raises(BadRequest, match="(?i)BUTTON_TYPE_INVALID"):  # no Mini App buttons
        await bot.edit_message_caption(
            inline_message_id=m.inline_message_id, caption="x", reply_markup=InlineKeyboardMarkup(
                [[InlineKeyboardButton("Table", web_app=WebAppInfo("https://example.org"))]]))
    assert len(fake.violations) == 3 and m.edits == 1


async def test_an_inline_edit_that_uploads_a_file_is_refused_as_telegram_refuses_it(fake, bot):
    m = await posted(fake, bot, ANNA, ANNA)
    with pytest.raises(BadRequest, match="(?i)^invalid message content specified$"):
        await bot.edit_message_media(InputMediaPhoto(png(), caption="Turn 1"),
                                     inline_message_id=m.inline_message_id)
    assert m.text == "A lobby" and m.photo is None and m.edits == 0
    assert "uploads a file" in fake.violations[-1]
    req = fake.calls("editMessageMedia")[-1]
    assert req.error_code == 400 and req.description == "Bad Request: invalid message content specified"
    # even for a message that is gone: Telegram looks at the upload before the message
    with pytest.raises(BadRequest, match="(?i)invalid message content specified"):
        await bot.edit_message_media(InputMediaPhoto(png()), inline_message_id=STRANGER_ID)
    # but a malformed id is refused first
    with pytest.raises(BadRequest, match="(?i)invalid inline message identifier specified"):
        await bot.edit_message_media(InputMediaPhoto(png()), inline_message_id="BAAAAJ1x")
    assert len(fake.violations) == 3
    # the same picture in a chat message uploads fine
    sent = await bot.send_photo(ANNA, png())
    assert await bot.edit_message_media(InputMediaPhoto(png(colour="blue")), chat_id=ANNA,
                                        message_id=sent.message_id)


async def test_a_media_edit_by_url_fetches_the_picture(fake, bot, pictures):
    base, routes = pictures
    routes["/t/1.png"] = (200, "image/png", png(64, 48, "blue"))
    routes["/notes.txt"] = (200, "text/plain", b"not a picture")
    m = await posted(fake, bot, BORIS, FOREIGN)
    imid = m.inline_message_id
    assert await bot.edit_message_media(InputMediaPhoto(f"{base}/t/1.png", caption="Turn 1"),
                                        inline_message_id=imid, reply_markup=keyboard(("Go", "g")))
    assert m.photo == png(64, 48, "blue") and m.photo_size == (64, 48) and m.caption == "Turn 1"
    with pytest.raises(BadRequest, match="(?i)message is not modified"):  # same URL, same bytes
        await bot.edit_message_media(InputMediaPhoto(f"{base}/t/1.png", caption="Turn 1"),
                                     inline_message_id=imid, reply_markup=keyboard(("Go", "g")))
    routes["/t/1.png"] = (200, "image/png", png(64, 48, "yellow"))  # the picture changed
    assert await bot.edit_message_media(InputMediaPhoto(f"{base}/t/1.png", caption="Turn 1"),
                                        inline_message_id=imid, reply_markup=keyboard(("Go", "g")))
    assert m.photo == png(64, 48, "yellow") and m.edits == 2
    # the bot's server answering 404: Telegram's plain refusal, which a bot must cope with
    with pytest.raises(BadRequest, match="(?i)failed to get HTTP URL content"):
        await bot.edit_message_media(InputMediaPhoto(f"{base}/t/2.png"), inline_message_id=imid)
    assert fake.violations == []
    with pytest.raises(BadRequest, match="(?i)wrong type of the web page content"):
        await bot.edit_message_media(InputMediaPhoto(f"{base}/notes.txt"), inline_message_id=imid)
    with pytest.raises(BadRequest, match="(?i)failed to get HTTP URL content"):
        await bot.edit_message_media(InputMediaPhoto("https://example.org/t.png"),
                                     inline_message_id=imid)
    assert len(fake.violations) == 2 and "only loopback" in fake.violations[-1]
    # a URL served by the fake itself (its file path) is fetched too
    sent = await bot.send_photo(ANNA, png(30, 20, "white"))
    file = await bot.get_file(sent.photo[-1].file_id)
    assert file.file_path.startswith("http://127.0.0.1")
    assert await bot.edit_message_media(InputMediaPhoto(file.file_path), inline_message_id=imid)
    assert m.photo == png(30, 20, "white") and m.edits == 3


async def test_which_message_an_edit_names(fake, bot):
    m = await posted(fake, bot, ANNA, ANNA)
    with pytest.raises(BadRequest, match="(?i)message identifier is not specified"):
        await bot.edit_message_text("x")
    with pytest.raises(BadRequest, match="(?i)not both"):
        await bot.edit_message_text("x", chat_id=ANNA, message_id=m.message_id,
                                    inline_message_id=m.inline_message_id)
    with pytest.raises(BadRequest, match="(?i)invalid inline message identifier specified"):
        await bot.edit_message_reply_markup(inline_message_id="not an id!")
    with pytest.raises(BadRequest, match="(?i)can't be edited"):  # Anna's, not the bot's
        await bot.edit_message_text("x", chat_id=ANNA, message_id=m.message_id)
    assert len(fake.violations) == 4
    # a well-formed id that names no message, or a message people deleted: Telegram's answer,
    # which a bot must cope with (not a violation)
    with pytest.raises(BadRequest, match="(?i)MESSAGE_ID_INVALID"):
        await bot.edit_message_text("x", inline_message_id=STRANGER_ID)
    fake.user_deletes_message(ANNA, m.message_id)
    with pytest.raises(BadRequest, match="(?i)MESSAGE_ID_INVALID"):
        await bot.edit_message_text("x", inline_message_id=m.inline_message_id)
    assert len(fake.violations) == 4 and m.edits == 0


# ---- chats the bot is not in -------------------------------------------------------------------


async def test_the_bot_cannot_write_where_it_is_not(fake, bot):
    pair = fake.add_private_pair(ANNA, BORIS)
    for chat in (FOREIGN, BASIC, CHANNEL):
        with pytest.raises(BadRequest, match="(?i)chat not found"):
            await bot.send_message(chat, "hello")
    with pytest.raises(BadRequest, match="(?i)chat not found"):
        await bot.get_chat(FOREIGN)
    assert len(fake.violations) == 4 and "not a member" in fake.violations[0]
    # what people write there never reaches the bot
    fake.user_sends(ANNA, FOREIGN, "/new@tablebot_test_bot genial")
    with pytest.raises(ValueError):
        fake.user_sends(ANNA, pair, "hi Boris")  # no chat id of the bot's names their chat
    assert await updates(bot) == []


async def test_inline_edits_count_against_the_chat_they_live_in(fake, bot):
    pair = fake.add_private_pair(ANNA, BORIS)
    here, there = await posted(fake, bot, BORIS, FOREIGN), await posted(fake, bot, ANNA, pair)
    for turn in range(3):
        await bot.edit_message_text(f"Turn {turn}", inline_message_id=here.inline_message_id)
    await bot.edit_message_text("Turn 0", inline_message_id=there.inline_message_id)
    edits = fake.calls("editMessageText")
    assert [r.inline_chat for r in edits] == [FOREIGN] * 3 + [pair]
    assert len(fake.calls("editMessageText", chat_id=FOREIGN)) == 3
    assert fake.writes_per_minute(FOREIGN) == 3 and fake.writes_per_minute(pair) == 1
    assert fake.writes_per_minute_by_chat() == {FOREIGN: 3, pair: 1}
    assert here.edits == 3 and there.edits == 1
