from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class RollsConfig(AppConfig):
    name = "rolls"
    verbose_name = _("Rolls")

    def ready(self) -> None:
        from campaigns.sessions import session_ended
        from rolls.actions import reveal_at_end
        from rolls.live.sheets import character_saved
        from rolls.opposed import actions as opposed
        from rolls.panels.sheet_page import beside_sheet
        from rolls.pending import actions as pending
        from rolls.pending.actions import call_off_waiting
        from rolls.systems import register_all
        from sheets import page_context
        from sheets.models import Character

        # Each package in rolls/systems registers its system in campaigns.systems' registry.
        register_all()
        # The names of the rules' own conditions, in each reader's language, in the log.
        from rolls.conditions import actions as conditions
        from rolls.conditions import in_force

        in_force.register_preset_words()
        post_save.connect(character_saved, sender=Character, dispatch_uid="live-sheets")
        # The sheet page shows the table's log and the test the GM has called for.
        page_context.register("rolls", beside_sheet)
        session_ended.connect(call_off_waiting, dispatch_uid="call-off-waiting-tests")
        # What was sealed until someone settled is shown once nobody can settle any more.
        session_ended.connect(reveal_at_end, dispatch_uid="reveal-sealed-at-end")
        # An opposed test is two pending tests: it follows what happens to its sides.
        pending.pending_called_off.connect(opposed.side_called_off, dispatch_uid="opposed-off")
        pending.before_pending_roll.connect(opposed.sealed_side, dispatch_uid="opposed-sealed")
        pending.after_pending_roll.connect(opposed.side_rolled, dispatch_uid="opposed-side-rolled")
        pending.pending_shaped.connect(opposed.side_shaped, dispatch_uid="opposed-side-shaped")

        # A new campaign starts with the tables its rules bring (T10's option lists), editable.
        from campaigns.models import Campaign
        from rolls.tables.random_tables import campaign_created, register_purpose_words

        post_save.connect(campaign_created, sender=Campaign, dispatch_uid="default-tables")
        # What a table rolled after a roll was for, in each reader's language, in the log.
        register_purpose_words()
        # The occasions an award was given on, kept as its reason, in each reader's language.
        from rolls.dashboard.awards import register_occasion_words

        register_occasion_words()

        # What ends a condition by itself: its scene's end, its session's end (rolls.conditions).
        from campaigns.sessions import scene_opened, session_ending
        from rolls.conditions import in_force

        scene_opened.connect(conditions.scene_started, dispatch_uid="conditions-scene-end")
        session_ending.connect(conditions.session_ending, dispatch_uid="conditions-session-end")

        # The session's start and end are posted to the group's Discord channel, if it has a
        # bridge; its end after what it reveals (connected above).
        from campaigns.sessions import scene_started
        from rolls.discord import outbox

        scene_started.connect(outbox.session_started, dispatch_uid="discord-session-started")
        session_ended.connect(outbox.session_ended, dispatch_uid="discord-session-ended")
