"""The German catalogs are complete and compiled: every message has a German translation (none empty,
none fuzzy), every placeholder of an id is in its translation, every id in the code is in a catalog, and
the committed .mo files are the .po files compiled (a fresh clone needs no gettext to run)."""

from __future__ import annotations

import ast
import gettext
import re
import string
from pathlib import Path

import polib  # type: ignore[import-untyped]
import pytest
from django.conf import settings

from tests.rules.test_messages import MARKERS, _marker_calls

CATALOGS = [Path(p) / "de" / "LC_MESSAGES" / "django.po" for p in settings.LOCALE_PATHS]


def entries():
    for path in CATALOGS:
        yield from ((path, e) for e in polib.pofile(str(path)) if not e.obsolete)


def fields(template: str) -> set[tuple[str, str]]:
    return {(name, spec or "") for _, name, spec, _ in string.Formatter().parse(template) if name is not None}


def test_there_are_both_catalogs():
    assert all(path.is_file() for path in CATALOGS), CATALOGS
    assert sum(1 for _ in entries()) > 650


def test_every_message_has_a_german_translation():
    missing = [e.msgid for _, e in entries() if not e.translated() or "fuzzy" in e.flags]
    assert not missing, f"{len(missing)} messages without German: {missing[:20]}"


def test_every_translation_keeps_the_placeholders_of_its_id():
    wrong = []
    for _, e in entries():
        if "python-brace-format" not in e.flags:
            continue
        pairs = [(e.msgid, e.msgstr_plural[0]), (e.msgid_plural, e.msgstr_plural[1])] if e.msgid_plural else []
        for singular, translated in pairs or [(e.msgid, e.msgstr)]:
            if fields(singular) - {("n", "")} != fields(translated) - {("n", "")}:
                wrong.append((singular, translated))
    assert not wrong, wrong[:10]


def test_every_message_id_of_the_code_is_in_a_catalog():
    ids = {e.msgid for _, e in entries()}
    absent = sorted(
        {
            call.args[0].value
            for _, call in _marker_calls()
            if isinstance(call.args[0], ast.Constant)
            and isinstance(call.args[0].value, str)
            and call.args[0].value not in ids
        }
    )
    assert MARKERS and not absent, f"run `make messages`: {absent[:20]}"


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: str(p.relative_to(settings.BASE_DIR)))
def test_the_committed_mo_is_the_po_compiled(po: Path):
    with po.with_suffix(".mo").open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    for e in polib.pofile(str(po)):
        if e.obsolete or not e.translated() or "fuzzy" in e.flags:
            continue
        c = e.msgctxt
        if e.msgid_plural:
            for n, form in ((1, 0), (5, 1)):
                got = (
                    compiled.npgettext(c, e.msgid, e.msgid_plural, n)
                    if c
                    else compiled.ngettext(e.msgid, e.msgid_plural, n)
                )
                assert got == e.msgstr_plural[form], f"run `make messages`: {e.msgid!r}"
        else:
            got = compiled.pgettext(c, e.msgid) if c else compiled.gettext(e.msgid)
            assert got == e.msgstr, f"run `make messages`: {e.msgid!r}"


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: str(p.relative_to(settings.BASE_DIR)))
def test_the_header_is_filled_in_and_nothing_is_obsolete(po: Path):
    """Each catalog names its project, translator and team (not gettext's PACKAGE, FULL NAME, YEAR),
    is not fuzzy, and keeps no entry the code no longer uses (``make messages``: --no-obsolete)."""
    catalog = polib.pofile(str(po))
    header = catalog.metadata
    assert header["Project-Id-Version"].startswith("Oklahoma Scorekeeper")
    assert header["Language-Team"] == "German" and header["Language"] == "de"
    assert not any(x in str(header) for x in ("PACKAGE", "FULL NAME", "YEAR", "LL@li.org", "EMAIL@ADDRESS"))
    assert not catalog.metadata_is_fuzzy and not catalog.obsolete_entries()


def test_german_quotes_are_german_quotation_marks():
    """„…“ in German text, never '…', "…" or “…” (an HTML attribute's quotes apart)."""
    wrong = []
    for _, e in entries():
        for said in [e.msgstr, *e.msgstr_plural.values()]:
            marks = "".join(re.findall(r"[„“”\"'‚‘’]", re.sub(r"<[^>]*>", "", said)))
            if marks != "„“" * (len(marks) // 2):
                wrong.append(said)
    assert not wrong, wrong[:10]
