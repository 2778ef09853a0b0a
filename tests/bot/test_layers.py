"""The rooms of ``bot/`` and the arrows between them, held: a newcomer finds a concern among a
few packages, each says what it is for and what it may use, and nothing imports what it must
not (read from the source: every import, also inside a function or under TYPE_CHECKING)."""
from __future__ import annotations

import ast
import collections
import pathlib
import sys

import pytest

BOT = pathlib.Path(__file__).resolve().parents[2] / "bot"

# What each room of bot/ may import (a package, or a module at its top), from the ground up.
# The lobby knows nothing of the display, the game loop nothing of the lobby, the end of a game
# or the records; whoever shows a game hears the change bus (bot/table/changes.py).
GROUND = {"logs", "words"}
MAY_USE: dict[str, set[str]] = {
    "logs": set(),
    "words": set(),
    "storage": {"logs"},
    "workers": set(),
    "outgoing": GROUND,
    "games": GROUND | {"storage", "outgoing"},
    "table": GROUND | {"storage", "outgoing", "workers", "games"},
    "records": GROUND | {"storage", "outgoing", "workers", "games", "table"},
    "lobby": GROUND | {"storage", "outgoing", "workers", "games", "table"},
    "showing": GROUND | {"storage", "outgoing", "workers", "games", "table", "lobby"},
    "ending": GROUND | {"storage", "outgoing", "workers", "games", "table", "lobby", "records", "showing"},
    "ops": GROUND | {"storage", "outgoing", "table"},
    "updates": GROUND | {"storage", "outgoing", "workers", "games", "table", "lobby", "records", "showing",
                         "ending", "ops"},
    "webapp": GROUND | {"storage", "outgoing", "games", "table", "updates"},
    "wiring": GROUND | {"storage", "outgoing", "workers", "games", "table", "lobby", "records", "showing",
                        "ending", "ops", "updates"},
    "app": GROUND | {"storage", "outgoing", "workers", "table", "ops", "updates", "webapp", "wiring"},
    "__main__": GROUND | {"storage", "outgoing", "workers", "ops", "updates", "app"},
}


def modules() -> dict[str, pathlib.Path]:
    found = {}
    for path in BOT.rglob("*.py"):
        name = ".".join(path.relative_to(BOT.parent).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imports() -> dict[str, set[str]]:
    """Module → the bot modules it imports (a name imported from a package counts as its module
    when there is one)."""
    known = modules()

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    arrows: dict[str, set[str]] = collections.defaultdict(set)
    for name, path in known.items():
        for node in ast.walk(ast.parse(path.read_text())):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                targets = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in known else node.module
                           for a in node.names]
            for target in targets:
                if target == "bot" or not target.startswith("bot."):
                    continue  # the root package (bot/__init__.py, empty) is nobody's room
                resolved = resolve(target)
                if resolved and resolved != name:
                    arrows[name].add(resolved)
    return arrows


def room(module: str) -> str:
    return module.split(".")[1]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one node (Tarjan)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_each_room_imports_only_what_it_may_use():
    wrong = [f"{a} imports {b}" for a, targets in sorted(imports().items()) for b in sorted(targets)
             if room(a) != room(b) and room(b) not in MAY_USE[room(a)]]
    assert not wrong, "\n".join(wrong)


def test_the_declared_rooms_are_the_rooms_there_are():
    rooms = {room(m) for m in modules() if m != "bot"}
    assert rooms == set(MAY_USE)
    assert len(rooms - {"__main__"}) <= 16  # a newcomer finds a concern among a few rooms


def test_no_module_and_no_room_imports_itself_back():
    arrows = imports()
    assert cycles(arrows) == []
    between = collections.defaultdict(set)
    for a, targets in arrows.items():
        between[room(a)] |= {room(b) for b in targets if room(b) != room(a)}
    assert cycles(between) == []


def test_every_package_says_what_it_is_for_and_what_it_may_use():
    for path in BOT.glob("*/__init__.py"):
        doc = ast.get_docstring(ast.parse(path.read_text()))
        assert doc and "may use" in doc or "uses no other" in (doc or ""), path


def test_every_package_names_its_modules():
    """A newcomer reads a room's docstring and knows what each of its modules is for (the games'
    own packages are the registry's: ``bot/games/<game>/``)."""
    from engines import registry
    missing = []
    for init in sorted(BOT.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        for part in sorted(init.parent.iterdir()):
            is_module = part.suffix == ".py" and part.stem != "__init__"
            is_package = part.is_dir() and (part / "__init__.py").exists() and part.name not in registry.game_ids()
            if (is_module or is_package) and f"``{part.stem}``" not in doc:
                missing.append(f"{init.parent.name}/{part.name}")
    assert not missing, missing


@pytest.mark.parametrize("path", sorted(BOT.rglob("*.py")), ids=lambda p: str(p.relative_to(BOT)))
def test_modules_are_small_and_classes_take_few_collaborators(path):
    source = path.read_text()
    assert source.count("\n") <= 500, f"{path.name}: {source.count(chr(10))} lines"
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            init = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
            if init is not None:
                args = init.args
                taken = len(args.args) - 1 + len(args.kwonlyargs)
                assert taken <= 8, f"{node.name} takes {taken}"


# ---- the layers below bot/ --------------------------------------------------------------

ROOT = BOT.parent


def _top_imports(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` → the top-level names it imports (also inside functions)."""
    out: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
        out[str(path.relative_to(ROOT))] = names
    return out


def test_the_engines_use_the_standard_library_only():
    """The rules are pure: no Telegram, no Pillow, no clock of their own (DESIGN's layers)."""
    wrong = {m: sorted(n for n in names if n not in sys.stdlib_module_names and n != "engines"
                       or n in {"asyncio", "logging", "time", "datetime", "os", "socket", "threading"})
             for m, names in _top_imports("engines").items()}
    assert not {m: n for m, n in wrong.items() if n}


def test_the_pictures_use_pillow_and_the_engines_only():
    wrong = {m: sorted(n for n in names if n not in sys.stdlib_module_names and n not in {"PIL", "render", "engines"}
                       or n in {"asyncio", "socket", "sqlite3", "threading"})
             for m, names in _top_imports("render").items()}
    assert not {m: n for m, n in wrong.items() if n}
