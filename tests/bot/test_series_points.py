"""Series points by place (docs/series.md): n-1 ... 0, tied places share their points."""
from bot.games.base import points_by_place
from bot.words.format import points_text


def test_points_by_place_and_shared_ties():
    assert points_by_place([1, 2, 3, 4]) == [3, 2, 1, 0]
    assert points_by_place([2, 1]) == [0, 1]
    assert points_by_place([1, 1]) == [0.5, 0.5]
    assert points_by_place([1, 1, 3]) == [1.5, 1.5, 0]
    assert points_by_place([1, 2, 2, 4]) == [3, 1.5, 1.5, 0]
    assert points_by_place([1, 1, 1, 1]) == [1.5] * 4
    assert all(type(p) is int for p in points_by_place([1, 2, 3]))


def test_points_are_written_with_halves():
    assert [points_text(v) for v in (0, 3, 0.5, 2.5)] == ["0", "3", "½", "2½"]
