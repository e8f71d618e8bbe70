"""Every player enters his own hand on his own phone, at the same time (issue 22): a scorer and
three seated phones (browser contexts of 390×844 each) enter one Oklahoma deal, and two enter one
Gin deal, on the card picker. Every phone sees the others' hands being typed and come in, live; a third Q♠ is shown
on both hands that hold one; the scorer saves with one tap; the deal is scored exactly as the same
cards typed by one scorer."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Request, ViewportSize, expect

from scorekeeper.table import access
from scorekeeper.table.hands import opendeal
from scorekeeper.table.hands import services as hand_services
from scorekeeper.table.models import Deal, Device, Game, Role, Table
from tests.browser.entry_picker import GIN_DEAL, OKLAHOMA_DEAL, Picking, enter_gin, enter_oklahoma
from tests.conftest import NAMES, new_game, phone_cookie

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


def phone(browser: Browser, contexts: list[BrowserContext], url: str, device: Device, errors: list[str]) -> Page:
    context = browser.new_context(viewport=PHONE)
    contexts.append(context)
    context.add_cookies([{"name": access.COOKIE, "value": phone_cookie(device), "url": url}])
    page = context.new_page()
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return page


def sit(page: Page, url: str, game: Game, name: str) -> None:
    """The phone says whose it is on the game page."""
    page.goto(f"{url}/games/{game.pk}/")
    page.get_by_role("button", name=f"This is {name}'s phone").click()
    expect(page.locator("#seats")).to_contain_text("this phone")


def enter_own(page: Page, fields: list[tuple[str, str, str]], did: str | None = None, upcard: str = "") -> Picking:
    """One player's own fields on the picker ("next" between them), ``did`` (went out, knocked)
    tapped at his cards, then Send (the picker's key says the form's verb): the hand is sent."""
    p = Picking(page)
    if upcard:
        assert p.target() == "First upcard", p.target()
        p.card(upcard)
    elif p.target() == "First upcard":  # given by another phone: this one goes on to its own cards
        p.key("next field")
    for i, (player, what, cards) in enumerate(fields):
        if i:
            p.key("next field")
        assert p.target() == f"{player}: {what}", (p.target(), player, what)
        if did and i == 0:
            p.tap(page.get_by_label(f"{player} {did}"), f"{player} {did}")
        p.cards(cards)
    p.save("Send")
    return p


def hand_of(page: Page, seat: int) -> Locator:
    return page.locator(f"#open-hand-{seat}")


def fields_of(deal: dict, player: str) -> list[tuple[str, str, str]]:
    return [f for f in deal["fields"] if f[0] == player]


def typed_by_one_scorer(page: Page, url: str, table: Table, kind: str, deal: dict) -> Deal:
    """The same cards typed by one scorer on the ordinary deal form of a game like it."""
    game = new_game(table, kind=kind, profile="book" if kind == "oklahoma" else "standard", players=deal["players"])
    page.goto(f"{url}/games/{game.pk}/deals/new/")
    page.get_by_role("group", name="Card picker").wait_for()
    (enter_oklahoma if kind == "oklahoma" else enter_gin)(Picking(page), deal)
    expect(page.locator("#deal-1")).to_be_visible()
    return Deal.objects.get(game=game)


def test_three_phones_enter_one_oklahoma_deal_at_once(browser, contexts, live_server, scorer, page, shot):
    url, errors = live_server.url, list[str]()
    table = scorer.table
    game = new_game(table, kind="oklahoma", profile="book", players=OKLAHOMA_DEAL["players"])
    names = ("Ann", "Ben", "Cleo")
    devices = [Device.objects.create(table=table, name=f"{n}'s phone", role=Role.FOLLOW) for n in names]
    scoring = phone(browser, contexts, url, scorer, errors)
    ann, ben, cleo = (phone(browser, contexts, url, d, errors) for d in devices)
    for p, name in ((ann, "Ann"), (ben, "Ben"), (cleo, "Cleo")):
        sit(p, url, game, name)
    scoring.goto(f"{url}/games/{game.pk}/")
    expect(scoring.locator("#seat-phone-2")).to_have_value(str(devices[2].pk))

    # Ann opens the deal; the others see it open, live, and each goes to his own hand.
    ann.get_by_role("button", name="Next deal: enter my hand").click()
    expect(ann.get_by_role("heading", name="Deal 1: Ann's hand")).to_be_visible()
    for p in (ben, cleo):
        p.get_by_role("link", name="Enter my hand").click()
    expect(scoring.locator("#open-deal")).to_contain_text("3 hands still to come")
    expect(ben.locator("#player-0")).to_have_count(0)  # his own hand only

    # Cleo went out; Ann (a Q♠ too many in hand) and Ben (another) enter theirs at the same time.
    enter_own(cleo, fields_of(OKLAHOMA_DEAL, "Cleo"), did="went out")
    ann_fields = [(p, w, c + (" QS" if w == "Left in hand" else "")) for p, w, c in fields_of(OKLAHOMA_DEAL, "Ann")]
    enter_own(ann, ann_fields)
    expect(hand_of(ben, 0)).to_have_attribute("data-state", "in")  # Ben's page sees Ann's hand come in
    ben_fields = [(p, w, c + (" QS" if w == "Left in hand" else "")) for p, w, c in fields_of(OKLAHOMA_DEAL, "Ben")]
    picking = Picking(ben)
    for i, (_, _, cards) in enumerate(ben_fields):
        if i:
            picking.key("next field")
        picking.cards(cards)
    # The third Q♠, live beside Ben's field before he sends it
    expect(ben.locator("#id_p-1-held_box")).to_contain_text("Q♠ is entered 3 times")
    for page_ in (scoring, ann):  # the others see Ben's hand being typed, live
        expect(hand_of(page_, 1)).to_have_attribute("data-state", "typing")
        expect(hand_of(page_, 1)).to_contain_text("being typed")
    picking.save("Send")
    # ... and once sent, on both hands that hold it, on every phone
    for page_ in (scoring, ann, ben):
        expect(hand_of(page_, 0)).to_contain_text("Q♠ is entered 3 times")
        expect(hand_of(page_, 1)).to_contain_text("Q♠ is entered 3 times")
    shot(scoring, "own-hands-1-conflict")
    expect(scoring.get_by_role("button", name="Save deal 1")).to_have_count(0)

    # Each corrects his own hand: the form opens with what is stored; Q♠ out, sent again.
    for page_, seat, name in ((ann, 0, "Ann"), (ben, 1, "Ben")):
        page_.get_by_role("link", name="Correct my hand").click()
        held = page_.get_by_label(f"{name}: Left in hand", exact=True)
        expect(held).to_have_value(held.input_value())
        held.fill(held.input_value().replace(" QS", ""))
        page_.get_by_role("group", name="Card picker").get_by_role("button", name="Send", exact=True).click()
        expect(hand_of(page_, seat)).to_have_attribute("data-state", "in")
    for page_ in (scoring, ann, ben, cleo):
        for seat in range(3):
            expect(hand_of(page_, seat)).to_have_attribute("data-state", "in")

    # The scorer saves with one tap, the points shown.
    expect(scoring.locator("#open-deal table.preview")).to_contain_text("Cleo")
    shot(scoring, "own-hands-2-complete")
    scoring.get_by_role("button", name="Save deal 1").click()
    expect(scoring.locator("#deal-1")).to_contain_text("Cleo went out")
    for page_ in (ann, ben, cleo):
        expect(page_.locator("#deal-1")).to_contain_text("Cleo went out")
    saved = Deal.objects.get(game=game)

    one = typed_by_one_scorer(scoring, url, table, "oklahoma", OKLAHOMA_DEAL)
    assert (saved.points, saved.totals, saved.outcome) == (one.points, one.totals, one.outcome)
    scoring.goto(f"{url}/history/{game.pk}/changes/")
    expect(scoring.locator("#content, main")).to_contain_text("entered on Cleo's phone")
    assert not [e for e in errors if "Content Security Policy" in e], errors


def test_two_phones_enter_one_gin_deal(browser, contexts, live_server, scorer, shot):
    url, errors = live_server.url, list[str]()
    table = scorer.table
    game = new_game(table, kind="oklahoma-gin", profile="standard", players=GIN_DEAL["players"])
    devices = [Device.objects.create(table=table, name=f"{n}'s phone", role=Role.FOLLOW) for n in ("Ann", "Ben")]
    scoring = phone(browser, contexts, url, scorer, errors)
    ann, ben = (phone(browser, contexts, url, d, errors) for d in devices)
    sit(ann, url, game, "Ann")
    sit(ben, url, game, "Ben")
    scoring.goto(f"{url}/games/{game.pk}/")
    ben.get_by_role("button", name="Next deal: enter my hand").click()
    ann.get_by_role("link", name="Enter my hand").click()

    enter_own(ann, fields_of(GIN_DEAL, "Ann"), upcard=GIN_DEAL["upcard"])
    enter_own(ben, fields_of(GIN_DEAL, "Ben"), did="knocked")
    for page_ in (scoring, ann, ben):
        expect(hand_of(page_, 0)).to_have_attribute("data-state", "in")
        expect(hand_of(page_, 1)).to_have_attribute("data-state", "in")
    expect(scoring.locator("#open-deal")).to_contain_text("Ben knocked")
    scoring.get_by_role("button", name="Save deal 1").click()
    expect(scoring.locator("#deal-1")).to_contain_text("Ben knocked")
    saved = Deal.objects.get(game=game)

    one = typed_by_one_scorer(scoring, url, table, "oklahoma-gin", GIN_DEAL)
    assert (saved.points, saved.totals, saved.outcome) == (one.points, one.totals, one.outcome)
    assert not [e for e in errors if "Content Security Policy" in e], errors


def test_being_typed_goes_back_to_missing_on_the_others_with_no_reload(
    scorer_page, live_server, table, scorer, console_errors, monkeypatch
):
    """A phone that stops typing: the others' game pages show its hand "missing" again
    ``TYPING_FOR`` after its last preview (3 s here), with no reload and nothing written, asking
    for the live part once more then — not every second."""
    monkeypatch.setattr(opendeal, "TYPING_FOR", timedelta(seconds=3))
    game = new_game(table, players=NAMES, first_dealer=0)
    row = hand_services.open_deal(game=game, by=scorer)
    page = scorer_page
    parts: list[Request] = []
    page.on(
        "request",
        lambda r: (
            parts.append(r) if r.url.endswith(f"/games/{game.pk}/") and r.resource_type in ("xhr", "fetch") else None
        ),
    )
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(hand_of(page, 1)).to_have_attribute("data-state", "missing")
    hand_services.typing(game=game, seat=1, open_deal=row)  # Ben's form sent its live preview, once
    expect(hand_of(page, 1)).to_have_attribute("data-state", "typing")
    expect(hand_of(page, 1)).to_contain_text("being typed")
    expect(hand_of(page, 1)).to_have_attribute("data-state", "missing", timeout=8000)
    page.wait_for_timeout(2000)
    assert len(parts) == 2, [r.url for r in parts]  # the change, then once when the typing ended
    assert not console_errors, console_errors
