"""``/new <game> <words>`` and the game menu's buttons: the words read (the game, its options,
computer players), then a lobby opened, or what is wrong said in the chat."""
from __future__ import annotations

from bot.lobby.lobby import Lobby
from bot.lobby.menu import add_to_group_link, game_menu
from bot.lobby.options import parse_computers, parse_options
from bot.outgoing import keyboard
from bot.outgoing.keyboard import MENU, Button
from bot.outgoing.messenger import Messenger
from bot.table.people import People, Person
from bot.words.i18n import t
from bot.words.names import in_text
from bot.words.texts import find_game


class NewGame:
    def __init__(self, lobby: Lobby, people: People, messenger: Messenger, *, bot_username: str):
        self.lobby = lobby
        self.people = people
        self.messenger = messenger
        self.bot_username = bot_username

    async def here(self, *, chat_id: int, thread_id: int, title: str | None, person: Person,
                       words: list[str]) -> None:
        """/new (or the game menu) in a chat: the chat is remembered, its first language the
        person's; then as :meth:`new`."""
        chat_lang = await self.people.adopt_chat(chat_id, title, person)
        await self.new(chat_id=chat_id, thread_id=thread_id, person=person, words=words, chat_lang=chat_lang,
                       private=chat_id > 0)

    async def new(self, *, chat_id: int, thread_id: int, person: Person, words: list[str],
                  chat_lang: str, private: bool) -> None:
        """Open a lobby, or answer why not. In a private chat the other seats are computers
        (one by default); Ingenious with ``bots=0`` there is a solo game at once."""
        if not words:
            text, markup = game_menu(chat_lang)
            self.messenger.post(chat_id, text, markup, thread_id=thread_id)
            return
        info = find_game(words[0])
        if info is None:
            # Maybe the game's name has two words ("totally genial").
            info = find_game(" ".join(words[:2])) if len(words) > 1 else None
            if info is not None:
                words = [" ".join(words[:2])] + words[2:]
        if info is None:
            text, markup = game_menu(chat_lang)
            unknown = t(chat_lang, "I don't know the game «{name}».", name=in_text(words[0][:40]))
            self.messenger.post(chat_id, unknown + "\n" + text, markup, thread_id=thread_id)
            return
        computers, words, problem = parse_computers(info, words[1:], private=private)
        if problem == "bots":
            self.messenger.post(chat_id, t(chat_lang, "«bots» takes a number of computer players from 0 to {n}, "
                                                      "such as bots=2.", n=info.max_players - (0 if private else 1)),
                                thread_id=thread_id)
            return
        if problem == "level":
            self.messenger.post(chat_id, t(chat_lang, "«level» is easy, normal or hard, such as level=hard."),
                                thread_id=thread_id)
            return
        options, bad = parse_options(info, words)
        if bad is not None:
            known = ", ".join(["bots=N", "level=easy|normal|hard"] + [o.key for o in info.options])
            self.messenger.post(
                chat_id, t(chat_lang, "Unknown option «{opt}». Options of this game: {known}.",
                           opt=in_text(bad[:40]), known=known), thread_id=thread_id)
            return
        if private and 1 + len(computers) < info.min_players:
            self.messenger.post(
                chat_id, t(chat_lang, "This game needs at least {n} players: play against computers here "
                                      "(bots=1 or more), or add me to a group and play with friends.",
                           n=info.min_players),
                keyboard.markup(MENU, None, [[Button(t(chat_lang, "➕ Add to a group"),
                                                     url=add_to_group_link(self.bot_username))]]))
            return
        await self.lobby.open(chat_id=chat_id, thread_id=thread_id, person=person, info=info, options=options,
                        chat_lang=chat_lang, computers=computers, start_now=private and not computers)
