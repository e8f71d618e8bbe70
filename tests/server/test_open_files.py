"""``serve`` (``make run``) raises its own limit of open files to the hard limit as it starts
(issue 37, defect 5): under the common ``ulimit -n 1024`` each watching phone's stream holds a file,
and the server refused every new client after about a thousand of them."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

from tests.server import app

LOW = 256
RAISE = (
    "import json, resource, django; django.setup(); "
    "from scorekeeper.server.management.commands.serve import raise_open_file_limit; "
    "print(json.dumps([raise_open_file_limit(), resource.getrlimit(resource.RLIMIT_NOFILE)]))"
)


def hard_limit() -> int:
    return resource.getrlimit(resource.RLIMIT_NOFILE)[1]


def test_the_soft_limit_of_open_files_is_raised_to_the_hard_limit(tmp_path: Path):
    done = subprocess.run(
        ["prlimit", f"--nofile={LOW}:{hard_limit()}", sys.executable, "-c", RAISE],
        env=app.app_env(tmp_path, DJANGO_SETTINGS_MODULE="scorekeeper.settings"),
        cwd=app.ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    (before, after), limits = json.loads(done.stdout)
    assert (before, after) == (LOW, hard_limit()) and limits == [hard_limit(), hard_limit()]


def test_serve_and_its_workers_run_with_the_raised_limit(tmp_path: Path):
    port = app.free_port()
    command = [sys.executable, str(app.ROOT / "manage.py"), "serve", "--bind", "127.0.0.1", "--port", str(port)]
    served = app.start(tmp_path, command=command, port=port, prefix=["prlimit", f"--nofile={LOW}:{hard_limit()}"])
    try:
        # prlimit and serve each replace themselves (exec): the process started is gunicorn's master.
        master = served.process.pid
        workers = Path(f"/proc/{master}/task/{master}/children").read_text().split()
        assert workers
        for pid in [master, *map(int, workers)]:
            line = next(x for x in Path(f"/proc/{pid}/limits").read_text().splitlines() if "open files" in x)
            assert line.split()[3:5] == [str(hard_limit())] * 2, line
    finally:
        served.stop()
