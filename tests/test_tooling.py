"""The commit hook and `make lint` check the same things with the same tools: every pre-commit hook runs
a tool of the venv, and `make lint` runs each of them in check mode with the same Django target."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
CONFIG = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
HOOKS = [hook for repo in CONFIG["repos"] for hook in repo["hooks"]]
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")


def recipe(target: str) -> str:
    return MAKEFILE.split(f"\n{target}:", 1)[1].split("\n\n", 1)[0]


def test_the_hooks_are_the_issue_s_tools_run_from_the_venv():
    assert [hook["id"] for hook in HOOKS] == ["ruff-check", "ruff-format", "django-upgrade", "djade", "mypy"]
    for hook in HOOKS:
        assert hook["language"] == "system" and hook["entry"].startswith(".venv/bin/"), hook["id"]


def test_make_lint_runs_every_hook_in_check_mode():
    lint = recipe("lint")
    assert "-m ruff check ." in lint and "-m ruff format --check ." in lint and "-m mypy" in lint
    assert "django-upgrade --target-version $(DJANGO_TARGET) --check" in lint
    assert "djade --target-version $(DJANGO_TARGET) --check" in lint


def test_hooks_and_make_lint_target_the_same_django():
    [target] = re.findall(r"^DJANGO_TARGET := (\S+)$", MAKEFILE, flags=re.MULTILINE)
    for hook in HOOKS:
        if hook["id"] in ("django-upgrade", "djade"):
            assert hook["entry"].endswith(f"--target-version {target}"), hook["id"]
