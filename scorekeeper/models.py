"""What the app stores: a game is its rules, its players in seat order and the list of its deals,
each deal exactly the RECORD.md deal dict (player names as keys). Scores are never stored as
truth: every page re-scores the record through the engine; ``Game.state``/``winner`` are a cache."""

from __future__ import annotations

from django.db import models
from django.db.models.functions import Lower

GAME_CHOICES = [("oklahoma", "Oklahoma"), ("oklahoma-gin", "Oklahoma Gin")]


class Player(models.Model):
    """A person at the table. Names match across games whatever their case ("ann" is "Ann")."""

    name = models.CharField(max_length=40)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(Lower("name"), name="player_name_unique_ci")]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Game(models.Model):
    game = models.CharField(max_length=20, choices=GAME_CHOICES)
    profile = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)
    target = models.IntegerField(help_text="The target as shown (the rules' value).")
    first_dealer = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Seat position (0-based) of the first dealer."
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    state = models.CharField(max_length=20, default="in_progress")
    winner = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        ordering = ["-updated", "-id"]

    def __str__(self) -> str:
        return f"{self.get_game_display()} #{self.pk}"

    def player_names(self) -> list[str]:
        return [s.player.name for s in self.seats.select_related("player").order_by("position")]

    @property
    def finished(self) -> bool:
        return self.state == "finished"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at seat {self.position + 1}"


class Deal(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField(help_text="1-based, in the order played.")
    data = models.JSONField(help_text="One RECORD.md deal, player names as keys.")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="deal_number_unique")]

    def __str__(self) -> str:
        return f"deal {self.number} of game {self.game_id}"


class DealChange(models.Model):
    """Every change to a game's deals, with the deal as it was and as it became."""

    CREATED, EDITED, DELETED = "created", "edited", "deleted"
    ACTIONS = [(CREATED, "created"), (EDITED, "edited"), (DELETED, "deleted")]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    deal = models.ForeignKey(Deal, on_delete=models.SET_NULL, null=True, blank=True, related_name="changes")
    number = models.PositiveIntegerField()
    action = models.CharField(max_length=10, choices=ACTIONS)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "at", "id"]

    def __str__(self) -> str:
        return f"deal {self.number} {self.action}"


class GameSummary(models.Model):
    """A cache of a game's scores per deal for the history pages (``scorekeeper.history``), so a
    player page over hundreds of games need not re-score them. Never the truth: ``key`` names the
    game state it was computed from and a stale summary is recomputed from the record."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="summary")
    key = models.CharField(max_length=64)
    data = models.JSONField()

    def __str__(self) -> str:
        return f"summary of game {self.game_id}"
