"""What the server keeps of the phone alone: which game a game handed over became (by the key the
phone made for it), so that a repeated tap, a dropped answer or a second phone sending the same
game never makes two."""

from __future__ import annotations

from django.db import models

from scorekeeper.table.models import Game


class HandedGame(models.Model):
    key = models.CharField(max_length=64, unique=True)  # made by the phone that played the game
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="handed")
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.key} → game {self.game_id}"
