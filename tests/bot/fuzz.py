"""Random and mutated updates for a running bot: the hostile half of the world.

``Fuzzer.step()`` sends one update through the fake Bot API: a real button pressed by its
player, by someone else, with corrupted or absurd callback data, on a message that is gone or
inline; a command with odd arguments from a stranger, an anonymous admin or a channel; a raw
update Telegram could send but rarely does. Steps are drawn from a seeded generator, so a
failure replays. Used by tests/bot/test_fuzz.py and ``python -m bench fuzz``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from tests.fakebotapi.oddities import ODD_CALLBACK_DATA, mutate_callback_data

NAMES = ["<b>Bold</b> & co", "Анна 🎲", "\u202eevil", "Z\u0351\u0352a\u0353lgo", "👩‍👩‍👧‍👦 family", "x" * 60]
ARGS = ["", "lucky", "chess", "конусы", "<b>x</b>", "🎲🎲🎲", "series=99", "bots=9", "level=genius",
        "-1", "0", "off", "99999", "\u202e", "x" * 200, "ru", "xx", "%s", "genial team bots=x"]
SAFE_COMMANDS = ["help", "rules", "board", "new", "turntimer", "lobbytimeout", "notify", "lang", "start",
                 "leave", "away", "cancel", "unknowncmd"]


@dataclass
class Step:
    kind: str
    query_id: str | None = None
    # A valid command that may rightly change what is stored: /new opens a lobby (in a stranger's
    # own private chat: a game against computers); /cancel, or /leave by its only person, in
    # one's own private chat closes it.
    may_change: bool = False


class Fuzzer:
    def __init__(self, fake, rng: random.Random, groups: dict[int, list[int]], strangers: list[int]):
        self.fake = fake
        self.rng = rng
        self.groups = groups
        self.players = sorted({u for users in groups.values() for u in users})
        self.strangers = strangers
        self.channel = -1009999000
        fake.add_channel(self.channel, "A channel")

    # ---- what there is to press ----------------------------------------------------------

    def _buttons(self) -> list[tuple[int, int, str]]:
        """(chat, message id, callback data) of every live bot button."""
        out = []
        for chat in list(self.groups) + self.players:
            for m in self.fake.messages(chat):
                if m.from_bot:
                    out += [(chat, m.message_id, b["callback_data"]) for b in m.buttons if "callback_data" in b]
        return out

    def _any_message(self) -> tuple[int, int] | None:
        chat = self.rng.choice(list(self.groups))
        messages = [m for m in self.fake.messages(chat) if not m.deleted]
        if not messages:
            return None
        m = self.rng.choice(messages)
        return chat, m.message_id

    # ---- one step ------------------------------------------------------------------------

    def step(self) -> Step:
        roll = self.rng.random()
        buttons = self._buttons()
        if roll < 0.45 and buttons:
            chat, message_id, data = self.rng.choice(buttons)
            who = self._owner_or_anyone(chat)
            if roll < 0.2:
                data = mutate_callback_data(data, self.rng)
            elif roll < 0.25:
                data = self.rng.choice(ODD_CALLBACK_DATA)
            return Step("press", self._press(who, chat, message_id, data))
        if roll < 0.5:
            target = self._any_message()
            if target is not None:
                data = self.rng.choice(ODD_CALLBACK_DATA + tuple(d for _, _, d in buttons[:20]))
                return Step("press-odd", self._press(self.rng.choice(self.strangers), *target, data))
        if roll < 0.53:
            chat = self.rng.choice(list(self.groups))
            data = self.rng.choice([d for _, _, d in buttons] or ["1:0:x"])
            return Step("press-missing", self.fake.user_presses_missing(
                self.rng.choice(self.players), chat, 999_999, data))
        if roll < 0.55:
            data = self.rng.choice([d for _, _, d in buttons] or ["1:0:x"])
            return Step("press-inline", self.fake.user_presses_inline(self.rng.choice(self.players), "BAAAAJ1x", data))
        if roll < 0.8:
            return self._command()
        if roll < 0.88:
            chat = self.rng.choice(list(self.groups))
            text = f"/{self.rng.choice(['new', 'cancel', 'lang ru', 'board'])} {self.rng.choice(ARGS)}"
            if self.rng.random() < 0.5:
                self.fake.anonymous_admin_sends(chat, text)
                return Step("anonymous")
            self.fake.channel_sends(self.channel, chat, text)
            return Step("as-channel")
        if roll < 0.92:
            self.fake.channel_posts(self.channel, "/new lucky")
            return Step("channel-post")
        return self._raw()

    def _owner_or_anyone(self, chat: int) -> int:
        if chat > 0:
            return chat if self.rng.random() < 0.8 else self.rng.choice(self.players + self.strangers)
        users = self.groups[chat]
        return self.rng.choice(users) if self.rng.random() < 0.8 else self.rng.choice(self.players + self.strangers)

    def _press(self, user: int, chat: int, message_id: int, data: str) -> str:
        if chat > 0 and user != chat:
            # Only the owner of a private chat can press there; others press a stale copy.
            return self.fake.user_presses_missing(user, chat, message_id, data)
        return self.fake.user_presses(user, chat, message_id, data)

    def _command(self) -> Step:
        """A command by a stranger, or a harmless one by a player, with odd arguments."""
        chat = self.rng.choice(list(self.groups) + self.strangers)
        user = chat if chat > 0 else self.rng.choice(self.strangers)
        command = self.rng.choice(SAFE_COMMANDS)
        if chat > 0 and self.rng.random() < 0.3:
            user = chat = self.rng.choice(self.players)
            command = self.rng.choice(["help", "rules", "notify", "board", "unknowncmd", "start"])
        args = " ".join(self.rng.choice(ARGS) for _ in range(self.rng.randint(0, 3)))
        self.fake.user_sends(user, chat, f"/{command} {args}".strip())
        return Step("command", may_change=command == "new" or command in ("cancel", "leave") and chat > 0)

    def _raw(self) -> Step:
        chat = self.rng.choice(list(self.groups))
        kind = self.rng.randint(0, 2)
        if kind == 0:  # a message without a sender
            self.fake.inject_update({"message": {"message_id": 900_000 + self.rng.randint(0, 9999), "date": 0,
                                                 "chat": {"id": chat, "type": "supergroup", "title": "x"},
                                                 "text": "/board", "entities": [
                                                     {"type": "bot_command", "offset": 0, "length": 6}]}})
        elif kind == 1:  # a service message the bot does not handle
            self.fake.inject_update({"message": {"message_id": 900_000 + self.rng.randint(0, 9999), "date": 0,
                                                 "chat": {"id": chat, "type": "supergroup", "title": "x"},
                                                 "from": {"id": self.strangers[0], "is_bot": False, "first_name": "S"},
                                                 "new_chat_title": "renamed"}})
        else:  # an update kind the bot never asked for
            self.fake.inject_update({"poll": {"id": "1", "question": "?", "options": [], "total_voter_count": 0,
                                              "is_closed": False, "is_anonymous": True, "type": "regular",
                                              "allows_multiple_answers": False}})
        return Step("raw")
