"""A fifth game, defined only here, to prove that a game needs nothing outside its own files:
Sticks (a Nim), two players take 1, 2 or 3 from a row of sticks and whoever takes the last one
wins. Its engine (``engine``), computer players (``players``), picture (``picture``), and bot
side (``kit``: the adapter, the page's moves and ``board.js``) are added to the running bot with
``bot.games.add(KIT)`` (``tests/bot/test_toy_game.py``), as an installed package would add it
through the ``tablebot.games`` entry point. It has no Russian catalogue: its words fall back to
English.
"""
