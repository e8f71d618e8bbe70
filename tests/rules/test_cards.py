import pytest

from scorekeeper.rules.cards import (
    JOKER,
    PACK_52,
    Card,
    CardError,
    Suit,
    knock_limit,
    parse_card,
    parse_token,
    split_cards,
)


@pytest.mark.parametrize(
    "text, label",
    [
        ("QS", "Q♠"),
        ("qs", "Q♠"),
        ("10H", "10♥"),
        ("th", "10♥"),
        ("T♥", "10♥"),
        ("A♣", "A♣"),
        ("2d", "2♦"),
        ("K♦", "K♦"),
        ("JK", "JK"),
        ("jk", "JK"),
        (" 9c ", "9♣"),
    ],
)
def test_parse_card_accepts_every_notation(text, label):
    assert parse_card(text).label == label


@pytest.mark.parametrize(
    "text, hint",
    [
        ("1H", "write 'AH'"),
        ("11S", "write 'JS'"),
        ("Q", "has no suit"),
        ("QX", "suit must be"),
        ("ZS", "rank must be"),
        ("", "empty card"),
        ("10", "has no suit"),
    ],
)
def test_parse_card_says_what_is_wrong(text, hint):
    with pytest.raises(CardError) as exc:
        parse_card(text)
    assert hint in str(exc.value.message)


def test_tokens_name_what_a_wild_card_stands_for():
    token = parse_token("2C=7H")
    assert token.card == Card(2, Suit.CLUBS) and token.stands_for == Card(7, Suit.HEARTS)
    assert token.label == "2♣=7♥" and token.code == "2C=7H"
    assert parse_token("jk=qs").stands_for == Card(12, Suit.SPADES)
    assert parse_token("JK").card is JOKER or parse_token("JK").card == JOKER


@pytest.mark.parametrize(
    "text, hint",
    [
        ("7H=8H", "only a 2 or the Joker"),
        ("2C=", "name the card"),
        ("2C=JK", "not the Joker"),
    ],
)
def test_only_wild_cards_name_another_card(text, hint):
    with pytest.raises(CardError) as exc:
        parse_token(text)
    assert hint in str(exc.value.message)


def test_pack_and_indices():
    assert len(PACK_52) == 52 and len(set(PACK_52)) == 52
    assert [c.index for c in PACK_52] == list(range(52))
    assert split_cards("QS, 10h;2c=7h  JK") == ["QS", "10h", "2c=7h", "JK"]


@pytest.mark.parametrize("up, limit", [("AS", 0), ("2H", 2), ("7S", 7), ("10D", 10), ("KC", 10)])
def test_knock_limit_from_upcard(up, limit):
    assert knock_limit(parse_card(up)) == limit


def test_a_card_error_is_a_message_with_its_parameters():
    from scorekeeper.rules.messages import Msg

    with pytest.raises(CardError) as exc:
        parse_card("1H")
    message = exc.value.message
    assert (
        isinstance(message, Msg) and message.id == "'{raw}' is not a card: ranks are A, 2–10, J, Q, K (write '{card}')"
    )
    assert message.params["raw"] == "1H" and str(message.params["card"]) == "AH" and str(exc.value) == str(message)
    assert str(message) == "'1H' is not a card: ranks are A, 2–10, J, Q, K (write 'AH')"
