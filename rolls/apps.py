from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class RollsConfig(AppConfig):
    name = "rolls"
    verbose_name = _("Rolls")

    def ready(self) -> None:
        from rolls.live_sheets import character_saved
        from sheets.models import Character

        post_save.connect(character_saved, sender=Character, dispatch_uid="live-sheets")
