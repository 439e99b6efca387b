from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = _("Campaigns")

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from campaigns.live import membership_ended
        from campaigns.models import Membership

        post_delete.connect(membership_ended, sender=Membership, dispatch_uid="membership_ended")
