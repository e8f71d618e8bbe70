"""What the app stores.

A ``Table`` is a group of people who play together: it owns its players, its games and the phones
(``Device``) that may read or score them. A game is its rules, its players in seat order and the
list of its deals; each deal holds the cards as entered in "seat form" (the RECORD.md deal with
every player name replaced by the seat number), so renaming a player touches one row.

Scores are the engine's: the writes (``table.services``) store each deal's result and the game's
standing after it, and the per-seat statistics the history pages read, so a page never scores a
whole game and a read never writes.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import unicodedata
from typing import Any

from django.db import models
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import pgettext_lazy


class GameKind(models.TextChoices):
    OKLAHOMA = "oklahoma", "Oklahoma"
    GIN = "oklahoma-gin", "Oklahoma Gin"


class GameState(models.TextChoices):
    IN_PROGRESS = "in_progress", pgettext_lazy("a game", "in progress")
    FINISHED = "finished", pgettext_lazy("a game", "finished")


class Role(models.TextChoices):
    SCORE = "score", pgettext_lazy("what a phone does at the table", "scores")
    FOLLOW = "follow", pgettext_lazy("what a phone does at the table", "follows")


class ChangeAction(models.TextChoices):
    DEAL_ADDED = "added", pgettext_lazy("a deal", "added")
    DEAL_EDITED = "edited", pgettext_lazy("a deal", "edited")
    DEAL_DELETED = "deleted", pgettext_lazy("a deal", "deleted")
    DEAL_RESTORED = "restored", pgettext_lazy("a deal", "restored")
    RULES_SWITCHED = "rules", pgettext_lazy("a game's change", "rules switched")


def clean_name(name: str) -> str:
    """A name as typed, made safe to store and show: Unicode NFC, no control characters
    (NUL included), inner runs of spaces made one, no spaces at the ends."""
    text = unicodedata.normalize("NFC", name)
    text = "".join(" " if ch.isspace() else ch for ch in text if unicodedata.category(ch)[0] != "C" or ch.isspace())
    return " ".join(text.split())


def name_key(name: str) -> str:
    """What makes two names the same player: Unicode case folding of the compatibility form,
    the same on every database ("Émile" and "émile" are one player)."""
    return unicodedata.normalize("NFKC", clean_name(name)).casefold()


class Table(models.Model):
    """The people who play together: their games, players and phones are theirs alone."""

    name = models.CharField(max_length=60)
    created = models.DateTimeField(default=timezone.now)
    names = models.PositiveIntegerField(
        default=0,
        help_text="Bumped by a rename of one of its players or of the table, or a change of its phones: part of"
        " its games' cached fragments' key.",
    )
    save_when_complete = models.BooleanField(
        default=False, help_text="A deal whose hands the players entered saves itself once every hand is in and valid."
    )

    def __str__(self) -> str:
        return self.name


class Device(models.Model):
    """A phone (a browser) at a table: it may score (enter, edit, delete, switch rules) or follow."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="devices")
    name = models.CharField(max_length=40)
    role = models.CharField(max_length=10, choices=Role)
    created = models.DateTimeField(default=timezone.now)
    revoked = models.DateTimeField(null=True, blank=True)
    added_by = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    def __str__(self) -> str:
        return self.name

    @property
    def scores(self) -> bool:
        return self.role == Role.SCORE and self.revoked is None


def link_digest(token: str) -> str:
    """What the database holds of a link's token: its SHA-256 (the token is 144 random bits to
    anyone without the secret key: no slow hash is needed to make a digest useless)."""
    return hashlib.sha256(token.encode()).hexdigest()


def link_token(salt: str) -> str:
    """The token of the link made with ``salt``: a keyed hash of it under the installation's secret
    key (``salted_hmac``), so a copy of the database (salt and digest) opens no table, while the
    table page can show the link again."""
    mac = salted_hmac("scorekeeper.table.Link", salt, algorithm="sha256").digest()
    return base64.urlsafe_b64encode(mac[:18]).decode()


class Link(models.Model):
    """An invitation to a table: whoever opens it becomes a phone of the table with its role.

    The database holds no token (issue 23): ``digest`` is its SHA-256, and the token is made again
    from ``salt`` with the secret key (``link_token``). A link made before (its token was stored in
    clear, then hashed by migration 0006) has no salt: it works, but cannot be shown again."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="links")
    role = models.CharField(max_length=10, choices=Role)
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the link's token.")
    salt = models.CharField(max_length=32, blank=True, default="", help_text="Makes the token with the secret key.")
    created = models.DateTimeField(default=timezone.now)
    revoked = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(Device, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    def __str__(self) -> str:
        return f"{self.get_role_display()} link to {self.table}"

    @property
    def token(self) -> str | None:
        """The link's token, or None when it cannot be made again (a link from before the hashes,
        or made under another secret key)."""
        if not self.salt:
            return None
        token = link_token(self.salt)
        return token if hmac.compare_digest(link_digest(token), self.digest) else None

    @classmethod
    def new(cls, **fields: Any) -> Link:
        """A new link (not saved), its salt and digest made."""
        salt = secrets.token_urlsafe(16)
        return cls(salt=salt, digest=link_digest(link_token(salt)), **fields)

    @classmethod
    def opened_by(cls, token: str) -> models.QuerySet[Link]:
        """The link this token opens (none, or one)."""
        return cls.objects.filter(digest=link_digest(token))


class Player(models.Model):
    """A person at a table. ``key`` makes names match whatever their case ("ann" is "Ann")."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=40)
    key = models.CharField(max_length=80)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "key"], name="player_name_unique_at_table")]
        ordering = ["key"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name = clean_name(self.name)
        self.key = name_key(self.name)
        super().save(*args, **kwargs)


class GameQuerySet(models.QuerySet["Game"]):
    def of_tables(self, tables: Any) -> GameQuerySet:
        return self.filter(table__in=tables)

    def listed(self) -> GameQuerySet:
        """Newest first, with the seats and players a list shows (no query per game)."""
        return self.order_by("-created", "-id").prefetch_related("seats__player")

    def locked(self, pk: int) -> Game:
        """The game for a write, its row locked until the transaction ends (PostgreSQL; SQLite's
        writes hold the whole database), with its seats and players: two phones writing to one
        game are served one after the other."""
        return self.select_for_update().prefetch_related("seats__player").get(pk=pk)


class Game(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    kind = models.CharField(max_length=20, choices=GameKind)
    profile = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)
    first_dealer = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Seat of the first dealer.")
    created = models.DateTimeField(default=timezone.now)
    updated = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=0, help_text="Bumped by every change to the game.")
    state = models.CharField(max_length=20, choices=GameState, default=GameState.IN_PROGRESS)
    winner = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Seat of the winner.")
    scored_with = models.CharField(
        max_length=20, blank=True, default="", help_text="The engine's results version the stored results come from."
    )

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]
        # A table's games newest first. One index by table: a second one (by table and version) made
        # SQLite sort every game of the table for the home page's newest 30.
        indexes = [models.Index(fields=["table", "-created"], name="game_table_created")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"

    @property
    def finished(self) -> bool:
        return self.state == GameState.FINISHED

    @property
    def is_gin(self) -> bool:
        return self.kind == GameKind.GIN

    def seated(self) -> list[Seat]:
        """The seats in order, from the prefetch cache when there is one."""
        return sorted(self.seats.all(), key=lambda s: s.position)

    def player_names(self) -> list[str]:
        return [s.player.name for s in self.seated()]

    def winner_name(self) -> str:
        names = self.player_names()
        return names[self.winner] if self.winner is not None and self.winner < len(names) else ""


class Seat(models.Model):
    """A player's place at a game, with his figures in it (kept up to date by the writes)."""

    # No index of its own on game: the unique (game, position) serves every look-up by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=20, choices=GameKind, help_text="The game's (which never changes).")
    total = models.IntegerField(default=0, help_text="Running total after the last deal.")
    final = models.IntegerField(null=True, blank=True, help_text="Final tally once the game is over.")
    won = models.BooleanField(default=False)
    deals = models.PositiveIntegerField(default=0, help_text="Deals scored (void hands not counted).")
    points = models.IntegerField(default=0, help_text="Points over those deals (penalty points count negative).")
    outs = models.PositiveIntegerField(default=0, help_text="Oklahoma: times out; Gin: gin or big gin.")
    knocks = models.PositiveIntegerField(default=0)
    undercuts_given = models.PositiveIntegerField(default=0)
    undercuts_suffered = models.PositiveIntegerField(default=0)
    best_points = models.IntegerField(null=True, blank=True)
    best_deal = models.PositiveIntegerField(null=True, blank=True)
    worst_points = models.IntegerField(null=True, blank=True)
    worst_deal = models.PositiveIntegerField(null=True, blank=True)
    best_value = models.IntegerField(
        null=True, blank=True, help_text="best_points as the player page compares them (penalty points count negative)."
    )
    worst_value = models.IntegerField(
        null=True,
        blank=True,
        help_text="worst_points as the player page compares them (penalty points count negative).",
    )
    phone = models.ForeignKey(
        Device,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats_taken",
        help_text="The phone of the player at this seat, which enters his own hand (one phone per seat).",
    )
    typing_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When this seat's hand of the open deal was last typed (its form's live preview).",
    )

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_player_unique"),
            models.UniqueConstraint(
                fields=["game", "phone"], condition=models.Q(phone__isnull=False), name="seat_one_per_phone"
            ),
        ]
        # A player's best and worst deal of a game (the player page): the first entry of each, the
        # latest game first where several games hold the value.
        indexes = [
            models.Index(fields=["player", "kind", "-best_value", "-game"], name="seat_player_best"),
            models.Index(fields=["player", "kind", "worst_value", "-game"], name="seat_player_worst"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at seat {self.position + 1}"


class PlayerFigures(models.Model):
    """A player's figures in one game (Oklahoma or Gin), summed over his games: what the player
    page shows, kept by every write that changes a seat's figures or a game's state (``table.figures``)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="figures")
    kind = models.CharField(max_length=20, choices=GameKind)
    games = models.IntegerField(default=0)
    won = models.IntegerField(default=0)
    finished = models.IntegerField(default=0, help_text="Games of his that ended.")
    deals = models.IntegerField(default=0, help_text="Deals scored (void hands not counted).")
    points = models.IntegerField(default=0, help_text="Points over those deals (penalty points count negative).")
    outs = models.IntegerField(default=0, help_text="Oklahoma: times out; Gin: gin or big gin.")
    knocks = models.IntegerField(default=0)
    undercuts_given = models.IntegerField(default=0)
    undercuts_suffered = models.IntegerField(default=0)

    class Meta:
        ordering = ["player", "kind"]
        constraints = [models.UniqueConstraint(fields=["player", "kind"], name="player_figures_unique")]

    def __str__(self) -> str:
        return f"{self.player} at {self.kind}"


class HeadToHead(models.Model):
    """The games two players of a table played together (for each of the two, a row): how many, how
    many ``player`` won, how many ``other`` won, how many ended. Kept by the writes (``table.figures``)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    games = models.IntegerField(default=0)
    won = models.IntegerField(default=0)
    lost = models.IntegerField(default=0, help_text="Games the other player won.")
    finished = models.IntegerField(default=0)

    class Meta:
        ordering = ["player", "other"]
        constraints = [models.UniqueConstraint(fields=["player", "other"], name="head_to_head_unique")]

    def __str__(self) -> str:
        return f"{self.player} against {self.other}"


class Deal(models.Model):
    """One deal: the cards as entered (seat form) and the engine's result, stored by the writes."""

    # No index of its own on game: the unique (game, number) serves every look-up by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals", db_index=False)
    number = models.PositiveIntegerField(help_text="1-based, in the order played.")
    cards = models.JSONField(help_text="The RECORD.md deal, with seat numbers in place of names.")
    version = models.PositiveIntegerField(default=1, help_text="Bumped by every edit.")
    created = models.DateTimeField(default=timezone.now)
    updated = models.DateTimeField(default=timezone.now)
    outcome = models.CharField(max_length=20, default="")
    dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    actor = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Who went out or knocked.")
    winner = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Who won the hand.")
    multiplier = models.PositiveSmallIntegerField(default=1)
    points = models.JSONField(default=list, help_text="What the deal added to each seat's total.")
    totals = models.JSONField(default=list, help_text="Each seat's running total after the deal.")
    standing = models.JSONField(default=dict, help_text="The engine's Standing after the deal.")

    class Meta:
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="deal_number_unique")]

    def __str__(self) -> str:
        return f"deal {self.number} of game {self.game_id}"


class ChangeQuerySet(models.QuerySet["Change"]):
    def update(self, **kwargs: Any) -> int:
        raise TypeError("the change history is append-only")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise TypeError("the change history is append-only")


class Change(models.Model):
    """Every change to a game, with when, by whom, and what it was before and after. Append-only."""

    # No index of its own on game: the index on (game, deal_id) serves every look-up by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes", db_index=False)
    deal_id = models.BigIntegerField(null=True, blank=True, help_text="The deal's stable identity (Deal.id).")
    number = models.PositiveIntegerField(null=True, blank=True, help_text="The deal's number at the time.")
    action = models.CharField(max_length=10, choices=ChangeAction)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    at = models.DateTimeField(default=timezone.now)
    by = models.ForeignKey(Device, on_delete=models.SET_NULL, null=True, blank=True, related_name="changes")
    by_name = models.CharField(max_length=80, blank=True, default="")
    undoes = models.OneToOneField("self", on_delete=models.CASCADE, null=True, blank=True, related_name="undone_by")
    hands_by = models.JSONField(
        null=True, blank=True, help_text="By seat, the phone that entered each hand of a deal the players entered."
    )

    objects = ChangeQuerySet.as_manager()

    class Meta:
        ordering = ["game", "at", "id"]
        indexes = [models.Index(fields=["game", "deal_id"], name="change_game_deal")]

    def __str__(self) -> str:
        return f"deal {self.number} {self.action}" if self.number else f"game {self.game_id} {self.action}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise TypeError("the change history is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise TypeError("the change history is append-only")


class OpenDeal(models.Model):
    """The next deal while the players enter it, each his own hand on his own phone (``OpenHand``):
    the deal's own facts as given so far (seat form: who went out or knocked by seat, the upcard,
    the flags; a key absent is not given yet), versioned. Saved, it becomes a ``Deal`` and is gone."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="open_deal")
    # Names it in the forms opened for it; it is shown as the next deal (``opendeal.saves_as``).
    number = models.PositiveIntegerField(help_text="The deal it was opened as.")
    facts = models.JSONField(default=dict, blank=True)
    facts_version = models.PositiveIntegerField(default=0, help_text="Bumped by every change to the facts.")
    facts_by = models.CharField(max_length=80, blank=True, default="")
    opened = models.DateTimeField(default=timezone.now)
    opened_by = models.CharField(max_length=80, blank=True, default="")

    def __str__(self) -> str:
        return f"open deal {self.number} of game {self.game_id}"


class OpenHand(models.Model):
    """One player's hand of an open deal, as his phone (or the scorer) submitted it: the RECORD.md
    hand, versioned as deals are (a stale correction is refused)."""

    deal = models.ForeignKey(OpenDeal, on_delete=models.CASCADE, related_name="hands")
    seat = models.PositiveSmallIntegerField()
    hand = models.JSONField()
    version = models.PositiveIntegerField(default=1)
    by = models.ForeignKey(Device, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    by_name = models.CharField(max_length=80, blank=True, default="")
    updated = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["deal", "seat"]
        constraints = [models.UniqueConstraint(fields=["deal", "seat"], name="open_hand_one_per_seat")]

    def __str__(self) -> str:
        return f"seat {self.seat + 1} of {self.deal}"


class Import(models.Model):
    """An import being written (``history.imports``): its games wait at a table of their own that
    no phone is at (``staging``), written a batch at a time, until the last is written; then they
    move to the table they were imported into at once. An import is whole or absent: one whose
    writes stopped (its server was killed) is never seen, and the next import removes it."""

    staging = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="+")
    touched = models.DateTimeField(default=timezone.now, help_text="When its last batch was written.")

    def __str__(self) -> str:
        return f"import at {self.staging}"


class Submission(models.Model):
    """A form submitted once: a repeated submit of the same form (a double tap, a retry after a lost
    answer) finds its token here and is answered as the first was, without writing again.

    The database holds no token (issue 37): ``token`` is its SHA-256, and ``browser`` the SHA-256 of
    the secret of the browser that submitted it (``access.browser``), so a copy of the database
    gives nothing to post again."""

    token = models.CharField(max_length=64, primary_key=True, help_text="SHA-256 of the form's token.")
    created = models.DateTimeField(default=timezone.now)
    answer = models.CharField(max_length=400)
    browser = models.CharField(
        max_length=64, blank=True, default="", help_text="SHA-256 of the secret of the browser that submitted it."
    )

    def __str__(self) -> str:
        return self.token
