"""What comes in from Telegram: python-telegram-bot's callbacks (``handlers``), the one door every
press and typed move goes through (``door``), the flood guard (``floods``) and the webhook route
(``webhook``).

It may use every package below it; nothing but the wiring imports it (and the Mini App, which
sends its moves through the same door).
"""
