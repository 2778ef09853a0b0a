"""A strict fake Telegram Bot API server for tablebot's end-to-end tests.

    fake = FakeBotAPI(); fake.start()
    bot = telegram.Bot(fake.token, base_url=fake.base_url, base_file_url=fake.base_file_url)

See server.py for the interface (world setup, acting as users, observing, failure injection),
faults.py for fault mode, oddities.py for raw and odd updates and inline.py for inline mode
(chats the bot is not in, inline queries, chosen results, inline messages and their edits).
"""

from .oddities import (CHANNEL_BOT, GROUP_ANONYMOUS_BOT, ODD_CALLBACK_DATA, command_entities,
                       mutate_callback_data)
from .limits import Limits, most_within
from .server import ApiError, FakeBotAPI
from .world import CallbackStats, Fault, Message, Request

__all__ = ["ApiError", "FakeBotAPI", "Limits", "most_within", "Message", "Request", "Fault", "CallbackStats",
           "CHANNEL_BOT", "GROUP_ANONYMOUS_BOT", "ODD_CALLBACK_DATA", "command_entities",
           "mutate_callback_data"]
