"""THE skeleton of a form that enters a deal (the scorer's deal form, the points-only form, a seated
phone's hand): versioned, written once, previewed as it is typed.

A posted form is read by its view (``read``: None while a field does not read; its errors are on its
fields), then ``post`` either checks it (a live preview, htmx: ``check``) or saves it (``save``: the
address to go to). What a save can come to is the same for every such form and answered here, once:

- saved: the phone goes where the save says (``Posted.redirect``);
- written before (``submissions.Duplicate``: a double tap, a retry after a lost answer): it goes
  where the first submit went;
- stale (``submissions.Conflict``: the deal or hand changed on another phone since the form was
  opened): the form shows what is there now and is restarted (``restart``: a new submission, of the
  next deal or of the deal as it is now), 409;
- refused by the engine (``RecordInvalid``): each error beside the field it concerns (``refuse``), 400;
- a database that cannot be written (a full disk, a read-only or locked file): the form again with
  what was typed and why, 503.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.db import DatabaseError
from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from scorekeeper.rules.errors import RecordError, RecordInvalid
from scorekeeper.table.submissions import Conflict, Duplicate, new_submission

log = logging.getLogger(__name__)

# What a save that the database refused says, on the form with the cards as typed.
NOT_WRITTEN = gettext_lazy("The server could not write the deal — your cards are kept; try again in a moment.")


class Entry(Protocol):
    """What the skeleton asks of a form that enters a deal."""

    def refuse(self, errors: Sequence[RecordError]) -> None:
        """Put each of the engine's errors beside the field it concerns."""
        ...

    def restart(self, changes: Mapping[str, str]) -> None:
        """Take these values in its hidden fields (``answer``): its next submit is a new one."""
        ...


@dataclass
class Posted:
    """What a posted form came to: saved, or saved before (go to ``redirect``); or the form again,
    with what it previews (``check``'s answer), what stopped it (``conflict``) and the status."""

    redirect: str | None = None
    preview: Any = None
    conflict: Conflict | Promise | None = None
    status: int = 200

    def status_with(self, form_errors: bool, live: bool) -> int:
        """The page's status: a live preview (htmx) is always 200; else the refusal's, or 400 when
        a field is in error."""
        if live:
            return 200
        return self.status if self.status != 200 else 400 if form_errors else 200


def previewing(request: HttpRequest) -> bool:
    """Whether a posted form asks for its preview (its Preview button, or htmx as it is typed)
    rather than a save."""
    return request.POST.get("action", "save") == "preview"


def post[T](
    data: T | None,
    form: Entry,
    *,
    save: Callable[[T], str] | None,
    check: Callable[[T], Any] | None = None,
    restart: Callable[[Conflict], Mapping[str, str]],
) -> Posted:
    """Save ``data`` (what the form read; None: a field does not read) — or, with no ``save``, only
    ``check`` it (a live preview) — and say what came of it (``Posted``)."""
    if data is None:
        return Posted(status=400)
    try:
        if save is None:
            return Posted(preview=check(data) if check is not None else None)
        return Posted(redirect=save(data))
    except Duplicate as done:
        return Posted(redirect=done.answer)
    except Conflict as exc:
        form.restart(restart(exc))
        return Posted(conflict=exc, status=409)
    except RecordInvalid as exc:
        form.refuse(exc.errors)
        return Posted(status=400)
    except DatabaseError:  # a full disk, a read-only or locked database: what was typed stays on the form
        log.exception("a deal could not be written")
        return Posted(conflict=NOT_WRITTEN, status=503)


def again(conflict: Conflict, *, editing: bool) -> dict[str, str]:
    """How a deal's form answers a conflict: a new deal's next save is the next deal's, whatever
    its number then (the player, seeing the deal taken, says these cards are another deal: however
    many phones save at once, a phone is refused once, never again and again); an edit's is of the
    deal as it is now. Either way a new submission."""
    changes = {"submission": new_submission()}
    if conflict.deal is not None and not editing:
        changes["number"] = ""
    elif conflict.deal is not None:
        changes["version"] = str(conflict.deal.version)
    return changes
