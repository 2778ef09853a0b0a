"""What goes out to Telegram: every Bot API call and its errors, broadcasts (``messenger``), each
group's write budget and the broadcasts' class (``pacing``), the whole bot's pace learnt from
Telegram (``pace``), and inline keyboards with the callback-data grammar (``keyboard``).

It may use ``words`` and ``logs``; it knows nothing of games.
"""
