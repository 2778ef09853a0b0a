"""A strict fake Telegram Bot API server for tablebot's end-to-end tests.

    fake = FakeBotAPI(); fake.start()
    bot = telegram.Bot(fake.token, base_url=fake.base_url, base_file_url=fake.base_file_url)

See server.py for the interface (world setup, acting as users, observing, failure injection).
"""

from .server import ApiError, FakeBotAPI
from .world import Message, Request

__all__ = ["ApiError", "FakeBotAPI", "Message", "Request"]
