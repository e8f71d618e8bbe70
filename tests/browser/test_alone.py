"""A phone alone (issue 39): /alone/ opened once, then with the network cut from the start of the visit,
a whole Oklahoma game and a whole Gin game played through the page — the table's card picker and live
checks, a mistyped card and a meld the engine refuses —, scored as the server scores the same record;
the games survive a reload and a new worker; back online, *Hand it to the table* makes one game at the
phone's table, equal to the phone's, however often it is tapped."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.alone import assets
from scorekeeper.alone.models import HandedGame
from scorekeeper.rules.record import result_json, score_record
from scorekeeper.table import access
from scorekeeper.table.models import Game
from scorekeeper.table.scoring.engine import game_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

READY = "window.scorekeeperAlone.ready.then(() => true)"
LOAD = 60_000  # Pyodide on a busy two-core machine


@pytest.fixture(scope="module", autouse=True)
def pyodide():
    assets.fetch_pyodide()


def wait_ready(page: Page) -> None:
    page.wait_for_function("window.scorekeeperAlone && window.scorekeeperAlone.ready", timeout=LOAD)
    assert page.evaluate(READY)


def open_offline(page: Page, url: str, lang: str) -> None:
    """Online once (the service worker and the phone alone keep what it needs), then a visit with
    the network cut from its start."""
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": url}])
    page.goto(f"{url}/alone/")
    wait_ready(page)
    page.wait_for_function("navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)")
    page.context.set_offline(True)
    page.reload()
    wait_ready(page)


def new_game(page: Page, kind: str, players: list[str], options: dict[str, str]) -> None:
    page.locator("#to-new").click()
    page.locator(f'#new-view .tab[data-game="{kind}"]').click()
    form = page.locator(f'form.alone-new[data-game="{kind}"]')
    form.locator('input[name="profile"]').first.check()
    for i, name in enumerate(players):
        form.locator(f'input[name="seat_{i}"]').fill(name)
    for name, value in options.items():
        form.locator(f'[name="{name}"]').fill(value) if name == "target" else form.locator(
            f'[name="{name}"]'
        ).select_option(value)
    form.locator("button[type=submit]").click()
    expect(page.locator("#game-view .actions a.primary")).to_be_visible()


def typed(page: Page, field: str, text: str) -> None:
    page.locator(f"#id_{field}").fill(text)


def error_of(page: Page, field: str):
    return page.locator(f"#id_{field}_feedback .errorlist")


def save(page: Page) -> None:
    page.locator("#deal-form .actions button[value=save]").click()


def play_oklahoma(page: Page, shot, tag: str) -> None:
    new_game(page, "oklahoma", ["Ann", "Ben", "Cleo"], {"target": "300"})
    for number in (1, 2):
        page.locator("#game-view .actions a.primary").click()
        expect(page.locator("#deal-form")).to_be_visible()
        page.locator("#id_out_0").check()
        typed(page, "p-0-melded", "QS QH QD 5S 6S 7S")
        typed(page, "p-1-melded", "KS KH")  # no meld: the engine says why, beside the field
        typed(page, "p-2-held", "8H XX")  # a typo
        expect(error_of(page, "p-2-held")).to_be_visible()
        expect(error_of(page, "p-1-melded")).to_be_visible()
        if number == 1:
            shot(page, f"alone-oklahoma-checks-{tag}")
        save(page)
        expect(page.locator("#deal-form[aria-busy]")).to_have_count(0)  # answered: refused, nothing saved
        expect(page.locator("#deal-form")).to_be_visible()
        typed(page, "p-1-melded", "KS KH 2C")
        typed(page, "p-2-held", "8H 4C")
        page.locator("#id_p-1-held").click()  # the picker fills Ben's cards left in hand
        page.locator('.picker button.cardkey[data-code="3D"]').click()
        page.locator('.picker button.cardkey[data-code="9C"]').click()
        expect(page.locator("#id_p-1-held")).to_have_value("3D 9C")
        expect(page.locator("#preview table.preview")).to_be_visible()
        expect(page.locator("#deal-form .errorlist")).to_have_count(0)
        save(page)
        expect(page.locator("#game-view .saved-note")).to_be_visible()
    expect(page.locator("#game-view .winner")).to_contain_text("Ann")
    page.locator("#game-view details.deal").first.locator("summary").click()
    queen, other = ("D♠", "Q♠") if tag.endswith("-de") else ("Q♠", "D♠")  # the chips in the page's letters
    expect(page.locator("#game-view details.deal .card", has_text=queen).first).to_be_visible()
    expect(page.locator("#game-view details.deal .card", has_text=other)).to_have_count(0)
    shot(page, f"alone-oklahoma-won-{tag}")


def play_gin(page: Page, shot, tag: str) -> None:
    page.goto(page.url.split("#")[0] + "#")
    new_game(page, "oklahoma-gin", ["Ann", "Ben"], {"target": "10"})
    page.locator("#game-view .actions a.primary").click()
    typed(page, "upcard", "5X")
    expect(error_of(page, "upcard")).to_be_visible()
    typed(page, "upcard", "5C")
    page.locator("#id_knocker_0").check()
    typed(page, "p-0-cards", "AS 2S 3S 4H 5H 6H 7C 7D 7H KD")  # 10 deadwood over a knock limit of 5
    typed(page, "p-1-cards", "KS QS JC 10D 9H 8C 4C 3D 2C AH")
    save(page)
    expect(page.locator("#deal-form .errorlist").first).to_be_visible()
    shot(page, f"alone-gin-refused-{tag}")
    typed(page, "p-0-cards", "AS 2S 3S 4H 5H 6H 7C 7D 7H 2D")
    expect(page.locator("#preview table.preview")).to_be_visible()
    save(page)
    expect(page.locator("#game-view .winner")).to_contain_text("Ann")


def phone_games(page: Page) -> list[dict]:
    return sorted(page.evaluate("window.scorekeeperAlone.games()"), key=lambda g: g["created"])


def server_score(record: dict) -> dict:
    return json.loads(json.dumps(result_json(score_record(record)), ensure_ascii=False))


@pytest.mark.parametrize(("size", "lang"), [((390, 844), "en"), ((360, 740), "de")], ids=["390x844-en", "360x740-de"])
def test_a_phone_alone_plays_offline_and_hands_the_game_to_the_table(page: Page, live_server, shot, size, lang):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    tag = f"{size[0]}-{lang}"
    open_offline(page, live_server.url, lang)
    expect(page.locator("#engine-status")).not_to_have_class("bad")
    shot(page, f"alone-offline-{tag}")

    play_oklahoma(page, shot, tag)
    play_gin(page, shot, tag)
    games = phone_games(page)
    assert [g["record"]["game"] for g in games] == ["oklahoma", "oklahoma-gin"]
    for game in games:  # the phone's scores are the server's scores of the same record
        ours = page.evaluate("r => window.scorekeeperAlone.score(r)", game["record"])
        assert ours == server_score(game["record"])
        assert ours["winner"] == "Ann"
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")

    page.reload()  # still offline: the Gin game's page again
    wait_ready(page)
    expect(page.locator("#game-view .winner")).to_contain_text("Ann")
    page.locator("#game-view a[href='#']").click()
    expect(page.locator("#games-list li")).to_have_count(2)
    page.evaluate("window.scorekeeperAlone.restart()")
    wait_ready(page)
    assert [(g["key"], g["record"]) for g in phone_games(page)] == [(g["key"], g["record"]) for g in games]
    page.locator("#games-list a").first.click()  # the newest: the Gin game
    expect(page.locator("#game-view .winner")).to_contain_text("Ann")

    page.context.set_offline(False)
    hand = page.locator("#game-view .hand-over button")
    hand.dblclick()  # twice
    expect(page.locator("#game-view .hand-over a")).to_be_visible()
    hand.click()  # and once more, after the answer
    expect(page.locator("#game-view .hand-over a")).to_be_visible()
    shot(page, f"alone-handed-{tag}")
    assert Game.objects.count() == 1 and HandedGame.objects.count() == 1
    handed = Game.objects.get()
    gin = games[1]
    assert HandedGame.objects.get().key == gin["key"]
    assert game_record(handed)["deals"] == gin["record"]["deals"]
    assert server_score(game_record(handed))["totals"] == server_score(gin["record"])["totals"]
    cookie = next(c for c in page.context.cookies() if c["name"] == access.COOKIE)
    assert cookie["value"]  # the phone is at the table it started
    page.locator("#game-view .hand-over a").click()
    expect(page).to_have_url(f"{live_server.url}/games/{handed.pk}/")
