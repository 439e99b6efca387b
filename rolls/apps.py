from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class RollsConfig(AppConfig):
    name = "rolls"
    verbose_name = _("Rolls")

    def ready(self) -> None:
        from rolls.actions import session_ended
        from rolls.live_sheets import character_saved
        from rolls.pending import call_off_waiting
        from rolls.systems import register_all
        from sheets.models import Character

        # Each package in rolls/systems registers its system in campaigns.systems' registry.
        register_all()
        post_save.connect(character_saved, sender=Character, dispatch_uid="live-sheets")
        session_ended.connect(call_off_waiting, dispatch_uid="call-off-waiting-tests")

        # A new campaign starts with the tables its rules bring (T10's option lists), editable.
        from campaigns.models import Campaign
        from rolls.random_tables import campaign_created

        post_save.connect(campaign_created, sender=Campaign, dispatch_uid="default-tables")
