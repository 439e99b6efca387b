"""The GM applies a Caerbannog test's result from the dashboard (``consequences``): 404 for
anyone but the GM, like every GM operation; a roll of another table is 404 too. Without
JavaScript a redirect to the dashboard with a message; with htmx the box itself."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET, require_POST

from campaigns.access import gm_campaign
from campaigns.models import GameSession
from rolls.actions import ActionRefused
from rolls.gm_answers import part_or_dashboard
from rolls.models import Roll
from rolls.systems.caerbannog import consequences


def _box(request, campaign, *, status=200, refusal="") -> HttpResponse:
    def context():
        session = GameSession.objects.open_of(campaign.pk)
        return consequences.box_context(campaign, session, results_refusal=refusal)

    return part_or_dashboard(
        request,
        campaign,
        anchor="#roll-results",
        template=consequences.TEMPLATE,
        context=context,
        status=status,
        refusal=refusal,
    )


@require_GET
@login_required
def results_box(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    session = GameSession.objects.open_of(campaign.pk)
    return render(request, consequences.TEMPLATE, consequences.box_context(campaign, session))


@require_POST
@login_required
def apply_result(request: HttpRequest, campaign_id: int, roll_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    roll = get_object_or_404(
        Roll.objects.select_related("character", "session"),
        pk=roll_id,
        session__campaign=campaign,
    )
    form = consequences.ApplyForm(request.POST, campaign=campaign)
    if not form.is_valid():
        refusal = " ".join(str(m) for ms in form.errors.values() for m in ms)
        return _box(request, campaign, status=422, refusal=refusal)
    try:
        consequences.apply_result(
            roll=roll, gm=request.user, target=form.target_character(),
            what=form.cleaned_data["apply"],
        )  # fmt: skip
    except ActionRefused as refusal:
        return _box(request, campaign, status=409, refusal=str(refusal))
    return _box(request, campaign)
