"""What goes out to Telegram: every Bot API call and its errors (``messenger``), each group's write
budget (``pacing``), and inline keyboards with the callback-data grammar (``keyboard``).

It may use ``words`` and ``logs``; it knows nothing of games.
"""
