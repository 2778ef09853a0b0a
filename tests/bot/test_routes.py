"""Commands and buttons are declared once, by the feature that answers them
(``bot/updates/routes.py``): the handlers python-telegram-bot is given, the command menus and
/help all come from those declarations, and agree."""
from __future__ import annotations

import inspect

from telegram.ext import ApplicationBuilder, CallbackQueryHandler, CommandHandler

from bot.updates import router
from bot.updates.help import Help
from tests.bot.recording import build_core


def test_every_declared_handler_is_a_method_of_its_feature():
    for feature in router.FEATURES:
        for declared in [c.handler for c in feature.COMMANDS] + [p.handler for p in feature.PRESSES]:
            assert inspect.iscoroutinefunction(getattr(feature, declared, None)), f"{feature.__name__}.{declared}"
    names = [c.name for c in router.commands()]
    assert len(names) == len(set(names))  # one declaration per command


def test_the_menus_and_help_list_the_same_commands():
    menus = {type(scope).__name__: [name for name, _ in menu] for scope, menu in router.menus(owner_id=7)}
    private, groups = set(menus["BotCommandScopeAllPrivateChats"]), set(menus["BotCommandScopeAllGroupChats"])
    admins, owner = set(menus["BotCommandScopeAllChatAdministrators"]), set(menus["BotCommandScopeChat"])
    helped = {where: {c.name for c in router.commands() if where in c.help} for where in ("private", "group")}
    assert private - {"help"} <= helped["private"]  # what a menu offers, /help explains …
    assert admins - {"help"} == helped["group"]  # … and /help in a group is what its admins may use
    assert groups < admins and private < owner
    assert helped["private"] - private == {"nextgame"}  # explained in private, used in a group
    assert menus["BotCommandScopeAllGroupChats"][0] == "new" and menus["BotCommandScopeAllPrivateChats"][-1] == "help"
    text = Help(router.commands(), bot_username="tablebot").text("en", private=False)
    assert all(f"/{name}" in text for name in admins - {"help"})


async def test_python_telegram_bot_is_given_exactly_the_declared_commands():
    core = await build_core()
    try:
        application = ApplicationBuilder().token("123:TEST").build()
        updates = core.updates
        assert sorted(type(f).__name__ for f in updates.features) == sorted(f.__name__ for f in router.FEATURES)
        router.register(application, updates.prepare, updates.features, updates.presses)
        handlers = [h for group in application.handlers.values() for h in group]
        registered = sorted(name for h in handlers if isinstance(h, CommandHandler) for name in h.commands)
        assert registered == sorted(c.name for c in router.commands())
        presses = [h for h in handlers if isinstance(h, CallbackQueryHandler)]
        assert len(presses) == 1 and presses[0].pattern is None  # every press, routed by ``Presses``
    finally:
        await core.close()
