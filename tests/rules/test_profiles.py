import pickle

import pytest

from scorekeeper.rules import profiles
from scorekeeper.rules.errors import RecordInvalid


def test_every_knob_has_a_setting_and_citation_for_every_profile():
    for game, table in profiles.PROFILES.items():
        for knob in profiles.knobs(game):
            assert set(knob.settings) == set(table), (game, knob.name)
            for name, setting in knob.settings.items():
                assert knob.check(setting.value) is None, (game, name, knob.name)
                assert setting.basis in ("source", "ruling")
                if setting.basis == "ruling":
                    assert setting.note, f"a ruling says why: {game}/{name}/{knob.name}"


@pytest.mark.parametrize(
    "profile, k8, first_turn, concealed, players",
    [
        ("laws", -10, True, 0, 4),
        ("book", -20, False, 250, 5),
    ],
)
def test_oklahoma_profiles_match_rules_md(profile, k8, first_turn, concealed, players):
    r = profiles.resolve("oklahoma", profile)
    assert (r.k8_in_hand, r.first_turn_bonus, r.concealed_bonus, r.max_players) == (k8, first_turn, concealed, players)
    assert (r.target, r.game_bonus, r.out_bonus, r.joker) == (1000, 200, 100, True)


@pytest.mark.parametrize(
    "profile, undercut, gin, spade, target, strict, game_bonus, box, stock, layoffs, scoring",
    [
        ("standard", 25, 25, 2, 200, False, 100, 0, "void", "chained", "winner"),
        ("classic", 10, 20, 2, 150, False, 100, 20, "void", "chained", "winner"),
        ("casino", 10, 25, 1, 100, True, 0, 0, "void", "chained", "winner"),
        ("party", 25, 25, 1, 100, False, 0, 0, "reshuffle", "original", "penalty"),
    ],
)
def test_gin_profiles_match_rules_md(
    profile, undercut, gin, spade, target, strict, game_bonus, box, stock, layoffs, scoring
):
    r = profiles.resolve("oklahoma-gin", profile)
    assert (
        r.undercut_bonus,
        r.gin_bonus,
        r.spade_multiplier,
        r.target,
        r.target_strict,
        r.game_bonus,
        r.box_bonus,
        r.stock_out,
        r.layoffs,
        r.scoring,
    ) == (undercut, gin, spade, target, strict, game_bonus, box, stock, layoffs, scoring)
    assert r.big_gin_bonus == 0 and r.shutout is False


def test_rulings_are_cited_as_rulings():
    assert profiles.resolve("oklahoma-gin", "casino").cite("spade_multiplier").basis == "ruling"
    assert profiles.resolve("oklahoma", "laws").cite("target").basis == "ruling"
    assert profiles.resolve("oklahoma", "book").cite("target") == profiles.Citation("S0", "source")
    assert profiles.resolve("oklahoma", "laws").cite("k8_in_hand").source == "S1 law 12"


def test_options_override_single_knobs_and_are_cited_as_house_options():
    r = profiles.resolve("oklahoma", "book", {"k8_in_hand": -10})
    assert r.k8_in_hand == -10
    assert r.cite("k8_in_hand") == profiles.Citation("house option", "option")
    assert r.options() == {"k8_in_hand": -10}
    # an option equal to the profile's value changes nothing
    assert profiles.resolve("oklahoma", "book", {"k8_in_hand": -20}).options() == {}
    assert pickle.loads(pickle.dumps(r)) == r


@pytest.mark.parametrize(
    "game, profile, options, fragment",
    [
        ("oklahoma", "book", {"k9_in_hand": -10}, "unknown rule option 'k9_in_hand'"),
        ("oklahoma", "book", {"k8_in_hand": -15}, "must be one of -10, -20"),
        ("oklahoma", "book", {"joker": "yes"}, "takes true or false"),
        ("oklahoma-gin", "standard", {"spade_multiplier": 4}, "must be one of 1, 2, 3"),
        ("oklahoma-gin", "standard", {"target": True}, "takes a whole number"),
        ("oklahoma-gin", "party", {"layoffs": "sideways"}, "must be one of 'chained', 'original'"),
        ("oklahoma-gin", "laws", None, "unknown profile 'laws'"),
        ("canasta", "laws", None, "unknown game"),
    ],
)
def test_bad_options_are_errors(game, profile, options, fragment):
    with pytest.raises(RecordInvalid) as exc:
        profiles.resolve(game, profile, options)
    assert fragment in str(exc.value)


def test_the_laws_concealed_bonus_of_0_is_a_ruling():
    # S1 law 10 pays the going-out bonus and says nothing of a concealed bonus: 0 is this project's reading.
    cite = profiles.resolve("oklahoma", "laws").cite("concealed_bonus")
    assert cite == profiles.Citation("ruling", "ruling")
    setting = profiles.knob("oklahoma", "concealed_bonus").settings["laws"]
    assert setting.value == 0 and "S1 is silent" in setting.note


def test_resolve_is_typed_by_game():
    oklahoma: profiles.OklahomaRules = profiles.resolve("oklahoma", "laws")
    gin: profiles.GinRules = profiles.resolve("oklahoma-gin", "party")
    assert isinstance(oklahoma, profiles.OklahomaRules) and isinstance(gin, profiles.GinRules)
    assert isinstance(profiles.resolve(profiles.OKLAHOMA, "book"), profiles.OklahomaRules)
