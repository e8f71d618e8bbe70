"""Forms that write once, and never over a change they did not see.

A form that writes carries a one-time token (``new_submission``, in its ``SubmissionField``): the
write records it with the answer it gave (``remember``), so a repeated submit of the same form — a
double tap, a retry after a lost answer — finds it (``check`` raises ``Duplicate``) and is answered
as the first was, without writing again. A form opened for something that changed since (a deal
saved, edited or deleted on another phone) is refused with what is there now (``Conflict``).
The writes (``scoring``, ``hands``, ``games``) call ``check`` once they hold the game's lock and
``remember`` as they finish, in their transaction.

The database holds digests only (``digest``: of the token, and of the secret of the browser that
submitted it): a token read from a copy of the database is no token of any form.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Any

from django import forms
from django.db import IntegrityError, transaction

from scorekeeper.table.models import Change, Deal, Submission


def new_submission() -> str:
    """A fresh token for a form that writes: its submit is then written once, however often it arrives."""
    return secrets.token_urlsafe(24)


class SubmissionField(forms.CharField):
    """A form's one-time token (``new_submission``), hidden. Never an error: anything posted in its
    place that the app did not make (too long, a NUL) is no token to the writes, which then write
    once as for any form."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, **kwargs)

    def clean(self, value: Any) -> str:
        return value if isinstance(value, str) else ""


class Duplicate(Exception):
    """This form was submitted before and written then: answer as the first time (``answer``);
    ``browser`` is the digest of the secret of the browser that submitted it first ("": none)."""

    def __init__(self, answer: str, browser: str = "") -> None:
        super().__init__(answer)
        self.answer = answer
        self.browser = browser

    def by(self, browser: str) -> bool:
        """Whether the browser with this secret (``access.browser``) submitted the form first."""
        return bool(self.browser and browser) and hmac.compare_digest(self.browser, digest(browser))


@dataclass
class Conflict(Exception):
    """The form is stale: what it would change was changed or deleted on another phone."""

    message: str
    deal: Deal | None = None  # what the deal holds now (None: it is gone)
    change: Change | None = None  # the change that made the form stale

    def __str__(self) -> str:
        return self.message


def _token(token: str | None) -> str | None:
    """A submission token as the forms make them (``new_submission``); anything else
    posted in its place (too long for its column, a NUL PostgreSQL refuses) is no token."""
    return token if isinstance(token, str) and _TOKEN.fullmatch(token) else None


_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def digest(secret: str) -> str:
    """What the database holds of a form's token or a browser's secret: its SHA-256 (each is 192
    random bits: no slow hash is needed to make a digest useless)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _first(token: str) -> Duplicate | None:
    """The first submit of the form with this token, if it was written."""
    row = Submission.objects.filter(token=digest(token)).values_list("answer", "browser").first()
    return Duplicate(*row) if row else None


def first_answer(token: str | None) -> str | None:
    """How a form submitted before was answered (None: it was not written)."""
    token = _token(token)
    done = _first(token) if token else None
    return done.answer if done else None


def check(token: str | None) -> None:
    """Raise Duplicate when this form was written before. A write of a game calls it once it holds
    the game's lock: a twin submit that waited for the lock (PostgreSQL) then sees the first one's
    token, where checking before the lock would find none and take the twin for a stale form."""
    token = _token(token)
    done = _first(token) if token else None
    if done is not None:
        raise done


def remember(token: str | None, answer: str, *, browser: str = "") -> None:
    """Record that this form was written, and how it was answered, by the browser with the secret
    ``browser`` if it is known (a form without a token of ours is written as any form is, and not
    recorded)."""
    token = _token(token)
    if token:
        by = digest(browser) if browser else ""
        try:
            with transaction.atomic():
                Submission.objects.create(token=digest(token), answer=answer, browser=by)
        except IntegrityError:  # the same form landing twice at once: the other one wrote; answer as it did
            raise _first(token) or Duplicate(answer) from None
