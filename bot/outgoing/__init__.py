"""What goes out to Telegram: every Bot API call and its errors, broadcasts (``messenger``), what a
call came to (``sent``), pictures drawn and uploaded once (``uploads``), each
group's write budget and the broadcasts' class (``pacing``), the whole bot's pace learnt from
Telegram (``pace``), how many writes are in flight (``inflight``), answers on connections of
their own (``lanes``), the HTTP requests themselves (``http``), inline keyboards with the
callback-data grammar (``keyboard``) and the platform's button actions, each named once
(``actions``).

It may use ``words`` and ``logs``; it knows nothing of games.
"""
