"""The recap's page, its live part and its Markdown export: one reading of the session's entries
the reader may see (``entries_for``), whatever the page."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from campaigns.access import member_campaign
from campaigns.models import GameSession
from rolls.log.reading import entries_for
from rolls.recap import luck, markdown


def _recap(request: HttpRequest, campaign_id: int, session_id: int) -> dict[str, Any]:
    """Everything the recap shows, counted from the entries this reader may see."""
    campaign = member_campaign(request, campaign_id)
    session = get_object_or_404(GameSession, pk=session_id, campaign=campaign)
    is_gm = campaign.is_gm(request.user)
    entries = entries_for(session, request.user, is_gm, newest_first=False)
    everyone = luck.people(entries)
    charts = luck.charts(everyone)
    return {
        "campaign": campaign,
        "session": session,
        "is_gm": is_gm,
        "people": [(person, charts.get(person.actor_id)) for person in everyone],
        "hidden": sum(1 for entry in entries if entry["redacted"]),
        "chart_box": {"width": luck.CHART_WIDTH, "height": luck.CHART_HEIGHT},
        "chart_top": next((chart.top for chart in charts.values()), 1.0),
        **luck.listed(entries),
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
