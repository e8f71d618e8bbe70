"""The rules engine must never import Django."""

import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "scorekeeper" / "rules"


def test_no_module_of_the_engine_imports_django():
    offenders = []
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "django"]
    assert offenders == []


def test_engine_imports_without_django_loaded():
    code = (
        "import sys, importlib, pkgutil, scorekeeper.rules as r\n"
        "for m in pkgutil.iter_modules(r.__path__): importlib.import_module('scorekeeper.rules.' + m.name)\n"
        "assert not any(k == 'django' or k.startswith('django.') for k in sys.modules), 'django loaded'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=RULES.parents[1])
