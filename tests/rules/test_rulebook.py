"""The rule book (``rules.rulebook``): its values follow the profile and the house options, its
examples are the engine's own results, and every score line the engine can produce maps to a
paragraph of the book that exists."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import checker, gin, oklahoma, profiles, record, rulebook
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.results import GameResult, Line
from tests.rules import oklahoma_random
from tests.rules.test_gin_game_properties import GAMES as GIN_GAMES
from tests.rules.test_gin_game_properties import random_deal

RECORDS = Path(__file__).parent / "records"
EVERY_PROFILE = [(g, p) for g in profiles.GAMES for p in profiles.PROFILES[g]]
# Examples of what the rules refuse: the engine's message is the example.
REFUSED = {"ex-over-the-limit", "ex-ace-upcard"}


def lines_of(result: GameResult) -> Iterator[Line]:
    for deal in result.deals:
        for pd in deal.players.values():
            yield from pd.lines
            yield from pd.side_lines
    for lines in (result.final_lines or {}).values():
        yield from lines
    for column in result.columns:
        for lines in (column.final_lines or {}).values():
            yield from lines


def assert_every_line_has_its_paragraph(result: GameResult, rules: profiles.Rules) -> set[str]:
    book = rulebook.build(rules)
    seen = set()
    for line in lines_of(result):
        anchor = rulebook.section_for(result.game, line)
        assert anchor is not None, f"no section of the book explains {line.rule!r} ({line.label})"
        assert anchor in book.anchors, f"{line.rule!r} -> #{anchor}, which the book has not"
        seen.add(line.rule)
    return seen


# ----------------------------------------------------------------------------- the lines


def scored_records() -> Iterator[tuple[str, GameResult, profiles.Rules]]:
    for path in sorted(RECORDS.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        try:
            result = record.score_record(data)
        except RecordInvalid:
            continue
        rules = profiles.resolve(data["game"], data["rules"]["profile"], data["rules"].get("options"))
        yield path.name, result, rules


def test_every_rule_text_of_the_example_records_maps_to_a_paragraph_of_the_book():
    seen: set[str] = set()
    names = []
    for name, result, rules in scored_records():
        seen |= assert_every_line_has_its_paragraph(result, rules)
        names.append(name)
    assert len(names) >= 8
    # The records exercise the common rules of both games.
    assert {"going out", "knock", "undercut bonus", "gin bonus", "game bonus"} <= seen


@pytest.mark.parametrize("seed", range(30))
def test_every_rule_text_of_random_oklahoma_games_maps_to_a_paragraph(seed):
    rng = random.Random(seed)
    profile = rng.choice(list(profiles.PROFILES[profiles.OKLAHOMA]))
    joker = rng.random() < 0.8
    players = ("Ann", "Ben", "Cleo")[: rng.choice([2, 3])]
    rules = profiles.resolve(profiles.OKLAHOMA, profile, {"joker": joker, "target": 1000})
    deals = oklahoma_random.game(rng, players, rng.randint(1, 8), joker)
    rec = {
        "format": record.FORMAT,
        "game": profiles.OKLAHOMA,
        "rules": {"profile": profile, "options": {"joker": joker, "target": 1000}},
        "players": list(players),
        "deals": deals,
    }
    assert_every_line_has_its_paragraph(record.score_record(rec), rules)


@pytest.mark.parametrize("seed", range(len(GIN_GAMES) * 3))
def test_every_rule_text_of_random_gin_games_maps_to_a_paragraph(seed):
    profile, count, options = GIN_GAMES[seed % len(GIN_GAMES)]
    rules = profiles.resolve("oklahoma-gin", profile, options)
    players = ("Ann", "Ben", "Cleo", "Dan")[:count]
    rnd = random.Random(seed)
    deals: list[dict[str, Any]] = []
    rec = {
        "format": record.FORMAT,
        "game": profiles.GIN,
        "rules": {"profile": profile, "options": options},
        "players": list(players),
        "deals": deals,
    }
    standing = gin.begin(rules, players)
    for _ in range(40):
        deal = random_deal(rnd, players, rules.stock_out == "void")
        try:
            _, standing = gin.play(rules, players, standing, deal, len(deals) + 1)
        except RecordInvalid:
            continue
        deals.append(deal)
        if standing.ended_on is not None:
            break
    assert_every_line_has_its_paragraph(record.score_record(rec), rules)


def test_every_rule_text_of_the_checkers_samples_maps_to_a_paragraph():
    questions = [
        checker.Question(kind="deal", game=profiles.OKLAHOMA, profile="book", deal=checker.example_deal("oklahoma")),
        checker.Question(kind="deal", game=profiles.GIN, profile="standard", deal=checker.example_deal("oklahoma-gin")),
        checker.Question(kind="meld", game=profiles.OKLAHOMA, profile="laws", cards="QS QH 2C=QD"),
        checker.Question(kind="meld", game=profiles.OKLAHOMA, profile="book", cards="AH 2H 3H JK=4H"),
        checker.Question(
            kind="hand", game=profiles.OKLAHOMA, profile="book", spread="QS QH 2C=QD", cards="JK 2S KS 7C AC QS"
        ),
        checker.Question(
            kind="gin",
            game=profiles.GIN,
            profile="classic",
            upcard="7S",
            cards="3C 4C 5C 9D 9H 9S JH QH KH 2S",
            other="2H 3H 4H 6D 6C 8S 10S KD AC 5H",
        ),
    ]
    for q in questions:
        verdict = checker.answer(q)
        assert not verdict.errors, verdict.errors
        lines = list(verdict.lines)
        for deal in verdict.deals:
            for p in deal["players"].values():
                lines += p["lines"] + p.get("side_lines", [])
        assert lines
        book = rulebook.build(q.rules)
        for line in lines:
            anchor = rulebook.section_for(q.game, line)
            assert anchor in book.anchors, line


def test_every_rule_text_of_the_books_own_examples_maps_to_a_paragraph():
    for game, profile in EVERY_PROFILE:
        book = rulebook.book(game, profile)
        for example in book.examples:
            if isinstance(example, rulebook.DealExample):
                if example.result is not None:
                    assert_every_line_has_its_paragraph(example.result, book.rules)
            else:
                for line in example.lines:
                    assert rulebook.section_for(game, line) in book.anchors


def test_why_did_i_get_minus_200_ends_on_the_joker_paragraph():
    rules = profiles.resolve(profiles.OKLAHOMA, "book")
    deal = {
        "out": "Ann",
        "hands": {
            "Ann": {"melds": [["QS", "QH", "QD"], ["7H", "8H", "9H"]], "held": []},
            "Ben": {"melds": [["5S", "6S", "7S"]], "held": ["JK"]},
        },
    }
    result = oklahoma.score_game(rules, ("Ann", "Ben"), [deal])
    (line,) = [x for x in result.deals[0].players["Ben"].lines if x.points == -200]
    anchor = rulebook.section_for(profiles.OKLAHOMA, line)
    book = rulebook.build(rules)
    (para,) = [p for s in book.sections for p in s.paragraphs if p.id == anchor]
    assert "Joker" in para.text and "costs 200" in para.text


@pytest.mark.parametrize(
    "game, rule, anchor",
    [
        ("oklahoma", "K Q J 10 9 8 left in hand cost 10", "value-high"),
        ("oklahoma", "K Q J 10 9 8 left in hand cost 20", "value-high"),
        (
            "oklahoma",
            "after a misdeal found after the first play, the winner gets no bonus for going out",
            "misdeal-no-bonus",
        ),
        ("oklahoma", "a 2 standing for a 2 scores as a low card, 5", "two-as-two"),
        ("oklahoma-gin", "undercut bonus", "undercut-bonus"),
        ("oklahoma-gin", "hollywood", "entries"),
        ("oklahoma-gin", "shutout", "shutout-double"),
        ("oklahoma-gin", "a rule nobody wrote", None),
    ],
)
def test_rule_texts_with_a_value_or_a_new_wording_still_find_their_paragraph(game, rule, anchor):
    assert rulebook.section_for(game, rule) == anchor
    assert rulebook.section_for(game, {"rule": rule}) == anchor


# ----------------------------------------------------------------------------- values


def value_parts(book: rulebook.Book, knob: str) -> list[rulebook.Part]:
    return [x for s in book.sections for p in s.paragraphs for x in p.parts if x.knob == knob]


@pytest.mark.parametrize("game, profile", EVERY_PROFILE)
def test_every_value_of_the_book_is_the_profiles_own_with_its_citation(game, profile):
    book = rulebook.book(game, profile)
    rules = profiles.resolve(game, profile)
    for k in profiles.knobs(game):
        setting = k.settings[profile]
        (glance,) = [g for g in book.glance if g.name == k.name]
        assert glance.value == rulebook.show_value(setting.value)
        assert (glance.cite.source, glance.cite.basis) == (setting.source, setting.basis)
        for part in value_parts(book, k.name):
            assert part.cite == rulebook.Cite(setting.source, setting.basis)
        assert rules.values[k.name] == setting.value
    # Every knob the game has is stated somewhere in the text.
    # (With penalty points the game bonus, boxes and shutout are not played: the text says so.)
    stated = {x.knob for s in book.sections for p in s.paragraphs for x in p.parts if x.knob}
    unused = {"game_bonus", "box_bonus", "shutout"} if rules.penalty else set()
    assert stated == {k.name for k in profiles.knobs(game)} - unused


def test_a_house_option_changes_the_book():
    plain = rulebook.book(profiles.GIN, "standard")
    house = rulebook.book(profiles.GIN, "standard", {"target": 150})
    (before,) = [x for x in plain.section("end").paragraphs[0].parts if x.knob == "target"]
    (after,) = [x for x in house.section("end").paragraphs[0].parts if x.knob == "target"]
    assert (before.text, before.cite) == ("200", rulebook.Cite("S2, Scoring 5"))
    assert (after.text, after.cite) == ("150", rulebook.Cite("house option", "option"))
    # The worked example of the end of the game is played to the new target.
    end = house.section("end").examples[0]
    assert isinstance(end, rulebook.DealExample) and end.result is not None
    assert end.result.state == "finished" and end.result.target == 150
    assert max(end.result.totals.values()) >= 150


@pytest.mark.parametrize(
    "game, profile, options, section, words",
    [
        ("oklahoma", "laws", {}, "card-values", "each costs 10"),
        ("oklahoma", "book", {}, "card-values", "each costs 20"),
        ("oklahoma", "laws", {"k8_in_hand": -20}, "card-values", "each costs 20"),
        ("oklahoma", "book", {"joker": False}, "players", "without the Joker: 104 cards"),
        ("oklahoma", "laws", {}, "concealed", "no bonus for going out concealed"),
        ("oklahoma", "book", {}, "concealed", "earns 250 more"),
        ("oklahoma-gin", "standard", {}, "spades", "multiplied by 2"),
        ("oklahoma-gin", "standard", {"spade_multiplier": 3}, "spades", "multiplied by 3"),
        ("oklahoma-gin", "casino", {}, "spades", "changes nothing"),
        ("oklahoma-gin", "casino", {}, "end", "more than 100"),
        ("oklahoma-gin", "classic", {}, "boxes", "worth 20"),
        ("oklahoma-gin", "standard", {"big_gin_bonus": 31}, "big-gin", "bonus of 31"),
        ("oklahoma-gin", "party", {}, "layoffs", "only onto the knocker's melds as laid down"),
        ("oklahoma-gin", "standard", {}, "scoring", "scoring to the hand's winner is for two players"),
        ("oklahoma-gin", "casino", {"max_players": 3}, "scoring", "Three or four play the party game"),
        ("oklahoma-gin", "party", {}, "layoffs", "the defenders lay off in seat order after the knocker"),
        ("oklahoma-gin", "party", {}, "undercut", "the knocker takes 25 more"),
        ("oklahoma-gin", "standard", {"hollywood": True}, "hollywood", "three games are scored at once"),
        ("oklahoma-gin", "standard", {"shutout": True}, "shutout", "the winner's points from hands are doubled"),
    ],
)
def test_the_text_says_what_the_rules_play(game, profile, options, section, words):
    book = rulebook.book(game, profile, options)
    text = " ".join(p.text for p in book.section(section).paragraphs)
    assert words in text


def test_every_section_the_issue_asks_for_is_in_each_book():
    wanted = {
        profiles.OKLAHOMA: {"deal", "turn", "melds", "wild-cards", "going-out", "end", "card-values", "concealed"},
        profiles.GIN: {"deal", "turn", "melds", "knocking", "knock-limit", "layoffs", "undercut", "gin", "end"},
    }
    for game, profile in EVERY_PROFILE:
        book = rulebook.book(game, profile)
        assert wanted[game] <= {s.id for s in book.sections}
        for s in book.sections:
            assert s.paragraphs, s.id
        # Anchors are unique on the page.
        ids = [s.id for s in book.sections] + [p.id for s in book.sections for p in s.paragraphs if p.id]
        assert len(ids) == len(set(ids))


def test_a_ruling_says_it_is_one_in_its_own_words():
    for game, profile in EVERY_PROFILE:
        for s in rulebook.book(game, profile).sections:
            for p in s.paragraphs:
                if p.ruling:
                    assert "Ruling" in p.text, p.text


def test_disputes_say_what_each_profile_takes_and_which_this_book_takes():
    book = rulebook.book(profiles.OKLAHOMA, "laws")
    (k8,) = [d for d in book.disputes if d.knob == "k8_in_hand"]
    assert {(x.profile, x.value, x.cite.source) for x in k8.says} == {
        ("Laws of Oklahoma", "−10", "S1 law 12"),
        ("Book rules", "−20", "S0"),
    }
    assert k8.taken == "−10" and [x.current for x in k8.says] == [True, False]
    # A knob every profile agrees on is no dispute.
    assert not [d for d in book.disputes if d.knob == "out_bonus"]
    # A house option is the ruling taken.
    house = rulebook.book(profiles.OKLAHOMA, "laws", {"k8_in_hand": -20})
    (k8,) = [d for d in house.disputes if d.knob == "k8_in_hand"]
    assert k8.taken == "−20" and k8.cite.basis == "option"


def test_rulings_are_listed_and_marked():
    book = rulebook.book(profiles.GIN, "casino")
    texts = [t for _, t in book.rulings]
    assert any("S3 is silent on spades" in t for t in texts)
    assert any("the higher total wins; if they are equal, the game goes on" in t for t in texts)
    for anchor, _ in book.rulings:
        assert anchor in book.anchors or anchor.startswith("knob-")


def test_sources_cited_are_listed():
    book = rulebook.book(profiles.GIN, "standard", {"hollywood": True})
    codes = [c for c, _ in book.sources]
    assert {"S2", "S3", "S4", "BO", "AR", "HW"} <= set(codes)
    assert "S0" not in codes


def test_hollywood_with_penalty_points_is_refused_with_the_engines_message():
    rules = profiles.resolve(profiles.GIN, "party", {"hollywood": True})
    (error,) = rulebook.refused(rules)
    assert error.field == "rules.options.hollywood" and "penalty" in str(error.message)
    assert rulebook.refused(profiles.resolve(profiles.GIN, "standard", {"hollywood": True})) == []


def test_penalty_points_with_a_bonus_are_refused_and_the_book_says_so():
    rules = profiles.resolve(profiles.GIN, "party", {"box_bonus": 20})
    (error,) = rulebook.refused(rules)
    assert error.field == "rules.options.box_bonus" and "(S4 pays none)" in str(error.message)
    text = " ".join(p.text for p in rulebook.book(profiles.GIN, "party").section("end").paragraphs)
    assert "no game bonus, no boxes and no shutout (S4 pays none): rules that set one are refused" in text


# ----------------------------------------------------------------------------- examples


@pytest.mark.parametrize(
    "game, profile, options",
    [
        *[(g, p, {}) for g, p in EVERY_PROFILE],
        ("oklahoma", "book", {"joker": False, "target": 2000}),
        ("oklahoma-gin", "standard", {"hollywood": True, "shutout": True, "big_gin_bonus": 31}),
        ("oklahoma-gin", "classic", {"hollywood": True, "target": 100}),
        ("oklahoma-gin", "party", {"max_players": 2}),
    ],
)
def test_every_example_is_the_engines_own_result(game, profile, options):
    book = rulebook.book(game, profile, options)
    assert book.examples
    for example in book.examples:
        if isinstance(example, rulebook.DealExample):
            # The record says the book's rules, and scoring it again gives the same result.
            assert example.record["rules"] == {"profile": profile, "options": book.rules.options()}
            if example.id in REFUSED:
                assert example.result is None and example.errors
                with pytest.raises(RecordInvalid):
                    record.score_record(example.record)
                continue
            assert example.result is not None, (example.id, [e.message for e in example.errors])
            again = record.score_record(json.loads(json.dumps(example.record)))
            assert record.result_json(again) == record.result_json(example.result)
            if example.show == "final":
                assert example.result.state == "finished" and example.result.final is not None
            if example.show == "columns":
                assert len(example.result.columns) == 3
        else:
            assert isinstance(example, rulebook.MeldExample)
            if game == profiles.OKLAHOMA:
                check = oklahoma.check_meld(example.entered.split(), book.rules)  # type: ignore[arg-type]
                assert (check.ok, check.points if check.ok else None, check.lines) == (
                    example.ok,
                    example.points,
                    example.lines,
                )


def test_the_examples_show_each_kind_of_hand():
    gin_book = rulebook.book(profiles.GIN, "standard", {"big_gin_bonus": 31})
    outcomes = {
        e.result.deals[-1].outcome for e in gin_book.examples if isinstance(e, rulebook.DealExample) and e.result
    }
    assert {"knock", "undercut", "gin", "big_gin", "void"} <= outcomes
    layoff = next(e for e in gin_book.examples if e.id == "ex-layoff")
    assert isinstance(layoff, rulebook.DealExample) and layoff.result is not None
    assert layoff.result.deals[0].players["Ben"].layoffs
    ok_book = rulebook.book(profiles.OKLAHOMA, "book")
    concealed = next(e for e in ok_book.examples if e.id == "ex-concealed")
    assert isinstance(concealed, rulebook.DealExample) and concealed.result is not None
    assert concealed.result.deals[0].players["Ann"].side_points == 250


def test_the_meld_examples_show_what_they_say():
    book = rulebook.book(profiles.OKLAHOMA, "laws")
    verdicts = {e.id: e.ok for e in book.examples if isinstance(e, rulebook.MeldExample)}
    assert verdicts["ex-meld-set"] and verdicts["ex-meld-sequence"] and verdicts["ex-wild-1"]
    assert not verdicts["ex-meld-corner"] and not verdicts["ex-meld-five"]
    gin_book = rulebook.book(profiles.GIN, "standard")
    verdicts = {e.id: e.ok for e in gin_book.examples if isinstance(e, rulebook.MeldExample)}
    assert verdicts == {"ex-meld-run": True, "ex-meld-set": True, "ex-meld-ace-high": False}


def test_the_book_is_built_once_per_rules():
    rules = profiles.resolve(profiles.GIN, "classic", {"target": 250})
    assert rulebook.build(rules) is rulebook.build(profiles.resolve(profiles.GIN, "classic", {"target": 250}))


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


class _Upper:
    """A stand-in language: every id upper-cased outside its fields, so a test sees what was translated."""

    @staticmethod
    def gettext(message: str) -> str:
        return re.sub(r"(^|})([^{]*)", lambda m: m.group(1) + m.group(2).upper(), message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.gettext(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)


@pytest.mark.parametrize("game, profile", [(g, p) for g in profiles.GAMES for p in profiles.PROFILES[g]])
def test_every_paragraph_is_one_message_with_its_values_in_place(game, profile):
    """A paragraph is one translatable unit: its id is the English template, and its values (with their
    citations) stand where another language's sentence puts them."""
    from scorekeeper.rules.messages import Msg

    for section in rulebook.book(game, profile).sections:
        for p in section.paragraphs:
            assert isinstance(p.message, Msg) and str(p.message) == p.text == "".join(x.text for x in p.parts)
            translated = p.render(_Upper())
            values = [x for x in translated if x.cite]
            assert values == [x for x in p.parts if x.cite]  # the same values, with their citations
            assert "".join(x.text for x in translated if not x.cite) == "".join(
                x.text.upper() for x in p.parts if not x.cite
            )
