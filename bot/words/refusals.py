"""Refusals: why the bot did not do what a person asked, as a code with parameters.

The lobby and the game loop raise :class:`Refused`; the handlers word it once, here, in the
language of the person who asked (a timer that plays for someone just logs the code).
"""
from __future__ import annotations

import html
from typing import Any, Callable

from bot.words.i18n import nt, t
from bot.words.names import in_plain
from bot.words.texts import option_label


class Refused(Exception):
    """A request the bot turns down, with the reason's code and what the sentence needs."""

    def __init__(self, code: str, **params: Any):
        super().__init__(code, params)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return f"{self.code} {self.params}" if self.params else self.code


_WORDS: dict[str, Callable[..., str]] = {
    # buttons and games
    "unknown_button": lambda lang: t(lang, "This button is not from a game I know."),
    "bad_button": lambda lang: t(lang, "This button is not valid any more."),
    "no_game": lambda lang: t(lang, "This game no longer exists."),
    "other_chat": lambda lang: t(lang, "This button belongs to a game in another chat."),
    "old_message": lambda lang: t(lang, "This message is out of date: use the latest one."),
    "over": lambda lang: t(lang, "This game is over."),
    "not_over": lambda lang: t(lang, "This game is not over yet."),
    "not_started": lambda lang: t(lang, "The game has not started yet."),
    "started": lambda lang: t(lang, "The game has already started."),
    # moves
    "not_playing": lambda lang: t(lang, "You are not playing in this game."),
    "stale_turn": lambda lang: t(lang, "This button is from an earlier turn. Use the latest message."),
    "not_your_turn": lambda lang, name: t(lang, "It is not your turn: {name} is playing.", name=name),
    "illegal": lambda lang: t(lang, "That move is not allowed now."),
    "concurrent": lambda lang: t(lang, "Someone moved at the same time. Please try again."),
    "store_unavailable": lambda lang: t(lang, "⏳ I cannot reach my database for a moment. Please try again in a "
                                              "few seconds."),
    # lobby
    "game_open": lambda lang: t(lang, "A game is already open here."),
    "rematch_open": lambda lang: t(lang, "The new lobby is open already: tap ✋ Join there."),
    "full": lambda lang, n: nt(lang, "The game is full: {n} player already.", "The game is full: {n} players already.",
                               n),
    "options_host_only": lambda lang: t(lang, "Only the host can change the options."),
    "start_rights": lambda lang, name: t(lang, "Only the host ({name}) or a chat admin can start.", name=name),
    "cancel_rights": lambda lang, name: t(lang, "Only the host ({name}) or a chat admin can cancel.", name=name),
    "too_few": lambda lang, n: nt(lang, "At least {n} player is needed.", "At least {n} players are needed.", n),
    "option_players": lambda lang, option, counts: t(
        lang, "«{option}» needs {counts} players: switch it off or change the players.",
        option=option_label(option, lang), counts=counts),
    "no_private_chat": lambda lang, names: t(lang, "Not everyone can get private messages yet: {names}.",
                                             names=names),
    "no_private_chat_self": lambda lang, bot: t(lang, "Open the private chat with me first (@{bot}, START), "
                                                      "then tap Start again.", bot=bot),
    "lang_rights": lambda lang: t(lang, "Only a chat admin or the host of the game here can change the language."),
    "computers_rights": lambda lang, name: t(lang, "Only the host ({name}) or a chat admin can add or change "
                                                   "computer players.", name=name),
    "handed_over": lambda lang: t(lang, "A computer plays your seat now: tap 🙋 I'm back on the table first."),
    "no_seat_back": lambda lang: t(lang, "You have no seat to take back here."),
    "away_rights": lambda lang, name: t(lang, "Only the host ({name}) or a chat admin can give a player's "
                                              "seat to a computer.", name=name),
    "alone": lambda lang: t(lang, "You are alone at this table. Add a 🤖 computer player or wait for friends; "
                                  "to play solo, tap ▶️ Start again."),
}


# Refusals that need no reading: a toast that goes by itself, not a pop-up one must dismiss.
TOASTS = frozenset({"not_your_turn", "not_playing", "rematch_open"})


def is_toast(refused: Refused) -> bool:
    return refused.code in TOASTS


def word(refused: Refused, lang: str) -> str:
    """The refusal as a plain sentence in ``lang`` (a pop-up's text)."""
    say = _WORDS.get(refused.code)
    if say is None:
        return t(lang, "Something went wrong. Please try again.")
    return say(lang, **{key: _shown(key, value) for key, value in refused.params.items()})


def _shown(key: str, value: Any) -> Any:
    """People's names in a refusal as the bot shows names (isolated, unable to forge a line)."""
    if key == "name":
        return in_plain(value)
    if key == "names":
        return ", ".join(in_plain(name) for name in value)
    return value


def word_html(refused: Refused, lang: str) -> str:
    """The refusal for a message sent as HTML (names in it may hold ``<`` and ``&``)."""
    return html.escape(word(refused, lang), quote=False)
