"""The recap's page, its live part and its Markdown export: the figures of the session's entries
the reader may see, whatever the page, kept per reader as the log grows (``running``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from campaigns.access import member_campaign
from campaigns.models import GameSession
from rolls.recap import luck, markdown, running


def _recap(request: HttpRequest, campaign_id: int, session_id: int) -> dict[str, Any]:
    """Everything the recap shows, counted from the entries this reader may see."""
    campaign = member_campaign(request, campaign_id)
    session = get_object_or_404(GameSession, pk=session_id, campaign=campaign)
    is_gm = campaign.is_gm(request.user)
    recap = running.recap_for(session, request.user.pk, is_gm)
    return {
        "campaign": campaign,
        "session": session,
        "is_gm": is_gm,
        "people": [(person, recap.charts.get(person.actor_id)) for person in recap.people],
        "hidden": recap.hidden,
        "chart_box": {"width": luck.CHART_WIDTH, "height": luck.CHART_HEIGHT},
        "chart_top": next((chart.top for chart in recap.charts.values()), 1.0),
        **recap.listed,
    }


@require_GET
@login_required
def recap_page(request: HttpRequest, campaign_id: int, session_id: int) -> HttpResponse:
    return render(request, "rolls/recap/page.html", _recap(request, campaign_id, session_id))


@require_GET
@login_required
def recap_part(request: HttpRequest, campaign_id: int, session_id: int) -> HttpResponse:
    """The recap alone: a page of a running session refreshes it on each new entry."""
    return render(request, "rolls/recap/_recap.html", _recap(request, campaign_id, session_id))


@require_GET
@login_required
def recap_export(request: HttpRequest, campaign_id: int, session_id: int) -> HttpResponse:
    recap = _recap(request, campaign_id, session_id)
    campaign, session = recap["campaign"], recap["session"]
    body = markdown.as_markdown(recap)
    response = HttpResponse(body, content_type="text/markdown; charset=utf-8")
    name = slugify(f"{campaign.name}-{session.pk}-recap") or f"session-{session.pk}-recap"
    response["Content-Disposition"] = f'attachment; filename="{name}.md"'
    return response
