"""The templates stay readable: no line over 120 characters (ruff's limit for the Python) and every
``{% endpartialdef %}`` of a partial over several lines names the partial it closes, as djade writes it
(djade leaves a one-line partial's end unnamed: its name is in sight)."""

import re
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
LONGEST = 120
PARTIAL_TAG = re.compile(r"{%\s*(partialdef|endpartialdef)\s*([\w-]*)[^%]*%}")


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
    opened: list[tuple[str, int]] = []
    wrong = []
    for match in PARTIAL_TAG.finditer(text):
        tag, name = match.groups()
        line = text.count("\n", 0, match.start()) + 1
        if tag == "partialdef":
            opened.append((name, line))
            continue
        partial, start = opened.pop()
        if (name or start != line) and name != partial:
            wrong.append(f"line {line}: {{% endpartialdef {name} %}} closes {partial!r} of line {start}")
    assert not wrong and not opened, wrong


def test_no_page_names_a_file_for_the_record_notation():
    """A player reads "card notation: QS QH 2C=QD", not the name of a file of this project's
    specification (which no page links to and no phone can open)."""
    named = [
        f"{path.relative_to(TEMPLATES)}: {line.strip()}"
        for path in templates()
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.search(r"\b(RECORD|RULES)\.md\b", line)
    ]
    assert not named, named
