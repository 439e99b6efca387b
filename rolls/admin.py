from django.contrib import admin

from rolls.models import (
    Award,
    Combatant,
    Condition,
    DiscordBridge,
    DiscordPost,
    GroupTest,
    OpposedTest,
    PendingTest,
    RandomTable,
    Roll,
    SavedTest,
    Seal,
    Strike,
    Turn,
)
from rolls.systems import import_each


class ReadOnlyAdmin(admin.ModelAdmin):
    """What the table's actions alone write (the log and what stands beside it): read here,
    never added, changed or deleted."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ViewAndDeleteAdmin(ReadOnlyAdmin):
    """Read-only, but an admin may delete (a turn, a seal: nothing of the log itself)."""

    has_delete_permission = admin.ModelAdmin.has_delete_permission


@admin.register(Roll)
class RollAdmin(ReadOnlyAdmin):
    """Read-only: log entries are never edited or deleted, not even here."""

    list_display = ["session", "seq", "system", "kind", "actor", "character_name", "visibility"]
    list_filter = ["system", "kind", "visibility"]
    list_select_related = ["session", "actor"]
    search_fields = ["label", "character_name", "actor__username"]


@admin.register(PendingTest)
class PendingTestAdmin(admin.ModelAdmin):
    list_display = ["character", "session", "status", "revision", "updated_at"]
    list_filter = ["status"]
    list_select_related = ["character", "session"]
    readonly_fields = ["revision", "roll"]


# Awards (rolls.dashboard.awards): records of what the GM gave.
@admin.register(Award)
class AwardAdmin(admin.ModelAdmin):
    list_display = ["character_name", "kind", "amount", "reason", "campaign", "created_at"]
    list_filter = ["kind"]
    list_select_related = ["campaign"]
    search_fields = ["character_name", "reason"]
    readonly_fields = ["roll", "session"]


@admin.register(RandomTable)
class RandomTableAdmin(admin.ModelAdmin):
    # Dice and rows are written together through rolls.tables.random_tables (checked by the engine
    # against each other), not edited here: new dice under the old rows would leave totals
    # no row covers.
    list_display = ["name", "dice", "purpose", "campaign", "updated_at"]
    list_select_related = ["campaign"]
    search_fields = ["name"]
    readonly_fields = ["dice", "rows"]


# Opposed tests (rolls.opposed): their sides and result are written by the actions, read here.
@admin.register(OpposedTest)
class OpposedTestAdmin(admin.ModelAdmin):
    list_display = ["__str__", "session", "status", "npc_name", "created_at"]
    list_filter = ["status"]
    list_select_related = ["session"]
    readonly_fields = ["initiator", "opponent", "npc", "npc_roll", "result", "started_by"]


# Group tests (rolls.group): gathered and rolled through the actions, read here.
@admin.register(GroupTest)
class GroupTestAdmin(admin.ModelAdmin):
    list_display = ["__str__", "session", "status", "revision", "created_at"]
    list_filter = ["status"]
    list_select_related = ["session"]
    readonly_fields = ["members", "result", "started_by"]


# Conditions (rolls.conditions): every adding and clearing is an entry of the session's log, so
# they are written only through the actions and read here.
@admin.register(Condition)
class ConditionAdmin(ReadOnlyAdmin):
    list_display = ["name", "character", "effect", "amount", "scope", "lasts", "created_at"]
    list_filter = ["effect", "lasts"]
    list_select_related = ["character"]
    search_fields = ["name", "character__name"]
    readonly_fields = [
        "character", "source", "session", "scene", "added_entry", "cleared_entry", "added_by",
    ]  # fmt: skip


# Turns and rounds (rolls.turns.fight) and the scenes' turn orders (rolls.turns.order): written
# only through their actions, read here.
@admin.register(Turn)
class TurnAdmin(ViewAndDeleteAdmin):
    list_display = ["scene", "number", "round", "character", "npc", "after_seq", "created_at"]
    list_select_related = ["scene", "character", "npc"]
    readonly_fields = ["scene", "number", "round", "character", "npc", "after_seq"]


@admin.register(Combatant)
class CombatantAdmin(ViewAndDeleteAdmin):
    list_display = ["scene", "place", "character", "npc", "initiative"]
    list_select_related = ["scene", "character", "npc"]
    readonly_fields = ["scene", "place", "character", "npc", "initiative"]


# Seals (rolls.opposed: an opposed test's opponent's roll until the initiator settles): set and
# broken only by the actions, read here.
@admin.register(SavedTest)
class SavedTestAdmin(admin.ModelAdmin):
    list_display = ["name", "character", "created_at"]
    list_select_related = ["character"]
    readonly_fields = ["character", "choices"]


@admin.register(Strike)
class StrikeAdmin(ReadOnlyAdmin):
    """Read-only: a strike is part of the log, which nothing edits."""

    list_display = ["roll", "by_name", "reason", "created_at"]
    list_select_related = ["roll"]
    readonly_fields = ["roll", "entry", "entry_seq", "by", "by_name", "reason"]


@admin.register(Seal)
class SealAdmin(ViewAndDeleteAdmin):
    list_display = ["roll", "revealed_at", "created_at"]
    list_select_related = ["roll"]
    readonly_fields = ["roll", "viewers", "revealed_at"]


# The Discord bridge (rolls.discord): its state and outbox, read; its webhook's token never shown.
@admin.register(DiscordBridge)
class DiscordBridgeAdmin(ViewAndDeleteAdmin):
    list_display = ["campaign", "active", "gone", "last_delivered_at", "failing_since"]
    list_select_related = ["campaign"]
    exclude = ["webhook_url"]


@admin.register(DiscordPost)
class DiscordPostAdmin(ReadOnlyAdmin):
    list_display = ["bridge", "kind", "roll", "sent_at", "dropped", "created_at"]
    list_filter = ["kind"]


# A rule system's own models have their admin in its package (FastTest's applied wounds).
import_each("admin")
