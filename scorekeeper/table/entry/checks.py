"""The live checks of the deal form's card fields, attached to the form: each card field is checked
by the engine's field checks (``rules.fieldcheck``, shared with the phone alone, which runs the same
engine in the browser) as that field reads its cards, and the problems found are put beside it. The
deal as a whole is checked by the engine when it is previewed or saved.
"""

from __future__ import annotations

from scorekeeper.rules.fieldcheck import Choice, FieldCheck, Group
from scorekeeper.rules.fieldcheck import check_field as check_text
from scorekeeper.rules.profiles import Rules
from scorekeeper.table.entry.cards import CardListField
from scorekeeper.table.entry.deal import DealEntry, Slot
from scorekeeper.table.entry.forms import HandForm

__all__ = ["Choice", "FieldCheck", "Group", "attach", "check_field"]


def check_field(bound_field: CardListField, name: str, text: str, rules: Rules, *, split: bool = True) -> FieldCheck:
    """What the engine makes of field ``name`` (melded, melds, held, cards, deadwood, upcard)
    holding ``text``, read as ``bound_field`` reads it. Cards that do not read are the form's to
    report. ``split``: the engine splits a melded list (not when the player gave the split)."""
    return check_text(name, text, rules, wild=bound_field.wild, groups=bound_field.groups, split=split)


def attach(entry: DealEntry, rules: Rules) -> None:
    """Check every card field of the entry, keep each check on its slot for the page, and put the
    problems found beside their field. Shows the engine's split of an Oklahoma melded list in that
    player's melds field (unless the player gave a split)."""
    for slot in entry.slots:
        _attach(entry, slot, rules)


def _attach(entry: DealEntry, slot: Slot, rules: Rules) -> None:
    bound = slot.field
    card_field = bound.field
    assert isinstance(card_field, CardListField)
    form = bound.form
    # A split the player gave is the split: the melded list is then only the cards it holds.
    given = isinstance(form, HandForm) and form.split_given
    check = check_field(card_field, bound.name, str(bound.value() or ""), rules, split=not given)
    slot.check = check
    for text in check.errors:
        entry.add(form, bound.name, text)
    if check.split and isinstance(form, HandForm):
        form.show_split(check.split)
