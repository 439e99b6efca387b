from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = _("Campaigns")

    def ready(self) -> None:
        from django.contrib.auth import get_user_model, user_logged_out
        from django.db.models.signals import post_delete, post_save

        from campaigns.live import account_changed, logged_out, membership_ended
        from campaigns.models import Membership

        post_delete.connect(membership_ended, sender=Membership, dispatch_uid="membership_ended")
        # A login that ends closes the pages it opened (rolls.live.consumers).
        user_logged_out.connect(logged_out, dispatch_uid="logged_out")
        post_save.connect(account_changed, sender=get_user_model(), dispatch_uid="account_changed")
