"""Hostile or odd input gets a clear 4xx answer, never a 500 (issue 8): Unicode digits where a seat or
a version is expected, JSON integers too long for Python, NUL characters (PostgreSQL refuses them
in text), a rule set that is not text, HTTP methods a page does not take, long checker questions.
``make test`` runs these on SQLite and on PostgreSQL."""

from __future__ import annotations

import io
import json
import sys

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client

from scorekeeper.rules.record import FORMAT
from scorekeeper.table.models import Change, Deal, Device, Game, Link, Player, Role, Submission
from scorekeeper.table.phones import services as phone_services
from scorekeeper.table.scoring import deals as deal_services
from scorekeeper.table.scoring import engine
from tests.app_data import GIN_KNOCK, OK_SMALL, gin_post, ok_post, ok_record_deal
from tests.conftest import NAMES, as_phone

pytestmark = pytest.mark.django_db

HUGE = "1" * 5000  # over Python's 4,300-digit limit for turning text into an int


def record(**changes):
    rec = {
        "format": FORMAT,
        "game": "oklahoma",
        "rules": {"profile": "book"},
        "players": NAMES,
        "deals": [ok_record_deal(OK_SMALL, NAMES)],
    }
    rec.update(changes)
    return rec


def text(response) -> str:
    return response.content.decode()


def no_nul(values) -> bool:
    """(A NUL cuts an SQLite LIKE pattern short: look in Python.)"""
    return "\x00" not in json.dumps(list(values))


# ----------------------------------------------------------------------- Unicode digits


@pytest.mark.parametrize("seat", ["²", "①", "٣", "１", "0²", "-1", " 1", "1e3", HUGE])
def test_a_unicode_digit_as_who_went_out_is_a_clear_error(client, ok_game, seat):
    r = client.post(f"/games/{ok_game.pk}/deals/new/", {**ok_post(OK_SMALL), "out": seat})
    assert r.status_code == 400
    assert "Say who went out" in text(r)
    assert ok_game.deals.count() == 0


@pytest.mark.parametrize("seat", ["²", "①", "٣", "１", HUGE])
def test_a_unicode_digit_as_who_knocked_is_a_clear_error(client, gin_game, seat):
    r = client.post(f"/games/{gin_game.pk}/deals/new/", {**gin_post(GIN_KNOCK), "knocker": seat})
    assert r.status_code == 400
    assert "Say who knocked" in text(r)
    assert gin_game.deals.count() == 0


@pytest.mark.parametrize("field", ["number", "version"])
@pytest.mark.parametrize("value", ["²", "①", "٣", HUGE, "-1", "x"])
def test_odd_hidden_numbers_in_the_deal_form_never_fail(client, ok_game, field, value):
    r = client.post(f"/games/{ok_game.pk}/deals/new/", {**ok_post(OK_SMALL), field: value})
    assert r.status_code in (302, 400, 409)


@pytest.mark.parametrize("version", ["²", "①", "٣", HUGE, "-1", "x", ""])
def test_an_odd_version_in_the_delete_form_never_fails(client, ok_game, version):

    deal = deal_services.add_deal(game=ok_game, deal=ok_record_deal(OK_SMALL, NAMES))
    r = client.post(f"/games/{ok_game.pk}/deals/{deal.pk}/delete/", {"version": version})
    assert r.status_code in (302, 409)


# ------------------------------------------------------------------ submission tokens


@pytest.mark.parametrize("token", ["x" * 65, "x" * 5000, "a\x00b", "ü" * 40, " "])
def test_an_odd_submission_token_never_fails(client, ok_game, token):
    """A token the app did not make (too long for its column, a NUL PostgreSQL refuses) is no
    token: the write is made, once."""
    r = client.post(f"/games/{ok_game.pk}/deals/new/", {**ok_post(OK_SMALL), "submission": token})
    assert r.status_code == 302
    deal = ok_game.deals.get()
    r = client.post(f"/games/{ok_game.pk}/deals/{deal.pk}/delete/", {"version": "1", "submission": token})
    assert r.status_code == 302 and ok_game.deals.count() == 0
    change = Change.objects.filter(game=ok_game, action="deleted").get()
    r = client.post(f"/history/{ok_game.pk}/changes/{change.pk}/undo/", {"submission": token})
    assert r.status_code == 302 and ok_game.deals.count() == 1
    r = client.post(f"/history/{ok_game.pk}/rescore/", {"profile": "laws", "submission": token})
    assert r.status_code == 302
    assert all(len(s.token) <= 64 and "\x00" not in s.token for s in Submission.objects.all())


# -------------------------------------------------------------------- JSON integers


def test_a_huge_json_integer_in_an_import_is_a_clear_error(client):
    payload = json.dumps(record(rules={"profile": "book", "options": {"target": 1}})).replace(": 1}", f": {HUGE}}}")
    assert HUGE in payload
    r = client.post("/history/import/", {"file": SimpleUploadedFile("x.json", payload.encode())})
    assert r.status_code == 400
    assert "digits" in text(r)
    assert Game.objects.count() == 0


def test_a_huge_json_integer_pasted_into_the_import_form_is_a_clear_error(client):
    r = client.post("/history/import/", {"text": f'{{"format": {HUGE}}}'})
    assert r.status_code == 400 and "digits" in text(r)


def test_a_huge_json_integer_in_the_checker_is_a_clear_answer(client):
    deal = json.dumps(ok_record_deal(OK_SMALL, NAMES)).replace('"out": "Ben"', f'"out": {HUGE}')
    assert HUGE in deal
    for method in (client.get, client.post):
        r = method("/check/", {"kind": "deal", "profile": "book", "deal": deal[:20000]})
        assert r.status_code == 200
        assert "digits" in text(r)


def run_score(payload: str, tmp_path) -> tuple[object, str]:
    path = tmp_path / "game.json"
    path.write_text(payload, encoding="utf-8")
    out = io.StringIO()
    code: object = 0
    try:
        call_command("score", str(path), stdout=out)
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue()


def test_score_command_prints_errors_for_a_huge_json_integer(tmp_path):
    code, out = run_score(f'{{"format": "{FORMAT}", "game": "oklahoma", "players": {HUGE}}}', tmp_path)
    assert code == 1
    errors = json.loads(out)["errors"]
    assert errors and "digits" in errors[0]["message"]


@pytest.mark.parametrize("profile", [5, None, True, ["book"], {"book": 1}, 1.5])
def test_score_command_prints_errors_for_a_rule_set_that_is_not_text(tmp_path, profile):
    code, out = run_score(json.dumps(record(rules={"profile": profile})), tmp_path)
    assert code == 1
    errors = json.loads(out)["errors"]
    assert any("profile" in e["message"] for e in errors)


@pytest.mark.parametrize("game", [5, ["oklahoma"], {"oklahoma": 1}])
def test_score_command_prints_errors_for_a_game_that_is_not_text(tmp_path, game):
    code, out = run_score(json.dumps(record(game=game)), tmp_path)
    assert code == 1
    assert json.loads(out)["errors"]


@pytest.mark.parametrize("profile", [5, ["book"], {"book": 1}])
def test_an_import_with_a_rule_set_that_is_not_text_is_a_clear_error(client, profile):
    r = client.post("/history/import/", {"text": json.dumps(record(rules={"profile": profile}))})
    assert r.status_code == 400 and "profile" in text(r)
    assert Game.objects.count() == 0


def test_score_command_reading_standard_input(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(f"[{HUGE}]".encode())))
    out = io.StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("score", "-", stdout=out)
    assert exc.value.code == 1 and "digits" in out.getvalue()


# ----------------------------------------------------------------------- NUL characters


def test_a_nul_in_a_new_players_name_is_cleaned(client):
    r = client.post(
        "/games/new/", {"game": "oklahoma", "profile": "book", "seat_0": "An\x00n", "seat_1": "Ben", "first_dealer": 0}
    )
    assert r.status_code in (302, 400)
    assert no_nul(Player.objects.values_list("name", "key"))


def test_a_nul_in_a_rename_is_cleaned_or_refused(client, ok_game):
    ann = Player.objects.get(name="Ann")
    r = client.post(f"/players/{ann.pk}/rename/", {"name": "Ann\x00e"})
    assert r.status_code in (302, 400)
    assert no_nul(Player.objects.values_list("name", "key"))


def test_a_nul_in_the_games_filter_is_no_error(client, ok_game):
    for query in ({"player": "An\x00n"}, {"player": "\x00"}, {"game": "\x00"}, {"state": "a\x00"}, {"page": "\x00"}):
        assert client.get("/history/", query).status_code == 200
        assert client.get("/history/export.csv", query).status_code == 200


def test_a_nul_in_a_phones_name_when_joining(table, scorer):

    link = phone_services.create_link(table=table, role=Role.FOLLOW, by=scorer)
    phone = Client()
    r = phone.post(f"/join/{link.token}/", {"name": "Ben\x00's phone"})
    assert r.status_code in (302, 400)
    assert no_nul(Device.objects.values_list("name", flat=True))


def test_a_nul_in_an_imported_record(client):
    rec = record(players=["An\x00n", "Ben", "Cleo"], deals=[ok_record_deal(OK_SMALL, ["An\x00n", "Ben", "Cleo"])])
    r = client.post("/history/import/", {"text": json.dumps(rec)})
    assert r.status_code in (302, 400)
    assert no_nul(Player.objects.values_list("name", "key"))
    rec = record(deals=[{**ok_record_deal(OK_SMALL, NAMES), "out": "Ben\x00"}])
    r = client.post("/history/import/", {"text": json.dumps(rec)})
    assert r.status_code == 400
    rec = record(rules={"profile": "bo\x00ok"})
    assert client.post("/history/import/", {"text": json.dumps(rec)}).status_code == 400


def test_a_nul_in_a_deal_field(client, ok_game):
    r = client.post(f"/games/{ok_game.pk}/deals/new/", {**ok_post(OK_SMALL), "p-0-held": "8S\x00"})
    assert r.status_code in (302, 400)
    r = client.post(f"/games/{ok_game.pk}/deals/new/", {**ok_post(OK_SMALL), "p-0-held\x00": "8S"})
    assert r.status_code in (302, 400)
    assert all("\x00" not in json.dumps(d.cards) for d in Deal.objects.all())


def test_a_nul_in_a_checker_question(client):
    r = client.get("/check/", {"kind": "meld\x00", "cards": "QS\x00 QH QD", "profile": "bo\x00ok"})
    assert r.status_code == 200


# ------------------------------------------------------------------------- HTTP methods


@pytest.mark.parametrize("url", ["/check/", "/rules/", "/rules/oklahoma/book/"])
@pytest.mark.parametrize("method", ["put", "patch", "delete", "options", "trace"])
def test_pages_refuse_methods_they_do_not_take(client, url, method):
    r = getattr(client, method)(url)
    assert r.status_code == 405


def test_rules_pages_do_not_take_posts(client):
    assert client.post("/rules/").status_code == 405
    assert client.post("/rules/oklahoma/book/").status_code == 405


# -------------------------------------------------------------- long checker questions


def test_a_long_checker_question_comes_by_post(client):
    """A whole record pasted: far longer than a URL a server takes (gunicorn: 4 KB)."""
    rec = engine.record(
        kind="oklahoma",
        profile="book",
        options={},
        names=NAMES,
        first_dealer=0,
        deals=[engine.seat_deal(ok_record_deal(OK_SMALL, NAMES), NAMES)] * 20,
    )
    question = json.dumps(rec)
    assert len(question) > 4096
    page = text(client.get("/check/", {"kind": "deal"}))
    assert 'id="checker-form"' in page
    form = page[page.index('id="checker-form"') - 200 : page.index('id="checker-form"') + 400]
    assert 'method="post"' in form  # the page sends a pasted deal or record by POST
    r = client.post("/check/", {"kind": "deal", "profile": "book", "deal": question})
    assert r.status_code == 200
    assert "Ben" in text(r)


def test_short_checker_questions_stay_links(client):
    page = text(client.get("/check/", {"kind": "meld"}))
    form = page[page.index('id="checker-form"') - 200 : page.index('id="checker-form"') + 400]
    assert 'method="get"' in form


# -------------------------------------------------------------------- odd devices/links


def test_an_odd_join_token_and_cookie_never_fail(ok_game):
    phone = Client()
    assert phone.get("/join/%00/").status_code == 404
    assert phone.get("/join/" + "x" * 5000 + "/").status_code == 404
    phone.cookies["sk_devices"] = "\x00garbage"
    assert phone.get("/").status_code == 200
    assert phone.get(f"/games/{ok_game.pk}/").status_code == 404
    assert Link.objects.count() == 0


def test_a_revoked_phone_sees_nothing(client, ok_game, scorer):
    from django.utils import timezone

    Device.objects.filter(pk=scorer.pk).update(revoked=timezone.now())
    r = as_phone(Client(), scorer).get(f"/games/{ok_game.pk}/")
    # Told it was taken off the table (issue 21), and shown nothing of the game.
    assert r.status_code == 403 and "The scorer took this phone off the table" in r.content.decode()
    assert not any(name in r.content.decode() for name in ("Ann", "Ben", "Cleo"))


@pytest.mark.parametrize(
    "names", [["Ann  Lee", "Ben", "Cleo"], ["An\x00n", "Ben", "Cleo"], ["Ann\u200b", "Ben", "Cleo"]]
)
def test_an_import_whose_names_the_app_cleans_keeps_its_deals_and_scores(client, names):
    """The app cleans names (control characters, runs of spaces): the deals still go by seat."""
    rec = record(players=names, first_dealer=names[1], deals=[ok_record_deal(OK_SMALL, names)] * 2)
    before = engine.score(rec)
    r = client.post("/history/import/", {"text": json.dumps(rec)})
    assert r.status_code == 302
    game = Game.objects.get()
    assert game.first_dealer == 1
    assert all(isinstance(d.cards["hands"], list) and d.cards["out"] == 1 for d in game.deals.all())
    after = engine.game_result(game)
    assert [d.totals[n] for d in after.deals for n in after.players] == [
        d.totals[n] for d in before.deals for n in before.players
    ]


@pytest.mark.parametrize("names", [["Ann", "Ａnn"], ["Ann", "Ann\x00"], ["Ann", "\x00"], ["Émile", "E\u0301mile"]])
def test_names_that_are_one_player_once_cleaned_are_a_clear_error(client, names):
    rec = record(players=names, deals=[])
    r = client.post("/history/import/", {"text": json.dumps(rec)})
    assert r.status_code == 400
    assert Game.objects.count() == 0
    r = client.post(
        "/games/new/",
        {"game": "oklahoma", "profile": "book", "seat_0": names[0], "seat_1": names[1], "first_dealer": 0},
    )
    assert r.status_code == 400
    assert Game.objects.count() == 0


def test_a_rules_switch_posted_with_no_fields_is_refused(client, ok_game):
    r = client.post(f"/history/{ok_game.pk}/rescore/", {})
    assert r.status_code == 400
    ok_game.refresh_from_db()
    assert ok_game.profile == "book" and not Change.objects.filter(game=ok_game, action="rules").exists()


LONE = '"\\ud9e1"'  # JSON text: an escape of half a character (a lone UTF-16 surrogate)


def test_a_lone_surrogate_in_an_import_is_a_clear_error(client):
    rec = json.dumps(record()).replace('"Ann"', LONE, 1)
    for payload in ({"text": rec}, {"file": SimpleUploadedFile("x.json", rec.encode())}):
        r = client.post("/history/import/", payload)
        assert r.status_code == 400 and "half a character" in text(r)
    assert Game.objects.count() == 0


def test_a_lone_surrogate_in_the_checker_and_the_score_command(client, tmp_path):
    deal = json.dumps(ok_record_deal(OK_SMALL, NAMES)).replace('"Ben"', LONE)
    r = client.post("/check/", {"kind": "deal", "profile": "book", "deal": deal})
    assert r.status_code == 200 and "half a character" in text(r)
    code, out = run_score(json.dumps(record()).replace('"Ann"', LONE, 1), tmp_path)
    assert code == 1 and "half a character" in json.loads(out)["errors"][0]["message"]


@pytest.mark.parametrize("deal", [5, "x", None, [], ["out"]])
def test_an_import_with_a_deal_that_is_no_object_is_a_clear_error(client, caplog, deal):
    rec = record(deals=[ok_record_deal(OK_SMALL, NAMES), deal])
    with caplog.at_level("ERROR"):
        r = client.post("/history/import/", {"text": json.dumps(rec)})
    assert r.status_code == 400 and "Deal 2" in text(r)
    assert not [x for x in caplog.records if x.name.startswith("scorekeeper")]  # the engine did not fail inside
    assert Game.objects.count() == 0


@pytest.mark.parametrize("length", [151, 300, 5000])
def test_an_overlong_admin_login_name_is_refused_not_a_server_error(length):
    """The admin login form passes any length of user name to the check; the throttling counts the
    failure under the name cut to 150 characters (its table holds 255: PostgreSQL refused more)."""
    from axes.models import AccessAttempt

    for _ in range(2):
        response = Client().post("/admin/login/", {"username": "x" * length, "password": "wrong"})
        assert response.status_code == 200
        assert b"Please enter the correct username and password" in response.content
    attempt = AccessAttempt.objects.get()
    assert attempt.username == "x" * 150 and attempt.failures_since_start == 2


@pytest.mark.parametrize("number", ["0", "00"])
def test_a_deal_form_opened_for_deal_0_saves_the_next_deal(client, ok_game, number):
    """A tampered deal number (the form's hidden field) that names no deal is no conflict: the
    cards are saved once, as the next deal."""
    before = ok_game.deals.count()
    response = client.post(f"/games/{ok_game.pk}/deals/new/", {**ok_post(OK_SMALL), "number": number})
    assert response.status_code == 302
    assert ok_game.deals.count() == before + 1
