"""The README stays true: it documents every rule option of every game."""

from pathlib import Path

from scorekeeper.rules import profiles

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def test_readme_quick_start_is_two_commands():
    assert "make run" in README and "make test" in README


def test_readme_documents_every_knob_and_profile():
    for game in profiles.GAMES:
        section = README.split(f"(`{game}`): profiles", 1)[1].split("\n### ", 1)[0]
        for profile in profiles.PROFILES[game]:
            assert f"`{profile}`" in section
        for knob in profiles.knobs(game):
            row = next(line for line in section.splitlines() if line.startswith(f"| `{knob.name}` |"))
            assert knob.description in row
            assert knob.allowed_text() in row
