"""The GM's side of opposed tests on the dashboard: start one, roll an NPC's side."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.access import gm_campaign, member_campaign
from campaigns.models import GameSession
from campaigns.systems import get_system
from config.text import text_problem
from rolls.actions import ActionRefused
from rolls.dashboard import npc_rolls
from rolls.dashboard.views import _back
from rolls.forms import OpposedStartForm, RollKeyForm, SettleForm
from rolls.models import OpposedTest
from rolls.opposed import actions as opposed_actions
from rolls.opposed import settle
from rolls.opposed.rules import OpposedRules
from sheets.models import NPC, Character


def _side_prefix(post, side: str, pk: int) -> str:
    """The form prefix of one side's part of the form ("a" reads "a-attribute"); the
    dashboard's form names each character's (or NPC's) fields ("a-12-attribute")."""
    own = f"{side}-{pk}"
    return own if any(name.startswith(f"{own}-") for name in post) else side


@require_POST
@login_required
def start_opposed(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    system = get_system(campaign.system)
    rules = system.part(OpposedRules)
    if rules is None:
        return _back(request, campaign, _("The rules of this game have no opposed tests."))
    session = GameSession.objects.open_of(campaign.pk)
    if session is None:
        return _back(request, campaign, _("Start a session before calling for tests."))
    post = request.POST
    # The one text rule before anything is read or written: a NUL in any field (a side's
    # difficulty, a skill) would otherwise reach a test's target or modifiers (PostgreSQL
    # refuses it there with a server error).
    problem = next(
        (text_problem(v) for name in post for v in post.getlist(name) if text_problem(v)), None
    )
    if problem:
        return _back(request, campaign, problem)
    form = OpposedStartForm(post, shared_difficulty=rules.shared_difficulty)
    form.is_valid()
    initiator = Character.objects.filter(
        pk=form.cleaned_data["initiator"], campaign=campaign
    ).first()
    if initiator is None:
        return _back(request, campaign, _("Choose the character who starts the opposed test."))
    a_target, wrong = system.panel.target_from_post(
        post, initiator, campaign, prefix=_side_prefix(post, "a", initiator.pk)
    )
    opponent = npc = None
    b_target, npc_params, npc_sources = {}, None, None
    kind, pk = form.cleaned_data["opponent"]
    if kind == "character":
        opponent = Character.objects.filter(pk=pk, campaign=campaign).first()
    elif kind == "npc":
        npc = NPC.objects.filter(pk=pk, campaign=campaign).first()
    if opponent is None and npc is None:
        return _back(request, campaign, _("Choose the opponent: another character or an NPC."))
    if opponent is not None:
        b_target, b_wrong = system.panel.target_from_post(
            post, opponent, campaign, prefix=_side_prefix(post, "b", opponent.pk)
        )
        wrong += b_wrong
    else:
        npc_form = npc_rolls.read_form(
            campaign.system, post, npc, prefix=_side_prefix(post, "npc", npc.pk)
        )
        wrong += [m for ms in npc_form.errors.values() for m in ms]
        npc_params, npc_sources = npc_form.params, npc_form.sources
    if wrong:
        return _back(request, campaign, " ".join(wrong))
    if "difficulty" in form.errors:
        return _back(request, campaign, form.errors["difficulty"][0])
    difficulty = form.cleaned_data.get("difficulty")
    try:
        opposed_actions.start_opposed(
            session=session,
            gm=request.user,
            initiator=initiator,
            initiator_target=a_target,
            opponent=opponent,
            opponent_target=b_target,
            npc=npc,
            npc_params=npc_params,
            npc_sources=npc_sources,
            difficulty=difficulty,
            npc_initiates=form.cleaned_data.get("npc_initiates", False),
        )
    except ActionRefused as refusal:
        return _back(request, campaign, str(refusal))
    return _back(request, campaign)


@require_POST
@login_required
def roll_npc_side(request: HttpRequest, campaign_id: int, opposed_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    opposed = get_object_or_404(OpposedTest, pk=opposed_id, session__campaign=campaign)
    sent = RollKeyForm(request.POST)
    key = sent.key_or_none() or uuid.uuid4()
    try:
        opposed_actions.roll_npc_side(
            opposed_id=opposed.pk, gm=request.user, key=key, nonce=sent.sent_nonce() or "",
            shape=npc_rolls.at_roll,
        )  # fmt: skip
    except ActionRefused as refusal:
        return _back(request, campaign, str(refusal))
    return _back(request, campaign)


@require_POST
@login_required
def settle_side(request: HttpRequest, campaign_id: int, opposed_id: int) -> HttpResponse:
    """A side of an opposed test settled in turn: its player's (or the GM's) "my result stands".
    Every page follows through the pending tests' announcements; the answer says only whether
    it was refused."""
    campaign = member_campaign(request, campaign_id)
    opposed = get_object_or_404(OpposedTest, pk=opposed_id, session__campaign=campaign)
    sent = SettleForm(request.POST)
    refusal = sent.refusal()
    side = sent.cleaned_data.get("side", "")
    if not refusal:
        try:
            settle.settle_side(
                opposed_id=opposed.pk,
                user=request.user,
                side=side,
                # The declaration's own fields (what it is paid with) are the system's to read.
                declared=request.POST if sent.cleaned_data["declare"] else None,
                key=sent.cleaned_data["key"],
            )
        except ActionRefused as refused:
            refusal = str(refused)
    if request.htmx:
        context = {"refusal": refusal}
        status = 409 if refusal else 200
        return render(request, "rolls/opposed/_settle_answer.html", context, status=status)
    if campaign.is_gm(request.user):
        return _back(request, campaign, refusal)
    if refusal:
        messages.error(request, refusal)
    # Back to the sheet of the side settled; a side that is none, or an NPC's, has no sheet.
    pending = {"a": opposed.initiator, "b": opposed.opponent}.get(side)
    if pending is None or pending.character_id is None:
        return redirect(reverse("campaign_detail", args=[campaign.pk]))
    return redirect(reverse("character_detail", args=[campaign.pk, pending.character_id]))
