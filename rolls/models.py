"""The roll log: every roll of a game session, in order, never edited or deleted."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# The models a feature owns live in its folder (each names the app's others by "rolls.Model",
# never importing this module); Django finds an app's models here, so they are imported here too,
# and every module may keep importing any model of the app from here.
from rolls.discord.models import DiscordBridge, DiscordPost
from rolls.group.models import GroupTest
from rolls.opposed.models import OpposedTest
from rolls.saved.models import SavedTest
from rolls.strikes.models import Strike
from rolls.systems import import_each
from rolls.turns.models import Combatant


class Visibility(models.TextChoices):
    PUBLIC = "public", _("public")
    # A player's secret roll: that player and the GM see it.
    SECRET = "secret", _("secret (me and the GM)")
    # The GM's hidden roll: the GM alone.
    HIDDEN = "hidden", _("hidden (GM only)")
    # A chat line to one member (rolls.chat): its author, that member (``Roll.recipient``) and
    # the GM see it; nobody else's page ever receives it.
    WHISPER = "whisper", _("whisper (me, them and the GM)")


class Roll(models.Model):
    """One entry of a session's log: who rolled what for whom, the faces, and the result.

    ``seq`` numbers the entries of a session without gaps, so a page that missed some asks
    for "everything after N" and gets exactly those. ``params`` are the engine's parameters,
    ``sources`` say where every modifier came from, ``faces`` are in the engine's format, so
    anyone can re-resolve the roll and check it.
    """

    session = models.ForeignKey(
        "campaigns.GameSession", on_delete=models.PROTECT, related_name="rolls"
    )
    seq = models.PositiveIntegerField()
    scene = models.ForeignKey(
        "campaigns.Scene", on_delete=models.PROTECT, null=True, blank=True, related_name="rolls"
    )
    # Indexed with kind and created_at below (a member's own rolls of a kind, newest first),
    # which also serves every look-up by actor alone.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rolls", db_index=False
    )
    character = models.ForeignKey(
        "sheets.Character", on_delete=models.SET_NULL, null=True, blank=True, related_name="rolls"
    )
    npc = models.ForeignKey(
        "sheets.NPC", on_delete=models.SET_NULL, null=True, blank=True, related_name="rolls"
    )
    # Names as they were at the time of the roll: a renamed or deleted character keeps its past.
    character_name = models.CharField(max_length=120, blank=True)
    system = models.CharField(max_length=20)
    kind = models.CharField(max_length=30, default="test")
    parent = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="follow_ups"
    )
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    # Who a whisper is for (``Visibility.WHISPER``); None for every other entry.
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="whispers",
    )
    # The label as the roller read it (admin, old rows); ``label_data`` says it as data
    # (rolls.labels), so each reader gets it in their own language. Rows from before have none.
    label = models.CharField(max_length=200, blank=True)
    label_data = models.JSONField(null=True, blank=True)
    params = models.JSONField(default=dict)
    sources = models.JSONField(default=list)
    faces = models.JSONField(default=list)
    result = models.JSONField(default=dict)
    # The whole numbers the roll changed on its character's sheet (spent or gained):
    # {"character": pk, "numbers": [[path, before, after], ...]} (rolls.actions.roll_from_panel),
    # for a GM who strikes the entry to give them back (rolls.strikes).
    sheet_change = models.JSONField(default=dict, blank=True)
    idempotency_key = models.UUIDField()
    # Fair dice (ENGINE.md): the nonce the roller's page sent (or the server's, when the request
    # had none: ``server_nonce``), and each die drawn from the stream of (seed, seq, nonce), in
    # order, as [sides, face]: a follow-up that re-rolls some dice draws only those.
    nonce = models.CharField(max_length=64, blank=True)
    server_nonce = models.BooleanField(default=False)
    drawn = models.JSONField(default=list)
    # Real dice rolled at the table and typed in by ``actor`` (rolls.panels.real_dice): the
    # faces are the roller's, not the fair stream's, so the entry draws nothing to check.
    typed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="one_entry_per_seq"),
            models.UniqueConstraint(
                fields=["session", "idempotency_key"], name="one_roll_per_request"
            ),
        ]
        # A long evening's log must not slow what looks for the latest entries of one kind
        # (the tables box's last table roll, a panel's last test) or a member's own rolls of a
        # kind (the quick-dice box's recent expressions): without these, a page that finds
        # none reads the whole session or every roll its member ever made (issue 42).
        indexes = [
            models.Index(fields=["session", "kind", "seq"], name="roll_kind_in_session"),
            models.Index(fields=["actor", "kind", "created_at"], name="roll_kind_of_actor"),
        ]
        verbose_name = _("roll")
        verbose_name_plural = _("rolls")

    def __str__(self) -> str:
        return f"#{self.seq} {self.label}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise ValueError("Log entries are never edited.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("Log entries are never deleted.")

    @property
    def label_words(self):
        """The label to render (rolls.labels.render): its data, or the plain text of old rows."""
        return self.label_data if self.label_data is not None else self.label


class Seal(models.Model):
    """A roll shown whole only to the GM and ``viewers`` until it is revealed: to everyone else
    it is a roll that waits (RULES.md 4.10: a Caerbannog opposed test's opponent's roll reaches
    nobody but the GM and the opponent's player until the initiator has settled).

    The log entry itself is never edited: revealing it marks its seal (``revealed_at``), and
    from then on the entry is shown as its visibility says (rolls.log.payload).
    """

    roll = models.OneToOneField(Roll, on_delete=models.PROTECT, related_name="seal")
    # The users (ids) who see it whole while sealed besides the GM: the opponent's player.
    viewers = models.JSONField(default=list, blank=True)
    revealed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("sealed roll")
        verbose_name_plural = _("sealed rolls")

    def __str__(self) -> str:
        return f"seal of #{self.roll_id} ({'revealed' if self.revealed_at else 'sealed'})"


class PendingTest(models.Model):
    """A test the GM has called for and is shaping while the player watches.

    ``target`` is what is tested (the panel choices the GM fixed, e.g. the attribute and skill);
    ``modifiers`` are the GM's (penalty dice with their sources, an NPC's ticked traits,
    difficulty...). Every change bumps ``revision`` under a row lock; a roll carries the revision
    its player saw and is refused if the GM changed the test in between.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("waiting for the roll")
        ROLLED = "rolled", _("rolled")
        CANCELLED = "cancelled", _("called off")

    session = models.ForeignKey(
        "campaigns.GameSession", on_delete=models.CASCADE, related_name="pending_tests"
    )
    character = models.ForeignKey(
        "sheets.Character", on_delete=models.CASCADE, related_name="pending_tests"
    )
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tests_called"
    )
    target = models.JSONField(default=dict)
    modifiers = models.JSONField(default=dict)
    # The player's current choices on the panel (traits ticked, dice to spend...), so the GM's
    # card shows what the player is about to roll. Not part of the test: no revision bump.
    draft = models.JSONField(default=dict, blank=True)
    revision = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    roll = models.OneToOneField(
        Roll, on_delete=models.PROTECT, null=True, blank=True, related_name="pending_test"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["character"],
                condition=models.Q(status="open"),
                name="one_open_test_per_character",
            )
        ]
        verbose_name = _("pending test")
        verbose_name_plural = _("pending tests")

    def __str__(self) -> str:
        return f"{self.character} r{self.revision} ({self.status})"


# --- After the roll: awards (rolls.dashboard.awards) ---


class Award(models.Model):
    """XP or an experience die the GM gave, or experience dice turned into XP at a session's end.

    The sheet holds the totals; this keeps who got what and why, and makes an experience die for
    one failed test something that can be given only once.
    """

    class Kind(models.TextChoices):
        XP = "xp", _("XP")
        EXPERIENCE_DIE = "experience_die", _("experience die")
        CONVERSION = "conversion", _("experience dice turned into XP")

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="awards"
    )
    character = models.ForeignKey(
        "sheets.Character", on_delete=models.SET_NULL, null=True, blank=True, related_name="awards"
    )
    character_name = models.CharField(max_length=120)
    session = models.ForeignKey(
        "campaigns.GameSession", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    amount = models.PositiveIntegerField()
    reason = models.CharField(max_length=120, blank=True)
    roll = models.ForeignKey(
        Roll, on_delete=models.PROTECT, null=True, blank=True, related_name="awards"
    )
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["roll", "kind"],
                condition=models.Q(roll__isnull=False),
                name="one_award_of_a_kind_per_roll",
            )
        ]
        verbose_name = _("award")
        verbose_name_plural = _("awards")

    def __str__(self) -> str:
        return f"{self.character_name} +{self.amount} {self.kind}"


# --- The GM's random tables (rolls.tables.random_tables) -------------------------------------


class RandomTable(models.Model):
    """A table the GM rolls on: its dice (``rolls.engine.tables``) and rows that cover every
    total exactly once. ``rows`` holds ``[low, high, text]`` lists, read through
    ``rolls.tables.random_tables.rows_of`` and written only through that module's actions.
    ``purpose`` names when the rules call for it (a key of the system's ``TableRules.purposes``;
    "" for the GM's own encounters, names, weather)."""

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="random_tables"
    )
    name = models.CharField(max_length=80)
    dice = models.CharField(max_length=10)
    purpose = models.CharField(max_length=30, blank=True)
    rows = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="one_table_name_per_campaign")
        ]
        verbose_name = _("random table")
        verbose_name_plural = _("random tables")

    def __str__(self) -> str:
        return f"{self.name} ({self.dice})"


class Condition(models.Model):
    """What a roll (or the GM) left on a character that shapes later tests by itself: knocked
    down, −2 dice on all actions until standing up again (RULES.md 3.6).

    Lives here, not in ``sheets``, because it names the log entries it came from (the apps
    import one way, campaigns <- sheets <- rolls). It is never deleted: adding and clearing are
    each an entry of the session's log (``added_entry``, ``cleared_entry``), so the evening's
    story reads back; a condition is active while it has no ``cleared_entry``. What ``effect``
    and ``amount`` mean is the system's (``ConditionRules.effects``: T10's "pool" is dice
    added to or taken off the pool); written only through ``rolls.conditions``.
    """

    class Scope(models.TextChoices):
        ALL = "all", _("all tests")
        ATTRIBUTE = "attribute", _("tests of an attribute")
        SKILL = "skill", _("tests of a skill")
        TARGET = "target", _("tests against a target")

    class Lasts(models.TextChoices):
        HAND = "hand", _("until cleared by hand")
        SCENE = "scene", _("until the scene ends")
        SESSION = "session", _("until the session ends")
        NEXT_TEST = "next_test", _("for the next test it applies to")
        SUCCESS = "success", _("until a named test succeeds")

    character = models.ForeignKey(
        "sheets.Character", on_delete=models.CASCADE, related_name="conditions"
    )
    # The system's own condition ("knocked_down", ConditionRules.presets), "" for the GM's.
    preset = models.CharField(max_length=40, blank=True)
    name = models.CharField(max_length=80)
    effect = models.CharField(max_length=20)
    amount = models.SmallIntegerField()
    scope = models.CharField(max_length=10, choices=Scope.choices, default=Scope.ALL)
    # The attribute, skill or target it concerns ("" for all tests).
    scope_name = models.CharField(max_length=80, blank=True)
    lasts = models.CharField(max_length=10, choices=Lasts.choices, default=Lasts.HAND)
    # The test whose success ends it ("stand up"), for ``Lasts.SUCCESS``.
    ends_with = models.CharField(max_length=80, blank=True)
    # The roll it came from (a T10 option), None when the GM added it by hand.
    source = models.ForeignKey(
        Roll, on_delete=models.PROTECT, null=True, blank=True, related_name="conditions_left"
    )
    session = models.ForeignKey(
        "campaigns.GameSession", on_delete=models.PROTECT, related_name="conditions"
    )
    scene = models.ForeignKey(
        "campaigns.Scene", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    added_entry = models.OneToOneField(
        Roll, on_delete=models.PROTECT, related_name="condition_added"
    )
    cleared_entry = models.OneToOneField(
        Roll, on_delete=models.PROTECT, null=True, blank=True, related_name="condition_cleared"
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="conditions_added"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("condition")
        verbose_name_plural = _("conditions")

    def __str__(self) -> str:
        return self.name

    @property
    def active(self) -> bool:
        return self.cleared_entry_id is None


class Turn(models.Model):
    """A combat turn the GM started in a scene (the party card's "Turn starts"), or a new round
    the GM called (``character`` None): the table's whose-turn and which-round, kept in the
    database so every worker reads the same (rolls.turns.fight).

    The scene's latest row is where the fight stands; a new scene has none, so the turns end
    with their scene. ``after_seq`` is the session's last log entry when the row was made: the
    entries after it happened in this turn (a reaction within a round, Caerbannog). Written
    only through ``rolls.turns.fight``.
    """

    scene = models.ForeignKey("campaigns.Scene", on_delete=models.CASCADE, related_name="turns")
    # Its place among the scene's turns, from 1.
    number = models.PositiveIntegerField()
    round = models.PositiveIntegerField()
    character = models.ForeignKey(
        "sheets.Character", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # An NPC's turn, from the scene's turn order (rolls.turns.order); never with a character.
    npc = models.ForeignKey(
        "sheets.NPC", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    after_seq = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["scene", "number"]
        constraints = [
            models.UniqueConstraint(fields=["scene", "number"], name="one_turn_per_number")
        ]
        verbose_name = _("turn")
        verbose_name_plural = _("turns")

    def __str__(self) -> str:
        return f"round {self.round}, turn {self.number}"


# A rule system's own models live in its package (FastTest's applied wounds), imported from it.
import_each("models")

__all__ = [
    "Combatant",
    "Award",
    "Condition",
    "DiscordBridge",
    "DiscordPost",
    "GroupTest",
    "OpposedTest",
    "PendingTest",
    "RandomTable",
    "SavedTest",
    "Roll",
    "Seal",
    "Strike",
    "Turn",
    "Visibility",
]
