"""Forget the one-time tokens of forms submitted long ago (``Submission``). A token answers a repeat
of its form (a double tap, a retry after a lost answer, a draft sent again when a phone is back
online, kept at most 14 days by static/drafts.js); after 30 days nothing repeats it. ``manage.py
serve`` runs this as it starts."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from scorekeeper.table.models import Submission

KEEP_DAYS = 30


class Command(BaseCommand):
    help = "Forget the tokens of forms submitted more than 30 days ago (--days for another age)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--days", type=int, default=KEEP_DAYS)

    def handle(self, *args: Any, days: int, **options: Any) -> None:
        before = timezone.now() - timedelta(days=days)
        gone, _ = Submission.objects.filter(created__lt=before).delete()
        if options.get("verbosity", 1) > 1:
            self.stdout.write(f"{gone} old submission tokens forgotten")
