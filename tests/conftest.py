"""Every test's order: the slowest files first.

The tests run in six workers (pytest-xdist), each handed one test at a time (``--maxschedchunk
1`` in pyproject.toml: by default a worker is handed a quarter of its share at once, so whoever
got the long files kept them all). The long tests start first and run side by side while the
short ones fill the gaps: on a two-core machine the run fell from about 9 1/2 minutes (three
workers, collection order) to about 7. Measured with ``--durations``; a file missing here only
runs later, nothing else changes.
"""
from __future__ import annotations

pytest_plugins = ["tests.watchdog"]  # a test that hangs ends its worker, not the run

# By their longest test, longest first (seconds on a quiet two-core machine, four workers).
SLOW_FIRST = [
    "test_webapp_browser.py",  # 46 in WebKit (30 in Chromium)
    "test_standby_takeover.py",  # 38
    "test_records_e2e.py",  # 36 (the back-fill, with the seasons)
    "test_genial_e2e.py",  # 35
    "test_webapp_cones.py",  # 31 in WebKit
    "test_names.py",  # 31
    "test_series_e2e.py",  # 29
    "test_database_outage.py",  # 29
    "test_lucky_e2e.py",  # 28
    "test_achievements_e2e.py",  # 23
    "test_inline_e2e.py",  # 22
    "test_webapp_phones.py",  # 22 in WebKit
    "test_every_end_seen.py",  # 21
    "test_faults.py",  # 19
    "test_migrate.py",  # 17
    "test_startup.py",  # 17
    "test_json_logs.py",  # 17
    "test_pacing.py",  # 15
    "test_web_e2e.py",  # 15
    "test_standby_webhook.py",  # 15
    "test_turn_messages.py",  # 14
    "test_webapp_lucky.py",  # 14 in WebKit
    "test_records_every_kind_e2e.py",  # 13
    "test_turn_flow.py",  # 12
    "test_rematch_e2e.py",  # 12
    "test_busy_group.py",  # 12
    "test_fuzz.py",  # 11
    "test_telegram_limits.py",  # 10
    "test_cones_e2e.py",  # 9
    "test_seasons_e2e.py",  # 8
    "test_computers.py",  # 7
    "test_webapp_trio.py",  # 7 in WebKit
    "test_toy_game.py",  # 6
]


def pytest_collection_modifyitems(items) -> None:
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: a file's own order kept
