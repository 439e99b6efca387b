"""The GM's form for the campaign's Discord webhook."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy

from config.text import TextField
from rolls.discord import webhook


class WebhookForm(forms.Form):
    url = TextField(
        label=gettext_lazy("Webhook URL"),
        max_length=300,
        help_text=gettext_lazy(
            "In Discord: the channel's settings, Integrations, Webhooks, New Webhook, Copy "
            "Webhook URL. Only the GM sees it, and only its start once saved."
        ),
        error_messages={"required": gettext_lazy("Paste the webhook's address from Discord.")},
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "inputmode": "url", "spellcheck": "false"}
        ),
    )
    language = forms.ChoiceField(
        label=gettext_lazy("Language of the posts"), choices=settings.LANGUAGES
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "discord-%s")
        super().__init__(*args, **kwargs)

    def clean_url(self) -> str:
        url = self.cleaned_data["url"]
        try:
            webhook.check(url)
        except webhook.BadWebhook as error:
            raise forms.ValidationError(str(error)) from error
        return url.strip()
