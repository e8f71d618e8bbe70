"""Oklahoma games: the race to 1,000, the winner, ties, the final tally and the dealer (RULES.md §1)."""

import pytest

from scorekeeper.rules import games
from scorekeeper.rules.errors import RecordInvalid
from scorekeeper.rules.oklahoma import score_game
from scorekeeper.rules.profiles import resolve

BOOK = resolve("oklahoma", "book")
LAWS = resolve("oklahoma", "laws")
P3 = ("Ann", "Ben", "Cleo")
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def run14(suit):
    """A 14-card sequence A…K…A of a red suit or clubs: aces 2×20, 2 as itself 5, 3–7 25, 8–K 60 = 130."""
    return ["A" + suit] + [r + suit for r in RANKS] + ["A" + suit]


# What a player who did not go out also melds and holds (he holds a card: RULES.md §1): three low
# cards melded (+15) and three held (−15), so that his deal still scores 130.
KEEP = {
    "Ann": ([["3S", "4S", "5S"]], ["5H", "6H", "7H"]),
    "Ben": ([["3S", "4S", "5S"]], ["5D", "6D", "7D"]),
    "Cleo": ([["3H", "3D", "3C"]], ["5C", "6C", "7C"]),
}


def big(out, **flags):
    """Each player melds a 14-card sequence (130); the player out gets +100: out 230, others 130."""
    suits = dict(zip(P3, "HDC", strict=True))
    hands = {}
    for p in P3:
        melds, held = ([], []) if p == out else KEEP[p]
        hands[p] = {"melds": [run14(suits[p]), *melds], "held": list(held)}
    d = {"out": out, "hands": hands}
    d.update(flags)
    return d


def small(out="Ann", **flags):
    """Ann melds 7♥ 8♥ 9♥ (25) and goes out; Ben holds 3♠ (−5); Cleo holds 4♠ (−5)."""
    d = {
        "out": out,
        "hands": {
            "Ann": {"melds": [["7H", "8H", "9H"]], "held": [] if out == "Ann" else ["5C"]},
            "Ben": {"melds": [], "held": ["3S"]},
            "Cleo": {"melds": [], "held": ["4S"]},
        },
    }
    d.update(flags)
    return d


ROUND = [big("Ann"), big("Ben"), big("Cleo")]  # +490 each


def test_running_totals_and_dealers():
    g = score_game(BOOK, P3, ROUND, "Cleo")
    assert g.state == "in_progress" and g.winner is None and g.final is None
    assert [d.totals for d in g.deals] == [
        {"Ann": 230, "Ben": 130, "Cleo": 130},
        {"Ann": 360, "Ben": 360, "Cleo": 260},
        {"Ann": 490, "Ben": 490, "Cleo": 490},
    ]
    assert [d.dealer for d in g.deals] == ["Cleo", "Ann", "Ben"]
    assert [d.next_dealer for d in g.deals] == ["Ann", "Ben", "Cleo"]
    assert g.deals[1].totals_before == g.deals[0].totals
    assert g.totals == {"Ann": 490, "Ben": 490, "Cleo": 490}
    assert g.game == "oklahoma" and g.profile == "book" and g.target == 1000


def test_stock_out_same_dealer_deals_again_ruling():
    g = score_game(BOOK, P3, [small(out=None), small()], "Ben")
    assert g.deals[0].outcome == "stock_out"
    assert g.deals[0].next_dealer == "Ben" and g.deals[1].dealer == "Ben"
    assert g.deals[1].next_dealer == "Ann"


def test_dealer_unknown():
    g = score_game(BOOK, P3, [small(out=None), small()], None)
    assert g.deals[0].dealer is None and g.deals[0].next_dealer is None
    assert g.deals[1].dealer is None and g.deals[1].next_dealer == "Ann"


def test_three_players_pass_1000_on_one_deal_highest_wins():
    # 980 each after two rounds; then Ann goes out: Ann 1,210, Ben 1,110, Cleo 1,110.
    g = score_game(BOOK, P3, ROUND + ROUND + [big("Ann")], "Cleo")
    assert g.state == "finished" and g.winner == "Ann"
    assert g.totals == {"Ann": 1210, "Ben": 1110, "Cleo": 1110}
    assert g.final == {"Ann": 1410, "Ben": 1110, "Cleo": 1110}
    assert g.final_lines is not None
    bonus = [x for x in g.final_lines["Ann"] if x.rule == "the winner of the game"][0]
    assert bonus.points == 200 and bonus.source == "S0"
    for p in P3:
        assert sum(x.points for x in g.final_lines[p]) == g.final[p]


def test_the_highest_wins_not_the_first_to_pass():
    # Ben goes out (Ben 1,210); Ann was ahead before the deal.
    deals = ROUND + ROUND[:2] + [big("Cleo"), big("Ben")]
    g = score_game(BOOK, P3, deals, "Cleo")
    assert g.deals[-2].totals == {"Ann": 980, "Ben": 980, "Cleo": 980}
    assert g.winner == "Ben" and g.totals["Ben"] == 1210


def test_exact_tie_at_the_top_goes_on_ruling():
    everyone = big(None)  # stock out: +130 each
    g = score_game(BOOK, P3, ROUND + ROUND + [everyone], "Cleo")
    assert g.totals == {"Ann": 1110, "Ben": 1110, "Cleo": 1110}
    assert g.state == "in_progress" and g.winner is None
    assert any("tie" in n for n in map(str, g.deals[-1].notes))
    g = score_game(BOOK, P3, ROUND + ROUND + [everyone, small("Ann")], "Cleo")
    assert g.winner == "Ann" and g.totals == {"Ann": 1110 + 125, "Ben": 1105, "Cleo": 1105}


def test_reaching_exactly_the_target_ends_the_game():
    rules = resolve("oklahoma", "book", {"target": 230})
    g = score_game(rules, P3, [big("Ann")], None)
    assert g.winner == "Ann" and g.totals["Ann"] == 230


def test_deals_after_the_end_are_rejected():
    with pytest.raises(RecordInvalid) as info:
        score_game(BOOK, P3, ROUND + ROUND + [big("Ann"), small(), small()], "Cleo")
    errs = info.value.errors
    assert [e.deal for e in errs] == [8, 9]
    assert all("ended on deal 7" in str(e.message) and e.rule and e.source for e in errs)


def test_concealed_bonus_outside_the_race_and_in_the_final_tally():
    # Cleo goes out concealed in deal 1 (+250 side). Her running total alone decides the race.
    deals = [big("Cleo", concealed=True)] + ROUND + ROUND[:2]
    g = score_game(BOOK, P3, deals, None)
    assert g.side == {"Ann": 0, "Ben": 0, "Cleo": 250}
    assert g.totals == {"Ann": 130 + 490 + 360, "Ben": 130 + 490 + 360, "Cleo": 230 + 490 + 260}
    # Cleo: running 980 + side 250 = 1,230 but the side column does not count toward 1,000.
    assert g.state == "in_progress"
    g = score_game(BOOK, P3, deals + [big("Cleo")], None)
    assert g.winner == "Cleo" and g.totals["Cleo"] == 1210
    assert g.final is not None and g.final_lines is not None
    assert g.final["Cleo"] == 1210 + 250 + 200
    assert g.final["Ann"] == g.totals["Ann"]
    side_line = [x for x in g.final_lines["Cleo"] if "side" in str(x.label)][0]
    assert side_line.points == 250 and side_line.source == "S0"
    assert g.deals[0].side == {"Ann": 0, "Ben": 0, "Cleo": 250}


def test_the_highest_running_total_wins_the_side_column_decides_nothing():
    """RULES.md §1, a reading now written: when several reach the target, the highest running total
    wins; the side column is added to the final tally afterwards and decides nothing (S0)."""
    rules = resolve("oklahoma", "book", {"target": 300})
    deals = [big("Cleo", concealed=True), {"points": {"Ann": 200, "Ben": 0, "Cleo": 90}}]
    g = games.score_game(rules, P3, deals, None)
    assert g.totals == {"Ann": 330, "Ben": 130, "Cleo": 320} and g.side["Cleo"] == 250
    assert g.winner == "Ann"
    assert g.final is not None and g.final["Cleo"] == 320 + 250 > g.final["Ann"] == 330 + 200


def test_laws_game_has_no_concealed_bonus():
    deals = [big("Cleo", concealed=True)]
    g = score_game(LAWS, P3, deals, None)
    assert g.side == {"Ann": 0, "Ben": 0, "Cleo": 0}


@pytest.mark.parametrize(
    "rules, players, ok",
    [
        (BOOK, ("A", "B", "C", "D", "E"), True),
        (LAWS, ("A", "B", "C", "D", "E"), False),
        (LAWS, ("A", "B", "C", "D"), True),
        (BOOK, ("A",), False),
    ],
)
def test_number_of_players(rules, players, ok):
    hands = {p: {"melds": [], "held": [f"{3 + seat}C"]} for seat, p in enumerate(players)}
    deal: dict[str, object] = {"out": None, "hands": hands}
    if ok:
        score_game(rules, players, [deal], None)
    else:
        with pytest.raises(RecordInvalid) as info:
            score_game(rules, players, [deal], None)
        assert info.value.errors[0].rule == "players"


def test_first_dealer_must_be_a_player():
    with pytest.raises(RecordInvalid):
        score_game(BOOK, P3, [small()], "Zed")


def test_invalid_deal_stops_the_race_but_later_deals_are_still_checked():
    bad = small()
    bad["hands"]["Ben"]["held"] = ["3X"]
    worse = small()
    worse["hands"]["Cleo"]["melds"] = [["KH", "AH", "2H", "3H"]]  # round the corner
    with pytest.raises(RecordInvalid) as info:
        score_game(BOOK, P3, [small(), bad, small(), worse], "Ann")
    assert [(e.deal, e.player) for e in info.value.errors] == [(2, "Ben"), (4, "Cleo")]


def test_score_game_checks_players_as_a_record_does():
    from scorekeeper.rules import oklahoma, profiles
    from scorekeeper.rules.errors import RecordInvalid

    rules = profiles.resolve("oklahoma", "laws")
    for players, fragment in [
        (("Ann", "ann"), "named twice"),
        (("Ann", " Ben"), "begins or ends"),
        (tuple("ABCDE"), "take 2 to 4"),
    ]:
        with pytest.raises(RecordInvalid) as exc:
            oklahoma.score_game(rules, players, [], None)
        assert fragment in str(exc.value)
    with pytest.raises(RecordInvalid) as exc:
        oklahoma.score_game(rules, ("Ann", "Ben"), [], "Zed")
    assert "first dealer" in str(exc.value)
