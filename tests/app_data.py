"""Deals for the app's tests, as a person would type them (RECORD.md notation)."""

from __future__ import annotations

# Oklahoma, three players: Ann goes out with big melds (about 400 points a deal).
OK_BIG = {
    "out": 0,
    "melds": {0: ["QS QH QD", "AS AH AD AC", "JK=KD KS KH", "2C=7H 8H 9H"], 1: ["5S 6S 7S"], 2: []},
    "held": {0: "", 1: "AD", 2: "QS 4C"},
}
# A small deal: Ben goes out.
OK_SMALL = {
    "out": 1,
    "melds": {0: ["3D 4D 5D"], 1: ["9C 10C JC", "6H 6D 6C"], 2: ["KC KD KH"]},
    "held": {0: "8S", 1: "", 2: "4S 4H"},
}


def ok_post(deal: dict, action: str = "save") -> dict[str, str]:
    """The deal form's post of a deal typed with its melds split by "/" (one form per player)."""
    data = {"out": str(deal["out"]), "action": action}
    for seat, melds in deal["melds"].items():
        data[f"p-{seat}-melds"] = " / ".join(melds)
    for seat, held in deal["held"].items():
        data[f"p-{seat}-held"] = held
    return data


def ok_record_deal(deal: dict, names: list[str]) -> dict:
    return {
        "out": names[deal["out"]] if deal["out"] is not None else None,
        "first_turn": False,
        "concealed": False,
        "hands": {
            names[s]: {"melds": [m.split() for m in deal["melds"][s]], "held": deal["held"][s].split()}
            for s in deal["melds"]
        },
    }


# Oklahoma Gin (standard, to 200): Ann goes gin on a spade upcard (every point doubled).
GIN_BIG = {
    "upcard": "9S",
    "knocker": 0,
    "melds": {0: ["3C 4C 5C", "9D 9H 9C", "10H JH QH KH"], 1: []},
    "deadwood": {0: "", 1: ""},
    "cards": {0: "", 1: "2H 3H 4H 6D 6C 8S 10S KD KC 7D"},
}
# Ben knocks (upcard 10 of hearts, not doubled).
GIN_KNOCK = {
    "upcard": "10H",
    "knocker": 1,
    "melds": {0: [], 1: ["5S 6S 7S", "JD JC JS"]},
    "deadwood": {0: "", 1: "AS 2D 3C AC"},
    "cards": {0: "KH QD 9C 9H 4S 8D 8C 2S 3S 10D", 1: ""},
}


def gin_post(deal: dict, action: str = "save") -> dict[str, str]:
    """The deal form's post of a Gin deal: a spread (melds split by "/", deadwood) or all the cards."""
    data = {"upcard": deal["upcard"], "knocker": str(deal["knocker"]), "action": action}
    for seat, melds in deal["melds"].items():
        data[f"p-{seat}-melds"] = " / ".join(melds)
        data[f"p-{seat}-deadwood"] = deal["deadwood"][seat]
        data[f"p-{seat}-cards"] = deal["cards"][seat]
    return data


def gin_record_deal(deal: dict, names: list[str]) -> dict:
    hands = {}
    for s in deal["melds"]:
        if deal["cards"][s]:
            hands[names[s]] = {"cards": deal["cards"][s].split()}
        else:
            hands[names[s]] = {"melds": [m.split() for m in deal["melds"][s]], "deadwood": deal["deadwood"][s].split()}
    return {"upcard": deal["upcard"], "knocker": names[deal["knocker"]], "hands": hands}
