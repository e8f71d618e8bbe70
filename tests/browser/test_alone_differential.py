"""The engine in the phone's browser is the server's: 2,000+ records — both games, every profile, Hollywood,
points-only deals, refused records — scored through ``window.scorekeeperAlone.score(record)`` in Chromium,
offline, give the very JSON that ``manage.py score`` prints for each."""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import Page

from scorekeeper.alone import assets
from scorekeeper.rules import profiles
from tests.rules import oklahoma_random
from tests.rules.test_gin_game_properties import random_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECORDS = Path(__file__).resolve().parents[1] / "rules" / "records"
NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eve")
BATCH = 100  # records per call into the page: one message to the worker each


def _header(game: str, profile: str, players: tuple[str, ...], options: dict[str, Any]) -> dict[str, Any]:
    record: dict[str, Any] = {
        "format": "oklahoma-scorekeeper/1",
        "game": game,
        "rules": {"profile": profile, **({"options": options} if options else {})},
        "players": list(players),
    }
    return record


def _points(rng: random.Random, players: tuple[str, ...]) -> dict[str, Any]:
    deal: dict[str, Any] = {"points": {p: rng.randint(-60, 120) for p in players}}
    if rng.random() < 0.7:
        deal["winner"] = rng.choice(players)
    return deal


def _spoil(rng: random.Random, record: dict[str, Any]) -> None:
    """A record the engine refuses: a card that is no card, a meld that is none, an unknown option."""
    what = rng.randrange(4)
    if what == 0 and record["deals"]:
        deal = record["deals"][rng.randrange(len(record["deals"]))]
        hand: dict[str, Any] = next(iter((deal.get("hands") or {"x": {}}).values()), {})
        hand["held" if record["game"] == profiles.OKLAHOMA else "cards"] = ["XX", "5S"]
    elif what == 1:
        record["rules"]["options"] = {"no_such_option": 1}
    elif what == 2:
        record["players"] = record["players"][:1]
    else:
        record["deals"].append({"out": "Nobody", "hands": {}})


def records(count: int, seed: int = 39) -> list[dict[str, Any]]:
    """Both games, every profile (and house options, Hollywood), points-only deals and refused records."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = [json.loads(p.read_text()) for p in sorted(RECORDS.glob("*.json"))]
    out = [r for r in out if isinstance(r, dict) and "format" in r]
    while len(out) < count:
        game = rng.choice(profiles.GAMES)
        profile = rng.choice(list(profiles.PROFILES[game]))
        most = profiles.defaults(game, profile)["max_players"]
        options: dict[str, Any] = {}
        if game == profiles.OKLAHOMA:
            players = NAMES[: rng.randint(2, most)]
            options["target"] = rng.choice([300, 500, 1000])
            if rng.random() < 0.3:
                options["joker"] = False
            deals = [oklahoma_random.deal(rng, players, options.get("joker", True)) for _ in range(rng.randint(1, 6))]
        else:
            hollywood = most == 2 and rng.random() < 0.25
            players = NAMES[: rng.randint(2, most)] if not hollywood else NAMES[:2]
            options["target"] = rng.choice([50, 100])
            if hollywood:
                options["hollywood"] = True
            if rng.random() < 0.2:
                options["spade_multiplier"] = 3
            deals = [random_deal(rng, players, True) for _ in range(rng.randint(1, 5))]
        if rng.random() < 0.15:
            deals.insert(rng.randrange(len(deals) + 1), _points(rng, players))
        record = {**_header(game, profile, players, options), "deals": deals}
        if rng.random() < 0.3:
            record["first_dealer"] = rng.choice(players)
        if rng.random() < 0.12:
            _spoil(rng, record)
        out.append(record)
    return out


def server_answers(recs: list[dict[str, Any]], tmp_path: Path) -> list[Any]:
    """``manage.py score FILE`` of each record, as it prints it (an invalid one exits 1 with its errors)."""
    answers = []
    for i, record in enumerate(recs):
        path = tmp_path / f"r{i}.json"
        path.write_text(json.dumps(record))
        out = _Out()
        with contextlib.suppress(SystemExit):
            call_command("score", str(path), stdout=out)
        answers.append(json.loads(out.text))
    return answers


class _Out:
    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def test_the_phone_scores_every_record_as_the_server_does(page: Page, live_server, tmp_path):
    assets.fetch_pyodide()
    recs = records(2000)
    kinds = {(r["game"], r["rules"]["profile"]) for r in recs}
    assert kinds == {(g, p) for g in profiles.GAMES for p in profiles.PROFILES[g]}  # every profile
    assert any((r["rules"].get("options") or {}).get("hollywood") for r in recs)
    assert any("points" in d for r in recs for d in r["deals"] if isinstance(d, dict))
    expected = server_answers(recs, tmp_path)
    refused = sum("errors" in a for a in expected)
    assert 100 < refused < len(recs) - 1000  # refused records, and far more scored ones

    page.goto(f"{live_server.url}/alone/")
    page.wait_for_function("window.scorekeeperAlone && window.scorekeeperAlone.ready", timeout=60_000)
    page.evaluate("window.scorekeeperAlone.ready.then(() => true)")
    page.context.set_offline(True)  # the engine is the phone's own
    got: list[Any] = []
    for start in range(0, len(recs), BATCH):
        got += page.evaluate("rs => window.scorekeeperAlone.scoreMany(rs)", recs[start : start + BATCH])
    differ = [i for i, (a, b) in enumerate(zip(got, expected, strict=True)) if a != b]
    assert differ == [], f"{len(differ)} records differ, the first: {recs[differ[0]]}"
