"""Permission questions about characters: outsiders get 404, no hint that a character exists
(the campaign's own questions are ``campaigns.access``)."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from sheets.models import Character


def member_character(request: HttpRequest, campaign_id: int, pk: int) -> Character:
    """A character of a campaign the user plays in or runs, its campaign loaded, else 404.

    One query (a join through the user's membership) where ``member_campaign`` and a lookup
    would be two: it runs on every roll.
    """
    if not request.user.is_authenticated:
        raise Http404("No such character.")
    return get_object_or_404(
        Character.objects.select_related("campaign"),
        pk=pk,
        campaign_id=campaign_id,
        campaign__memberships__user=request.user,
    )
