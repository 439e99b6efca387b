"""One helper per permission question. Outsiders get 404: no hint that a campaign exists."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from campaigns.models import Campaign

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django_htmx.middleware import HtmxDetails


class Request(HttpRequest):
    """A request as a view behind ``login_required`` gets it: a user's, never anonymous, with
    django-htmx's ``htmx`` (its middleware). A type for the checker; at run time, Django's."""

    user: User
    htmx: HtmxDetails


def member_campaign(request: HttpRequest, campaign_id: int) -> Campaign:
    """The campaign if the user plays in it or runs it, else 404."""
    return get_object_or_404(
        Campaign.objects.for_member(request.user).select_related("gm").distinct(),
        pk=campaign_id,
    )


def gm_campaign(request: HttpRequest, campaign_id: int) -> Campaign:
    """The campaign if the user is its GM, else 404: for players GM pages do not exist."""
    campaign = member_campaign(request, campaign_id)
    if not campaign.is_gm(request.user):
        raise Http404("No such page.")
    return campaign
