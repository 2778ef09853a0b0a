"""The lobby phase of real groups, for ``python -m bench load``: every group opens its lobby within
a couple of minutes, as people do, and presses its buttons as they show.

In each group the host writes ``/new <game>``; once the lobby is there, the host turns an option
on (the lobby's first on/off option, where it has one), the friend taps ✋ Join, the host turns
the option off again and taps ▶️ Start, each about 2 s after the one before. Nobody taps a button
the chat does not show yet: a step whose lobby has not arrived, or does not show the option as
that step needs it (still off when it is to be turned off, still on when Start is due), is tried
again half a second later. The groups start their lobbies evenly spread over the phase (open
loop: whatever the bot answers, the next group comes on time).
"""
from __future__ import annotations

import heapq
import time

STEPS = ("on", "join", "off", "start")  # after /new
STEP_SECONDS = 2.0  # a person's pause between two taps
LOOK_AGAIN_SECONDS = 0.5  # a lobby not shown yet (or not as the step needs it): looked at again this much later


def lobby_message(fake, chat: int):
    """The group's open lobby (the bot's message with ✋ Join), or None."""
    for m in reversed(fake.messages(chat)):
        if m.from_bot and m.buttons and any(b.get("callback_data", "").endswith("!join") for b in m.buttons):
            return m
    return None


def _toggles(lobby, mark: str) -> list[str]:
    """The callback data of the lobby's on/off options shown as ``mark`` (✅ on, ▫️ off)."""
    return [b["callback_data"] for b in lobby.buttons if "!o." in b.get("callback_data", "")
            and b["text"].startswith(mark)]


def _button(lobby, step: str, option_on: bool) -> str | bool:
    """The callback data of the button a person taps at ``step``; False: not to be tapped now
    (look again), True: nothing to tap at this step (the lobby has no on/off option)."""
    if step == "on":
        return next(iter(_toggles(lobby, "▫️")), True)
    if step == "off":
        return next(iter(_toggles(lobby, "✅")), False) if option_on else True
    if step == "start" and option_on and _toggles(lobby, "✅"):
        return False  # the option is still shown on: Start would be refused
    return next((b["callback_data"] for b in lobby.buttons if b.get("callback_data", "").endswith(f"!{step}")), True)


def open_like_people(fake, chats: list[int], players: dict[int, tuple[int, int]], game_of: dict[int, str],
                     within: float) -> dict[str, list[str]]:
    """Run the lobby phase over ``within`` seconds; the query ids of the presses, by step."""
    presses: dict[str, list[str]] = {step: [] for step in STEPS}
    option_on: set[int] = set()  # the groups whose host turned the option on
    start = time.monotonic()
    due = [(start + i * within / len(chats), chat, -1) for i, chat in enumerate(chats)]  # -1: /new
    heapq.heapify(due)
    while due:
        at, chat, step = heapq.heappop(due)
        delay = at - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        host, friend = players[chat]
        if step == -1:
            fake.user_sends(host, chat, f"/new {game_of[chat]}")
            heapq.heappush(due, (at + STEP_SECONDS, chat, 0))
            continue
        lobby = lobby_message(fake, chat)
        data = _button(lobby, STEPS[step], chat in option_on) if lobby is not None else False
        if data is False:
            heapq.heappush(due, (time.monotonic() + LOOK_AGAIN_SECONDS, chat, step))
            continue
        if data is not True:
            who = friend if STEPS[step] == "join" else host
            presses[STEPS[step]].append(fake.user_presses(who, chat, lobby.message_id, data))
            if STEPS[step] == "on":
                option_on.add(chat)
        if step + 1 < len(STEPS):
            heapq.heappush(due, (time.monotonic() + STEP_SECONDS, chat, step + 1))
    return presses


def wait_for_tables(fake, chats: list[int], timeout: float) -> tuple[int, float]:
    """Wait until every group's game shows its table (a photo of the bot), at most ``timeout``
    seconds: how many do, and how long the last one took."""
    started = time.monotonic()
    waiting = set(chats)
    while waiting and time.monotonic() - started < timeout:
        waiting = {c for c in waiting if not any(m.from_bot and m.photo is not None for m in fake.messages(c))}
        if waiting:
            time.sleep(0.5)
    return len(chats) - len(waiting), time.monotonic() - started
