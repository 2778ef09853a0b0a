"""What goes out to Telegram: every Bot API call and its errors (``messenger``), each group's write
budget (``pacing``), inline keyboards and the callback-data grammar (``keyboard``), and timers on
python-telegram-bot's JobQueue (``timers``).

It may use ``words`` and ``logs``; it knows nothing of games.
"""
