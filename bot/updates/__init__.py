"""What comes in from Telegram, routed by feature: each feature's commands and buttons declared
once (``routes``: the declarations; ``lobby``, ``inline`` (a game started with @bot in a chat the
bot is not in), ``game``, ``results``, ``records``, ``settings``, ``owner``, ``chat``: the features), registered and made into menus by ``router``, /help from the
same declarations (``help``); who sent an update and its language (``prepare``, ``context``), the
flood guard (``floods``), the one door every game press and typed move goes through (``door``:
who may do what in a game), and the webhook route (``webhook``).

It may use every package below it; nothing but the wiring imports it (and the Mini App, which
sends its moves through the same door).
"""
