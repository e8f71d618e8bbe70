"""The rows module's JSON in the database's own form: on SQLite, the text ``json.dumps`` gives
(through an encoder made once), elsewhere what the backend's own adapter gives."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.table.rows import json_values

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.text()
)
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4), max_leaves=20
)


@settings(max_examples=300, deadline=None)
@given(value=values)
def test_json_values_are_what_the_backend_stores(value):
    got = json_values()(value)
    if connection.vendor == "sqlite":
        assert got == json.dumps(value)
    else:
        assert type(got) is type(connection.ops.adapt_json_value(value, None))


@pytest.mark.skipif(connection.vendor != "sqlite", reason="PostgreSQL's adapter encodes when the row is written")
def test_a_value_json_cannot_hold_is_refused_as_json_dumps_refuses_it():
    with pytest.raises(TypeError, match="not JSON serializable"):
        json_values()({"when": object()})
