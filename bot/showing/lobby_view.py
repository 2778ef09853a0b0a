"""What a lobby message shows: a pure function of the game, its note and a language."""
from __future__ import annotations

from typing import Any

from engines import registry
from bot.outgoing import keyboard
from bot.outgoing.actions import (ADD_COMPUTER, CANCEL, COMPUTER_LEVEL, JOIN, LEAVE, OPTION, REMOVE_COMPUTER,
                                   RULES, START, TURN_TIMER)
from bot.games import game_sign, kit_for
from bot.games.base import View
from bot.words.i18n import t
from bot.outgoing.keyboard import Button
from bot.words.names import in_text
from bot.table.players import level_word
from bot.storage.store import Game
from bot.lobby.menu import LobbyNote, join_link
from bot.lobby.options import next_turn_minutes
from bot.words.texts import game_name, option_hint, option_label, option_value_text


def lobby_message(game: Game, lang: str, note: LobbyNote | None, bot_username: str,
                  turn_minutes: float = 0) -> tuple[View, Any]:
    """The lobby: the game, its options, the players, and Join / Leave / Start / Cancel."""
    info = registry.info(game.kind)
    lines = [t(lang, "{sign} <b>{game}</b>: lobby", sign=game_sign(info.id), game=game_name(info, lang))]
    host = next((s for s in game.seats if s.user_id == game.host_id), None)
    if host is not None:
        lines.append(t(lang, "Host: {name}", name=in_text(host.name)))
    for opt in info.options:
        value = game.options.get(opt.key, opt.default)
        hint = option_hint(opt.key, lang)
        if opt.kind == "bool":
            shown = f"{option_value_text(opt, value, lang)} {option_label(opt.key, lang)}"
        else:
            shown = f"▪️ {option_label(opt.key, lang)}: {option_value_text(opt, value, lang)}"
        lines.append(shown + (f" <i>({hint})</i>" if hint else ""))
    lines.append("")
    lines.append(t(lang, "Players: {n} ({min} to {max} can play):", n=len(game.seats), min=info.min_players,
                   max=info.max_players))
    for s in game.seats:
        lines.append(f"{s.seat + 1}. {in_text(s.name)}")
    private = game.chat_id > 0  # a game against computers in the private chat with the bot
    if not private:
        lines.append("")
        lines.append(t(lang, "⏰ A move may take {n} min; then a reminder, and a computer moves for whoever "
                             "is away.", n=f"{turn_minutes:g}") if turn_minutes > 0 else
                     t(lang, "⏰ No turn timer: players take as long as they like."))
        if info.hidden_info:
            lines.append(t(lang, "🔒 Secrets come by private message: each player opens @{bot} once.",
                           bot=bot_username))
        if kit_for(game.kind).ui.moves_in_private:
            lines.append(t(lang, "🔔 On your turn your private message with me moves down, so your phone rings."))
        elif game.inline:  # (the bot cannot write in this chat)
            lines.append(t(lang, "🔔 On your turn I ping you in private, once you have opened @{bot}; the host "
                                 "opens it to start: the table's pictures come through it.", bot=bot_username))
        else:
            lines.append(t(lang, "🔔 On your turn I ping you in private (here, if you never opened @{bot}); "
                                 "/notify off mutes it.", bot=bot_username))
    if note is not None:
        lines.append("")
        lines.append(note.text(lang, bot_username))
    rows: list[list[Button]] = []
    if not private:
        rows.append([Button(t(lang, "✋ Join"), JOIN(), turn_free=True),
                     Button(t(lang, "🚪 Leave"), LEAVE(), turn_free=True)])
    rows.append([Button(t(lang, "▶️ Start"), START(), turn_free=True),
                 Button(t(lang, "✖️ Cancel"), CANCEL(), turn_free=True)])
    rows += computer_rows(game, info.max_players, lang)
    extra = [Button(t(lang, "📖 Rules"), RULES(), turn_free=True)]
    if not private:
        nxt = next_turn_minutes(turn_minutes)
        extra.append(Button(t(lang, "⏰ {now} ▸", now=t(lang, "{n} min", n=f"{turn_minutes:g}") if turn_minutes
                                                       else t(lang, "off")), TURN_TIMER(nxt), turn_free=True))
    rows.append(extra)
    toggles = []
    for opt in info.options:
        value = game.options.get(opt.key, opt.default)
        if opt.kind == "bool":
            toggles.append(Button(f"{'✅' if value else '▫️'} {option_label(opt.key, lang)}",
                                  OPTION(opt.key, 0 if value else 1), turn_free=True))
        else:
            nxt = value + 1 if value < opt.maximum else opt.minimum
            shown = option_value_text(opt, value, lang)
            toggles.append(Button(f"{option_label(opt.key, lang)}: {shown} ▸", OPTION(opt.key, nxt),
                                  turn_free=True))
    rows += keyboard.chunk(toggles, 2)
    if info.hidden_info or game.inline:  # secrets, or an inline game's pictures, go by private chat
        rows.append([Button(t(lang, "💬 Open the private chat"),
                            url=join_link(bot_username, game))])
    return View("\n".join(lines)), keyboard.markup(game.short_id, None, rows)


def computer_rows(game: Game, max_players: int, lang: str) -> list[list[Button]]:
    """For the host: add a computer player, and per computer seat its level (tap: the next
    level) and a remove button."""
    rows = [[Button(f"🤖 {s.seat + 1}. {level_word(s.level, lang)} ▸", COMPUTER_LEVEL(s.seat), turn_free=True),
             Button(t(lang, "✖️ Remove"), REMOVE_COMPUTER(s.seat), turn_free=True)]
            for s in game.seats if s.is_computer]
    if len(game.seats) < max_players:
        rows.append([Button(t(lang, "🤖 Add a computer player"), ADD_COMPUTER(), turn_free=True)])
    return rows
