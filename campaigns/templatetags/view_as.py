"""``{% view_as_url campaign player session %}``: where the GM's "View as" opens the read-only
view of ``player``'s table (campaigns/view_as.py): the running session's table page, as the
player sees it, or the campaign's page between sessions."""

from __future__ import annotations

from django import template
from django.urls import reverse

from campaigns.view_as import view_path

register = template.Library()


@register.simple_tag
def view_as_url(campaign, player, session=None) -> str:
    if session is not None and session.is_open:
        page = reverse("session_detail", args=[campaign.pk, session.pk])
    else:
        page = reverse("campaign_detail", args=[campaign.pk])
    return view_path(campaign, player, page)
