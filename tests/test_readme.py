"""The README stays true: it documents every rule option of every game, and every make command it names exists."""

import re
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


def test_readme_gives_each_profiles_value_and_source():
    """Each profile's cell says the value the profile data holds and where it comes from."""
    for game in profiles.GAMES:
        section = README.split(f"(`{game}`): profiles", 1)[1].split("\n### ", 1)[0]
        header = next(line for line in section.splitlines() if line.startswith("| option"))
        columns = [c.strip().strip("`") for c in header.strip("|").split("|")]
        for knob in profiles.knobs(game):
            row = next(line for line in section.splitlines() if line.startswith(f"| `{knob.name}` |"))
            cells = [c.strip() for c in row.strip("|").split("|")]
            for profile in profiles.PROFILES[game]:
                if profile in columns:
                    setting = knob.settings[profile]
                    value = f"`{setting.value}`" if isinstance(setting.value, str) else str(setting.value).lower()
                    assert cells[columns.index(profile)] == f"{value} ({setting.source})", (game, knob.name, profile)


def test_every_make_command_the_readme_names_is_a_target():
    makefile = (Path(__file__).resolve().parents[1] / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][\w-]*):", makefile, flags=re.MULTILINE))
    named = set(re.findall(r"(?:`|^)make ([a-z][\w-]*)", README, flags=re.MULTILINE))  # in code, not prose
    assert named and named <= targets, named - targets


def test_every_document_the_readme_names_is_in_the_repository():
    """docs/record.md and docs/rules.md, not the specification's files beside the repository."""
    root = Path(__file__).resolve().parents[1]
    named = set(re.findall(r"[\w./-]*\.md\b", README))
    assert {"docs/record.md", "docs/rules.md"} <= named
    missing = sorted(name for name in named if name.startswith("../") or not (root / name).is_file())
    assert not missing, missing


def test_the_layout_map_names_every_module_script_and_the_service_worker():
    """Issue 36: a newcomer finds each part by the README's layout map — every module of the app
    (migrations aside), every script and the service worker, by its file's name."""
    root = Path(__file__).resolve().parents[1]
    layout = README.split("### Layout", 1)[1].split("\n## ", 1)[0]
    files = [
        *(p for p in (root / "scorekeeper").rglob("*.py") if "migrations" not in p.parts and p.name != "__init__.py"),
        *(root / "static").rglob("*.js"),
        *(root / "static").rglob("*.mjs"),
        root / "templates" / "offline" / "sw.js",
    ]

    def named(path: Path) -> bool:
        if "templatetags" in path.parts or "commands" in path.parts:  # a tag library, a command: by name
            return re.search(rf"`(manage\.py )?{path.stem}`", layout) is not None
        if "formats" in path.parts:
            return "`formats/`" in layout
        return f"`{path.name}`" in layout or f"{path.parent.name}/{path.name}`" in layout

    assert sorted(str(p.relative_to(root)) for p in files if not named(p)) == []
