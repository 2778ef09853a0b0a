"""The ``series`` option every game carries (the bot plays the series; engines only keep it)."""
from __future__ import annotations

import pytest

from engines import cones, genial, lucky, trio
from engines.base import IllegalAction

ENGINES = [cones, genial, lucky, trio]


@pytest.mark.parametrize("eng", ENGINES, ids=lambda e: e.INFO.id)
def test_series_is_an_option_like_luckys(eng):
    opt = eng.INFO.option("series")
    assert (opt.kind, opt.default, opt.minimum, opt.maximum, opt.switched_on) == ("int", 0, 0, 8, 1)


@pytest.mark.parametrize("eng", ENGINES, ids=lambda e: e.INFO.id)
def test_series_survives_json_and_is_validated(eng):
    state = eng.setup(2, eng.Options(series=3), 7)
    data = eng.to_json(state)
    assert data["options"]["series"] == 3
    assert eng.from_json(data).options.series == 3
    for bad in (9, -1, True, "2"):
        broken = {**data, "options": {**data["options"], "series": bad}}
        with pytest.raises(IllegalAction):
            eng.from_json(broken)


@pytest.mark.parametrize("eng", [cones, genial, trio], ids=lambda e: e.INFO.id)
def test_a_state_saved_before_series_existed_still_loads(eng):
    data = eng.to_json(eng.setup(2, eng.Options(), 7))
    del data["options"]["series"]
    assert eng.from_json(data).options.series == 0
