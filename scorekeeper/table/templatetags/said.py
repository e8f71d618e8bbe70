"""``{% load said %}``: the request's messages for one place of a page (``components/messages.html``).

``{{ messages|said_at:"seats" }}``: those a view tagged for that section (a seat's refusal, said
beside the seats it concerns); ``{{ messages|said_at:"" }}``: the others, at the top of the page.
Each message is shown once, wherever it is."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.contrib.messages.storage.base import Message

register = template.Library()


@register.filter
def said_at(messages: Iterable[Message], where: str) -> list[Message]:
    return [m for m in messages if (m.extra_tags or "") == (where or "")]
