"""FastTest's own GM tools on the dashboard: the after-roll strip (``strip``) and what the GM
does from it (the combat wound, ``wounds``; the magic die after a spell, ``magic_die``; an
experience die after a failed test, ``rolls.dashboard.awards``), and a night's rest from a party
card (``rest``). GM-only (404 for anyone else), and a roll of another system or table is 404
too. Each form works without JavaScript (a redirect to the dashboard with a message); with htmx
each answers with the part it changed (the strip, the card) and tells the page when a sheet
changed so the party refreshes. Their URLs are FastTest's ``System.urls`` (``urls``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from campaigns.access import Request, gm_campaign
from campaigns.models import Campaign
from rolls.actions import ActionRefused
from rolls.dashboard import awards
from rolls.dashboard.gm_views import SHEET_CHANGED, card_part
from rolls.dashboard.views import after_roll_context, open_session
from rolls.engine.fasttest_combat import WEAPON_CLASSES
from rolls.forms import RollKeyForm
from rolls.gm_answers import dashboard_at, part_or_dashboard, sent_key
from rolls.models import Roll
from rolls.systems.fasttest import is_ours, rest
from rolls.systems.fasttest.gm_forms import WoundForm
from rolls.systems.fasttest.magic_die import roll_magic_die_after
from rolls.systems.fasttest.wounds import apply_combat_wound
from sheets.models import Character

# --- After the roll -----------------------------------------------------------------------------


def _strip(request, campaign, *, status=200, refusal="", changed=False) -> HttpResponse:
    """The after-roll strip for htmx; the dashboard (with a message) otherwise."""
    response = part_or_dashboard(
        request,
        campaign,
        anchor="#after-roll",
        template="rolls/dashboard/_after_roll.html",
        context=lambda: (
            after_roll_context(campaign, open_session(campaign)) | {"after_roll_refusal": refusal}
        ),
        status=status,
        refusal=refusal,
    )
    if changed and request.htmx:
        trigger_client_event(response, SHEET_CHANGED)
    return response


def _fasttest_roll(campaign: Campaign, roll_id: int) -> Roll:
    """A test of a character in a system with the after-roll tools (FastTest), else 404."""
    if not is_ours(campaign.system):
        raise Http404("No such roll.")
    return get_object_or_404(
        Roll.objects.select_related("session", "character"),
        pk=roll_id,
        session__campaign=campaign,
        system=campaign.system,
        kind="test",
        character__isnull=False,
    )


@require_GET
@login_required
def after_roll_strip(request: Request, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    context = after_roll_context(campaign, open_session(campaign))
    return render(request, "rolls/dashboard/_after_roll.html", context)


@require_POST
@login_required
def apply_wound(request: Request, campaign_id: int, roll_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    roll = _fasttest_roll(campaign, roll_id)
    form = WoundForm(request.POST, WEAPON_CLASSES)
    if not form.is_valid():
        return _strip(request, campaign, status=400, refusal=form.refusal())
    try:
        applied = apply_combat_wound(roll=roll, gm=request.user, **form.cleaned_data)
    except ActionRefused as refusal:
        return _strip(request, campaign, status=409, refusal=str(refusal))
    if not request.htmx:
        messages.success(request, _("Wound applied (#%(seq)s).") % {"seq": roll.seq})
    return _strip(request, campaign, changed=applied.target == applied.Target.PLAYER)


@require_POST
@login_required
def magic_die(request: Request, campaign_id: int, roll_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    parent = _fasttest_roll(campaign, roll_id)
    key = sent_key(request)
    if key is None:
        return _strip(request, campaign, status=400, refusal=_("This request is malformed."))
    try:
        roll_magic_die_after(
            parent=parent, campaign=campaign, actor=request.user, key=key,
            nonce=RollKeyForm(request.POST).sent_nonce(),
        )  # fmt: skip
    except ActionRefused as refusal:
        return _strip(request, campaign, status=409, refusal=str(refusal))
    return _strip(request, campaign, changed=True)


@require_POST
@login_required
def roll_experience_die(request: Request, campaign_id: int, roll_id: int) -> HttpResponse:
    """An experience die for a failed important test, from the after-roll strip."""
    campaign = gm_campaign(request, campaign_id)
    roll = _fasttest_roll(campaign, roll_id)
    assert roll.character_id is not None  # a character's test (_fasttest_roll)
    try:
        awards.give_experience_die(
            campaign=campaign, gm=request.user, character_id=roll.character_id, roll_id=roll.pk
        )
    except ActionRefused as refusal:
        return _strip(request, campaign, status=409, refusal=str(refusal))
    return _strip(request, campaign, changed=True)


# --- A character's card: a night's rest ---------------------------------------------------------


@require_POST
@login_required
def night_rest(request: Request, campaign_id: int, pk: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    character = get_object_or_404(Character, pk=pk, campaign=campaign)
    try:
        before, after = rest.night_rest(character, campaign)
    except ActionRefused as refusal:
        if not request.htmx:
            messages.error(request, str(refusal))
            return dashboard_at(campaign, f"#party-{pk}")
        return card_part(request, campaign, pk, status=409, refusal=str(refusal))
    if not request.htmx:
        messages.success(
            request,
            _("%(name)s rests: the magic die is now d%(die)s.")
            % {"name": character.name, "die": after},
        )
        return dashboard_at(campaign, f"#party-{pk}")
    return card_part(request, campaign, pk, changed=True)
