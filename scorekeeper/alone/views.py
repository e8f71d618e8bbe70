"""The phone alone: ``/alone/``, a whole game played in the phone's browser with the engine running
there (Pyodide in a Web Worker, ``static/alone/``), kept on the phone (IndexedDB), and the one
request it makes of the server, ``/alone/hand-over/``: a game handed to this phone's table."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from scorekeeper.alone import assets, services
from scorekeeper.alone.finders import ENGINE, PYODIDE_PREFIX
from scorekeeper.alone.words import alone_words
from scorekeeper.guards.limits import IMPORTS, limited
from scorekeeper.rules import games, profiles
from scorekeeper.table import access
from scorekeeper.table.entry.deal import entry_of
from scorekeeper.table.entry.forms import HandForm
from scorekeeper.table.games.forms import NewGameForm

KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")
MAX_RECORD = 4 * 1024 * 1024  # a game of hundreds of deals is far less


def pyodide_folder() -> str:
    """Pyodide's folder (its version in the name): loadPyodide fetches its files there by their own
    names, which the collected files keep beside the hashed ones."""
    return static(f"{PYODIDE_PREFIX}pyodide.mjs").rsplit("/", 1)[0] + "/"


def engine_urls() -> dict[str, str]:
    """What the page's worker loads: Pyodide's folder and the engine's zip."""
    return {"worker": static("alone/worker.mjs"), "pyodide": pyodide_folder(), "engine": static(ENGINE)}


# What the phone keeps to play with no connection: the page, its scripts and the engine (the app's
# other pages keep only their shell: they never download Pyodide).
KEPT = ("app.js", "picker.js", "drafts.js", "alone/alone.js", "alone/worker.mjs", "django_htmx/htmx-2.min.js")


def kept_urls() -> list[str]:
    """Every address the phone alone keeps (its cache, named by a digest of them and of the engine)."""
    pyodide = [pyodide_folder() + name for name in assets.PYODIDE_FILES]
    return [reverse("alone:alone"), *(static(name) for name in KEPT), static(ENGINE), *pyodide]


def kept_cache(urls: list[str]) -> str:
    digest = hashlib.sha256("\n".join(urls).encode())
    digest.update(assets.engine_zip().read_bytes())
    return "alone-" + digest.hexdigest()[:12]


def deal_forms() -> dict[str, dict[str, Any]]:
    """Each game's deal form as the table's is made (its entry, its forms, the game): the page builds
    the phone's from it, asking the game, not its name."""
    shapes = {}
    for kind in profiles.GAMES:
        entry, game = entry_of(kind), games.game(kind)
        hand, facts = entry.hands_formset.form, entry.facts_form
        assert issubclass(hand, HandForm)
        shapes[kind] = {
            "actor": game.actor,
            "nobody": game.no_actor,
            "primary": hand.primary,
            "extra": hand.extra,
            "hand_flags": hand.flags,
            "companions": {name: list(others) for name, others in hand.companions.items()},
            "flags": facts.flags,
            "card_facts": facts.card_fields,
            "facts_first": entry.facts_first,
        }
    return shapes


@require_safe
def alone(request: HttpRequest) -> HttpResponse:
    forms = [
        (kind, profiles.GAME_NAMES[kind], NewGameForm(game=kind, auto_id=f"{kind}_%s", initial={"first_dealer": 0}))
        for kind in profiles.GAMES
    ]
    context = {
        "forms": forms,
        "setup": {
            **engine_urls(),
            "handOver": reverse("alone:hand_over"),
            "forms": deal_forms(),
            "keep": kept_urls(),
            "cache": kept_cache(kept_urls()),
        },
        "alone_words": alone_words(),
    }
    return render(request, "alone/alone.html", context)


def _refusal(text: str, status: int, **more: Any) -> JsonResponse:
    return JsonResponse({"errors": [{"message": text}], **more}, status=status)


@require_POST
@limited(IMPORTS)
def hand_over(request: HttpRequest) -> HttpResponse:
    """``{"key": ..., "record": {...}}``: the game made a game of this phone's table, once per key."""
    if len(request.body) > MAX_RECORD:
        return _refusal(gettext("This game is too large to hand over."), 413)
    try:
        sent = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        sent = None
    key = sent.get("key") if isinstance(sent, dict) else None
    if not isinstance(key, str) or not KEY.fullmatch(key) or "record" not in sent:
        return _refusal(gettext("Not a game from this app's phone alone."), 400)
    try:
        handed = services.hand_over(key=key, record=sent["record"], devices=access.devices(request))
    except services.Refused as exc:
        return JsonResponse({"errors": exc.errors}, status=400)
    except services.HandedElsewhere:
        return _refusal(gettext("This game was handed to another table already."), 409)
    game = handed.game
    response = JsonResponse(
        {"game": game.pk, "url": reverse("table:game", args=[game.pk]), "created": handed.created},
        status=201 if handed.created else 200,
    )
    access.remember(response, request, handed.device)
    return response
