"""THE words of the phone alone's page script (``static/alone/alone.js``), in the page's language:
the page carries them as JSON (``#alone-words``, data, as ``#words`` is), beside the app's words.
The deal form's labels and messages are the table's own (``table.entry``), so the phone's form reads
as the table's; the rest are the page's, translated here with ``gettext`` as every page's words are."""

from __future__ import annotations

from django.utils.translation import gettext, pgettext

from scorekeeper.rules import profiles
from scorekeeper.table.entry.cards import ONE_CARD
from scorekeeper.table.entry.forms import DealFacts, GinFacts, GinHandForm, OklahomaFacts, OklahomaHandForm


def _labels() -> dict[str, str]:
    """The deal form's field labels and hints, as the table's deal form has them."""
    out: dict[str, str] = {}
    for kind, hand, facts in (
        (profiles.OKLAHOMA, OklahomaHandForm, OklahomaFacts),
        (profiles.GIN, GinHandForm, GinFacts),
    ):
        for name, field in {**hand.base_fields, **facts.base_fields}.items():
            if field.label:
                out[f"{kind}.{name}"] = str(field.label)
        out[f"{kind}.extra"] = str(hand.extra_label)
        out[f"{kind}.legend"] = str(facts.legend)
        out[f"{kind}.asked"] = str(facts.asked)
        out[f"{kind}.ended"] = str(facts.ended)  # the actor's radio at each player: "{name} went out"
        out[f"{kind}.nobody"] = str(facts.nobody_label)
    assert issubclass(OklahomaFacts, DealFacts)
    return out


def _refusals() -> dict[str, str]:
    """What the table's deal form says of a fact not given (``no <fact>``) or a field of one card
    holding more, in the page's language: the phone's form says the same."""
    out = {"one card": str(ONE_CARD)}
    for facts in (OklahomaFacts(players=[]), GinFacts(players=[])):
        for name in (facts.actor, *facts.card_fields):
            out[f"no {name}"] = str(facts.fields[name].error_messages["required"])
    return out


def alone_words() -> dict[str, str]:
    return {
        **_labels(),
        # the deal form's own messages (table.entry)
        **_refusals(),
        "not valid": gettext("Not valid yet: what is wrong is said beside the fields."),
        "preview": gettext("Preview"),
        "preview empty": gettext("The preview shows every player's points once the deal is complete."),
        "player": gettext("Player"),
        "this deal": gettext("This deal"),
        "total": gettext("Total"),
        "in hand": gettext("in hand"),
        "deadwood": gettext("deadwood"),
        "save deal": gettext("Save deal"),
        "cancel": gettext("Cancel"),
        "points only": gettext("Points only (not checked)"),
        "points of": gettext("Enter {name}'s points (0 if none)."),
        "winner": gettext("Who went out or won the hand (deals next)"),
        "nobody deals again": gettext("nobody (the dealer deals again)"),
        "not checked": gettext("not checked"),
        "enter deal": gettext("Enter deal {number}"),
        "deal": gettext("Deal {number}"),
        "edit": gettext("Edit"),
        "side": gettext("+{side} concealed, extra"),
        "deals next": gettext("{name} deals next"),
        "won by": gettext("won by {winner}"),
        "in progress": gettext("in progress"),
        "ruling": pgettext("a value that is this app's reading where the sources are silent", "ruling"),
        # the phone alone's own
        "getting ready": gettext("Getting the rules engine ready on this phone…"),
        "ready": gettext("Ready: this phone checks and scores every deal, with or without a connection."),
        "failed": gettext("The rules engine could not start on this phone: {error}"),
        "new game": gettext("New game"),
        "start": gettext("Start the game"),
        "games here": gettext("Games on this phone"),
        "no games": gettext("No game on this phone yet."),
        "all games": gettext("All games on this phone"),
        "undo": gettext("Undo the last deal"),
        "undone": gettext("Deal {number} undone."),
        "saved": gettext("Deal {number} saved."),
        "winner is": gettext("{name} wins the game"),
        "final": gettext("Final tally"),
        "hand over": gettext("Hand it to the table"),
        "hand over hint": gettext(
            "When the app's server is reachable again, one tap makes this game a game of this phone's table."
        ),
        "sending": gettext("Sending…"),
        "handed": gettext("At the table as game #{number}."),
        "open it": gettext("Open it"),
        "no connection": gettext("No connection to the server: try again when there is one. The game stays here."),
        "refused": gettext("The server refused the game:"),
        "too many": gettext(
            "Too many games came from this phone or its address in a short time: try again in {minutes} min."
            " The game stays here."
        ),
        "not taken": gettext(
            "The server could not take the game now (error {status}): try again later. The game stays here."
        ),
        "delete": gettext("Delete this game from the phone"),
        "confirm delete": gettext("Tap again to delete it"),
    }
