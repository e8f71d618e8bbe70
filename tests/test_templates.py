"""The templates stay readable: no line over 120 characters (ruff's limit for the Python) and every
``{% endpartialdef %}`` names the partial it closes, as djade writes it."""

import re
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
LONGEST = 120
UNNAMED_END = re.compile(r"{%-?\s*endpartialdef\s*-?%}")


def templates() -> list[Path]:
    return sorted(TEMPLATES.rglob("*.html"))


def test_templates_are_found():
    assert len(templates()) > 20


@pytest.mark.parametrize("path", templates(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_no_template_line_is_over_120_characters(path: Path):
    lines = path.read_text(encoding="utf-8").splitlines()
    long = [f"line {n}: {len(line)} characters" for n, line in enumerate(lines, 1) if len(line) > LONGEST]
    assert not long, long


@pytest.mark.parametrize("path", templates(), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_every_endpartialdef_names_its_partial(path: Path):
    text = path.read_text(encoding="utf-8")
    unnamed = [text.count("\n", 0, m.start()) + 1 for m in UNNAMED_END.finditer(text)]
    assert not unnamed, f"unnamed endpartialdef on lines {unnamed}"
