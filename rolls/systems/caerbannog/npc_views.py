"""The GM boosts an NPC's test from the dashboard's box of the NPCs' Rozmach (``npc_rozmach``):
404 for anyone but the GM, like every GM operation; a roll of another table is refused. Without
JavaScript a redirect to the dashboard with a message; with htmx the box itself."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from campaigns.access import gm_campaign
from campaigns.models import GameSession
from rolls.actions import ActionRefused
from rolls.forms import RollKeyForm
from rolls.gm_answers import part_or_dashboard, sent_key
from rolls.systems.caerbannog import npc_rozmach

#: One sentence for every way the bonus can be wrong.
BONUS_WRONG = gettext_lazy("Give the NPC's category bonus, a whole number from 1 to 10.")


class BoostForm(forms.Form):
    """The category bonus the GM gives the NPC's boost."""

    bonus = forms.IntegerField(
        min_value=1,
        max_value=npc_rozmach.BONUS_MAX,
        error_messages={
            wrong: BONUS_WRONG for wrong in ("required", "invalid", "min_value", "max_value")
        },
    )


def _box(request, campaign, *, status=200, refusal="", bonus="") -> HttpResponse:
    def context():
        session = GameSession.objects.open_of(campaign.pk)
        return npc_rozmach.box_context(campaign, session, refusal=refusal, bonus=bonus)

    return part_or_dashboard(
        request,
        campaign,
        anchor="#npc-box",
        template=npc_rozmach.TEMPLATE,
        context=context,
        status=status,
        refusal=refusal,
    )


@require_POST
@login_required
def npc_boost(request: HttpRequest, campaign_id: int, roll_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    form = BoostForm(request.POST)
    key = sent_key(request)
    typed = str(request.POST.get("bonus", ""))[:3]
    if key is None:
        refusal = _("This request is malformed; reload the page and try again.")
        return _box(request, campaign, status=400, refusal=refusal, bonus=typed)
    if not form.is_valid():
        refusal = " ".join(str(m) for ms in form.errors.values() for m in ms)
        return _box(request, campaign, status=422, refusal=refusal, bonus=typed)
    try:
        npc_rozmach.boost(
            campaign=campaign, roll_id=roll_id, gm=request.user,
            bonus=form.cleaned_data["bonus"], key=key,
            nonce=RollKeyForm(request.POST).sent_nonce(),
        )  # fmt: skip
    except ActionRefused as refusal:
        return _box(request, campaign, status=409, refusal=str(refusal), bonus=typed)
    return _box(request, campaign)
