"""What ``pip install .`` must ship besides the code: the compiled catalogues (the bot reads only
them) and the two fonts with their licence. Checked against pyproject.toml's package data, the
way setuptools matches it (a glob relative to the package's folder)."""
from __future__ import annotations

import pathlib
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def shipped(package: str) -> set[pathlib.Path]:
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"][package]
    return {path for pattern in globs for path in (ROOT / package).glob(pattern)}


def test_every_compiled_catalogue_is_package_data():
    catalogues = set((ROOT / "bot" / "words" / "locales").glob("*/LC_MESSAGES/*.mo"))
    assert len(catalogues) >= 6 and catalogues <= shipped("bot")
    assert {po.with_suffix(".mo") for po in (ROOT / "bot" / "words" / "locales").glob("*/LC_MESSAGES/*.po")} == catalogues


def test_the_fonts_and_their_licence_are_package_data():
    fonts = ROOT / "render" / "fonts"
    assert {fonts / "Roboto-Regular.ttf", fonts / "Roboto-Bold.ttf", fonts / "LICENSE"} <= shipped("render")
