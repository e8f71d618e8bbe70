"""Entering a deal only with the card picker, as a person taps it: every tap counted, and after
every tap the field being filled (with its live check) checked to be in view above the picker and
the phone's keyboard checked to stay closed. Shared by the browser tests and ``make bench``."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Locator, Page

SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

# The deals of issue 10's budgets.
# Oklahoma, three players, 13 + 13 + 13 cards: Ann and Ben meld and hold cards, Cleo goes out.
# Ben's 2♣ in 8♥ 9♥ could be the 7♥ or the 10♥, which score differently: he names it (=7♥).
OKLAHOMA_DEAL: dict[str, Any] = {
    "players": ["Ann", "Ben", "Cleo"],
    "out": "Cleo",
    "fields": [
        ("Ann", "Melded", "KS KH KC 3S 4S 5S 10H JH QH"),
        ("Ann", "Left in hand", "7S 4D 9C JC"),
        ("Ben", "Melded", "8H 9H 2C =7H 6S 6H 6D"),
        ("Ben", "Left in hand", "2D 3C 8S 10S KD AC 4H"),
        ("Cleo", "Melded", "QS QH QD AS AH AD 5C 6C 7C 8C 9D 10D JD"),
    ],
}
# Oklahoma Gin, two players: the upcard, Ann (the defender) 10 cards, Ben knocks with 11 (the app
# finds his melds and his discard).
GIN_DEAL: dict[str, Any] = {
    "players": ["Ann", "Ben"],
    "knocker": "Ben",
    "upcard": "7S",
    "fields": [
        ("Ann", "Cards", "2H 3H 4H 6D 6C 8S 10S KD KC 7D"),
        ("Ben", "Cards", "3C 4C 5C 9D 9H 9C 10H JH QH 2S KS"),
    ],
}

# After a tap: what is wrong with the page as the person sees it ("" when nothing is).
LOOK = """() => {
  const picker = document.querySelector('.picker');
  const active = document.activeElement;
  if (active && active.matches('input:not([type]), input[type=text], input[type=search], textarea')
      && active.getAttribute('inputmode') !== 'none') return 'the keyboard would open on ' + active.name;
  const box = document.querySelector('.cardfield.target');
  if (!picker || !box) return picker ? 'no target' : 'no picker';
  const bottom = Math.min(picker.getBoundingClientRect().top, window.innerHeight);
  const input = box.querySelector('input.cards');
  const seen = [input, box.querySelector('.check'), box.querySelector('.errorlist')];
  for (const el of seen) {
    if (!el) continue;
    const r = el.getBoundingClientRect();
    if (!r.height) continue;
    if (r.top < 0 || r.bottom > bottom + 0.5)
      return `${input.name}: ${el.className || el.tagName} at ${Math.round(r.top)}–${Math.round(r.bottom)}, ` +
             `the picker from ${Math.round(bottom)}`;
  }
  const r = input.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (hit !== input) return `${input.name} is covered by ${hit ? hit.className || hit.tagName : 'nothing'}`;
  return '';
}"""


RANK_WORD = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
SUIT_WORD = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "♠": "spades", "♥": "hearts", "♦": "diamonds"}
SUIT_WORD["♣"] = "clubs"


def label(code: str) -> str:
    """A card's key in the picker, named as a player says it: QS (or Q♠) → queen of spades, JK → Joker."""
    if code in ("JK", "Joker"):
        return "Joker"
    rank = code[:-1]
    return f"{RANK_WORD.get(rank, rank)} of {SUIT_WORD[code[-1]]}"


def printed(code: str) -> str:
    """A card as the page prints it: 7H → 7♥."""
    return code if code == "JK" else code[:-1] + SUIT[code[-1]]


@dataclass
class Picking:
    """A person entering a deal on the picker. ``problems`` lists what a check after a tap found."""

    page: Page
    taps: int = 0
    problems: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    log_card: str = ""  # the last card tapped

    @property
    def picker(self) -> Locator:
        return self.page.get_by_role("group", name="Card picker")

    def tap(self, target: Locator, what: str, check: bool = True) -> None:
        target.click()
        self.taps += 1
        self.log.append(what)
        if check:
            problem = self.page.evaluate(LOOK)
            if problem:
                self.problems.append(f"after tap {self.taps} ({what}): {problem}")

    def card(self, code: str) -> None:
        name = label(code)
        key = self.picker.get_by_role("button", name=re.compile(rf"^{re.escape(name)}(,|$)"))
        self.tap(key, name)

    def key(self, name: str) -> None:
        self.tap(self.picker.get_by_role("button", name=name, exact=True), name)

    def cards(self, text: str) -> None:
        """Tap the cards of ``text``; ``=7H`` names the wild card before it as a person does once the
        field's cards are in: one tap on the way the field's check offers ("2♣=7♥")."""
        named = []
        for code in text.split():
            if code.startswith("="):
                named.append(f"{printed(self.log_card)}={printed(code[1:])}")
            else:
                self.card(code)
                self.log_card = code
        for name in named:
            fixes = self.page.locator(".cardfield.target .fixes")
            self.tap(fixes.get_by_role("button", name=re.compile(rf"^{re.escape(name)} ")), name)

    def target(self) -> str:
        """The accessible name of the field being filled."""
        return str(self.page.evaluate("document.querySelector('.cardfield.target label').textContent.trim()"))

    def save(self, verb: str = "Save") -> None:
        """The picker's key that sends the form: "Save" on a deal form, "Send" on a seated phone's hand."""
        self.tap(self.picker.get_by_role("button", name=verb, exact=True), verb, check=False)


def enter_oklahoma(p: Picking, deal: dict = OKLAHOMA_DEAL, before_save: Callable[[], None] | None = None) -> None:
    """Each player's melded cards and cards held in turn ("next" between them), who went out
    tapped at his cards, then Save."""
    _enter_fields(p, deal, deal["out"], "went out", before_save)


def enter_gin(p: Picking, deal: dict = GIN_DEAL, before_save: Callable[[], None] | None = None) -> None:
    """The upcard (the picker moves on by itself), each player's cards ("next" between them), who
    knocked tapped at his cards, then Save."""
    assert p.target() == "First upcard", p.target()
    p.card(deal["upcard"])
    _enter_fields(p, deal, deal["knocker"], "knocked", before_save)


def _enter_fields(p: Picking, deal: dict, actor: str, did: str, before_save: Callable[[], None] | None) -> None:
    """The deal's fields in turn ("next" between them), the player who ``did`` (went out, knocked)
    tapped at his cards, then Save."""
    for i, (player, what, cards) in enumerate(deal["fields"]):
        if i:
            p.key("next field")
        assert p.target() == f"{player}: {what}", (p.target(), player, what)
        if player == actor:
            p.tap(p.page.get_by_label(f"{player} {did}"), f"{player} {did}")
        p.cards(cards)
    if before_save is not None:
        before_save()
    p.save()


def start_game(page: Page, url: str, kind: str, players: list[str], profile: str) -> None:
    """A new game through its form (typed: this is not the deal being counted)."""
    page.goto(url + "/games/new/")
    if kind == "oklahoma-gin":
        page.get_by_role("button", name="Oklahoma Gin").click()
    page.get_by_label(profile, exact=False).check()
    for i, name in enumerate(players):
        page.get_by_label(f"Seat {i + 1}").fill(name)
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Enter deal 1").click()
    page.get_by_role("group", name="Card picker").wait_for()
