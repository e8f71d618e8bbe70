"""An open deal survives a restart of the server (issue 22): a phone sends its hand, the server
(``make run``'s gunicorn) stops and starts again on the same database, and every phone finds the
hand there, with the phone that sent it; the next phone's hand completes the deal."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.table import access
from tests.phones import Phone, hidden_fields
from tests.server import app


def test_an_open_deal_survives_a_restart(tmp_path: Path) -> None:
    server = app.start(tmp_path)
    try:
        seeded = server.seed(["Ann", "Ben"], watcher=True)
        game = seeded["game"]
        ben = Phone(server.url, {access.COOKIE: seeded["watcher_cookie"]})
        page = f"/games/{game}/"
        seat = f"/games/{game}/seats/"
        assert ben.post(seat, {**hidden_fields(ben.get(page).body, seat), "seat": "1"}).status == 302
        opening = f"/games/{game}/open/"
        assert ben.post(opening, hidden_fields(ben.get(page).body, opening)).status == 302
        hand = f"/games/{game}/open/hands/1/"
        form = {**hidden_fields(ben.get(hand).body, hand), "p-1-melded": "KH KD KC", "p-1-held": "9C QS"}
        assert ben.post(hand, {**form, "action": "save"}).status == 302
    finally:
        server.stop()

    server = app.start(tmp_path)  # the same installation, started again
    try:
        ben = Phone(server.url, {access.COOKIE: seeded["watcher_cookie"]})
        status = ben.get(f"/games/{game}/open/status/").body
        assert 'id="open-hand-1"' in status and 'data-state="in"' in status and "from Watching phone" in status
        again = ben.get(f"/games/{game}/open/hands/1/").body
        assert 'value="KH KD KC"' in again and 'value="9C QS"' in again
        scorer = Phone(server.url, {access.COOKIE: seeded["cookie"]})
        ann = f"/games/{game}/open/hands/0/"
        form = {**hidden_fields(scorer.get(ann).body, ann), "out": "0", "p-0-melded": "QS QH QD 5S 6S 7S"}
        assert scorer.post(ann, {**form, "action": "save"}).status == 302
        game_page = scorer.get(f"/games/{game}/").body
        assert "Save deal 1" in game_page, game_page[-2000:]
    finally:
        server.stop()
