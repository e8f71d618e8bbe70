"""Each test of the languages starts in the default language: a request in German leaves German
active in the thread that served it (Django activates a request's language and leaves it so), and
the test client serves its requests in the test's own thread."""

from collections.abc import Iterator

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    translation.deactivate()
    yield
    translation.deactivate()
