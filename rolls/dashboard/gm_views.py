"""The GM's tools on the dashboard: the choices after a free roll, awards, a character's card
(turns, the experience die) and an NPC's own test. GM-only (404 for anyone else); writes go
through ``rolls.dashboard.awards``, ``rolls.turns.fight`` and ``rolls.dashboard.npc_rolls``.
A system's own tools (FastTest's after-roll strip and night's rest) are the system's views,
among its ``System.urls``; they answer with ``card_part`` and ``SHEET_CHANGED`` from here.

Each form works without JavaScript (a redirect to the dashboard, or the dashboard again with
the typed values kept); with htmx each answers with the partial it changed, and tells the page
(``trigger_client_event``: ``table:sheet``) when a sheet changed so the party refreshes.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from campaigns.access import gm_campaign
from campaigns.models import Campaign
from campaigns.real_dice import OFF as REAL_DICE_OFF
from campaigns.real_dice import real_dice as real_dice_mode
from rolls import real_dice
from rolls.actions import ActionRefused
from rolls.dashboard import awards, gm_readings, npc_rolls
from rolls.dashboard.views import (
    _dashboard_context,
    awards_context,
    gm_readings_context,
    open_session,
    turns_context,
)
from rolls.forms import CardPartForm, RollKeyForm
from rolls.gm_answers import dashboard_at, part_or_dashboard, sent_key
from rolls.log.reading import entry_for
from rolls.panels.requests import REAL_DICE_REFUSED
from rolls.turns import fight as turns
from sheets.models import NPC, Character

#: The event that makes the dashboard refresh the party (see static/js/dashboard.js).
SHEET_CHANGED = "table:sheet"


def _whole_dashboard(request, campaign, extra: dict[str, Any], status: int) -> HttpResponse:
    """Without JavaScript, an invalid form comes back inside the whole dashboard, values kept."""
    context = _dashboard_context(request, campaign, **extra) | extra
    return render(request, "rolls/dashboard/page.html", context, status=status)


# --- The GM's choices after a free roll (AST: the white die of a hindered test) ---------------


def _readings(request, campaign, *, status=200, refusal="") -> HttpResponse:
    """The box of the latest free rolls for htmx; the dashboard (with a message) otherwise."""
    return part_or_dashboard(
        request,
        campaign,
        anchor="#gm-readings",
        template="rolls/dashboard/_gm_readings.html",
        context=lambda: (
            gm_readings_context(campaign, open_session(campaign)) | {"gm_reading_refusal": refusal}
        ),
        status=status,
        refusal=refusal,
    )


@require_GET
@login_required
def gm_readings_box(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    return render(
        request,
        "rolls/dashboard/_gm_readings.html",
        gm_readings_context(campaign, open_session(campaign)),
    )


@require_POST
@login_required
def follow_free_roll(
    request: HttpRequest, campaign_id: int, roll_id: int, kind: str
) -> HttpResponse:
    """What the rules let the GM do after a player's free roll, from the dashboard's box."""
    campaign = gm_campaign(request, campaign_id)
    key = sent_key(request)
    if key is None:
        return _readings(request, campaign, status=400, refusal=_("This request is malformed."))
    try:
        gm_readings.follow_free_roll(
            campaign=campaign, roll_id=roll_id, gm=request.user, kind=kind, choices=request.POST,
            key=key, nonce=RollKeyForm(request.POST).sent_nonce(),
        )  # fmt: skip
    except ActionRefused as refusal:
        return _readings(request, campaign, status=409, refusal=str(refusal))
    return _readings(request, campaign)


# --- Awards -------------------------------------------------------------------------------------


def _characters(campaign: Campaign) -> list[Character]:
    return list(Character.objects.filter(campaign=campaign).only("pk", "name", "campaign_id"))


def _awards(request, campaign, *, status=200, changed=False, **forms) -> HttpResponse:
    context = awards_context(campaign, **forms) | forms
    response = render(request, "rolls/dashboard/_awards.html", context, status=status)
    if changed:
        trigger_client_event(response, SHEET_CHANGED)
    return response


@require_GET
@login_required
def awards_panel(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    return _awards(request, campaign)


@require_POST
@login_required
def award_xp(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    form = awards.XPForm(request.POST, characters=_characters(campaign), rules=campaign.rules)
    if form.is_valid():
        try:
            given = awards.give_xp(
                campaign=campaign,
                gm=request.user,
                amount=form.cleaned_data["amount"],
                reason=form.cleaned_data["reason"],
                character_id=form.character_id(),
            )
        except ActionRefused as refusal:
            form.add_error(None, str(refusal))
        else:
            names = ", ".join(award.character_name for award in given)
            note = _("+%(xp)s XP: %(names)s") % {"xp": form.cleaned_data["amount"], "names": names}
            if not request.htmx:
                messages.success(request, note)
                return dashboard_at(campaign, "#awards")
            return _awards(request, campaign, changed=True, awards_note=note)
    if not request.htmx:
        return _whole_dashboard(request, campaign, {"xp_form": form}, status=422)
    return _awards(request, campaign, status=422, xp_form=form)


@require_POST
@login_required
def award_experience_die(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """An experience die from the awards box, or from a character's card (``part=card``)."""
    campaign = gm_campaign(request, campaign_id)
    form = awards.ExperienceDieForm(request.POST, characters=_characters(campaign))
    part = CardPartForm(request.POST)
    card = part.from_card()
    if form.is_valid():
        try:
            given = awards.give_experience_die(
                campaign=campaign,
                gm=request.user,
                character_id=int(form.cleaned_data["character"]),
                reason=form.cleaned_data["reason"],
            )
        except ActionRefused as refusal:
            form.add_error(None, str(refusal))
        else:
            note = _("+1 experience die: %(name)s") % {"name": given.character_name}
            if not request.htmx:
                messages.success(request, note)
                return dashboard_at(campaign, f"#party-{given.character_id}" if card else "#awards")
            if card:
                return card_part(request, campaign, given.character_id, changed=True)
            return _awards(request, campaign, changed=True, awards_note=note)
    if card:
        message = " ".join(m for ms in form.errors.values() for m in ms)
        pk = part.character_id()
        if request.htmx and pk is not None:
            return card_part(request, campaign, pk, status=409, refusal=message)
        messages.error(request, message)
        return dashboard_at(campaign, "#party")
    if not request.htmx:
        return _whole_dashboard(request, campaign, {"die_form": form}, status=422)
    return _awards(request, campaign, status=422, die_form=form)


# --- A character's card ------------------------------------------------------------------------


def card_part(
    request, campaign, pk: int, *, status=200, refusal="", changed=False, note=""
) -> HttpResponse:
    """A party card's tools, after one of them was used (a system's own card tool too)."""
    character = get_object_or_404(Character, pk=pk, campaign=campaign)
    context = {
        "campaign": campaign,
        "session": open_session(campaign),
        "character": character,
        "card_refusal": refusal,
        "card_note": note,
    }
    response = render(request, "rolls/dashboard/_card_tools.html", context, status=status)
    if changed:
        trigger_client_event(response, SHEET_CHANGED)
    return response


@require_POST
@login_required
def turn_start(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    """A character's combat turn starts: marked in the current scene (``rolls.turns.fight``),
    with what the rules grant then (``Turns.started``), in one transaction."""
    campaign = gm_campaign(request, campaign_id)
    character = get_object_or_404(Character, pk=pk, campaign=campaign)
    try:
        fight, turn = _turn_started(campaign, character)
    except ActionRefused as refusal:
        if not request.htmx:
            messages.error(request, str(refusal))
            return dashboard_at(campaign, f"#party-{pk}")
        return card_part(request, campaign, pk, status=409, refusal=str(refusal))
    words = {"name": character.name, "round": fight.round}
    if turn is None:
        note = _("%(name)s's turn (round %(round)s).") % words
    else:
        granted, before, after = turn
        note = _(
            "%(name)s's turn (round %(round)s): +%(granted)s Rozmach (%(before)s → %(after)s)."
        ) % {**words, "granted": granted, "before": before, "after": after}
    if not request.htmx:
        messages.success(request, note)
        return dashboard_at(campaign, f"#party-{pk}")
    return card_part(request, campaign, pk, changed=turn is not None, note=note)


@transaction.atomic
def _turn_started(campaign: Campaign, character: Character):
    rules = campaign.rules.part(turns.Turns)
    if rules is None:
        raise ActionRefused(_("These rules grant nothing at the start of a turn."))
    session = open_session(campaign)
    if session is None:
        raise ActionRefused(_("No game session is running; the GM starts one."))
    fight = turns.start_turn(session, character)
    return fight, rules.started(character, campaign)


@require_POST
@login_required
def new_round(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The GM starts the next round of the current scene's fight (``rolls.turns.fight``)."""
    campaign = gm_campaign(request, campaign_id)
    session = open_session(campaign)
    try:
        if not turns.keeps_turns(campaign.rules):
            raise ActionRefused(_("These rules keep no turns or rounds."))
        if session is None:
            raise ActionRefused(_("No game session is running; the GM starts one."))
        fight = turns.new_round(session)
    except ActionRefused as refusal:
        if not request.htmx:
            messages.error(request, str(refusal))
            return dashboard_at(campaign, "#turns")
        return _turns(request, campaign, session, status=409, refusal=str(refusal))
    if not request.htmx:
        messages.success(request, _("Round %(round)s starts.") % {"round": fight.round})
        return dashboard_at(campaign, "#turns")
    return _turns(request, campaign, session)


def _turns(request, campaign, session, *, status=200, refusal="") -> HttpResponse:
    context = turns_context(campaign, session) | {"turn_refusal": refusal}
    return render(request, "rolls/dashboard/_turns.html", context, status=status)


# --- An NPC's own test --------------------------------------------------------------------------


@require_GET
@login_required
def npc_roll_box(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    """An NPC's test form alone: the dashboard refreshes it when a session starts or ends, and
    with the GM's choices as typed (a change in the form) it answers their exact odds."""
    campaign = gm_campaign(request, campaign_id)
    npc = get_object_or_404(NPC, pk=pk, campaign=campaign)
    context = {"campaign": campaign, "session": open_session(campaign), "npc": npc}
    if request.GET:
        form = npc_rolls.read_form(campaign.system, request.GET, npc, campaign=campaign)
        context["npc_roll"] = _npc_state(campaign, npc, form, request.GET)
    return render(request, "rolls/dashboard/_npc_roll.html", context)


def _npc_state(campaign, npc, form, choices) -> dict[str, Any]:
    """An NPC's test form as posted, with the boxes of the real dice it rolls where the GM has
    allowed real dice (rolls.real_dice)."""
    allowed = real_dice_mode(campaign) != REAL_DICE_OFF
    shown = real_dice.panel_context(form, choices, allowed)["real_dice"]
    if shown is not None:
        shown["prefix"] = f"npc-{npc.pk}-"  # each NPC's boxes their own ids on the dashboard
    return {"npc_id": npc.pk, "form": form, "real_dice": shown}


@require_POST
@login_required
def npc_roll(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    npc = get_object_or_404(NPC, pk=pk, campaign=campaign)
    form = npc_rolls.read_form(campaign.system, request.POST, npc, campaign=campaign)
    state = _npc_state(campaign, npc, form, request.POST)
    typed = real_dice.typed_text(request.POST) if real_dice.asked(request.POST) else None
    key = sent_key(request)
    status = 200
    if typed is not None and real_dice_mode(campaign) == REAL_DICE_OFF:
        form.errors.setdefault("", []).append(str(REAL_DICE_REFUSED))
        status = 403
    elif key is None:
        form.errors.setdefault("", []).append(_("This request is malformed; reload the page."))
        status = 400
    elif not form.ready:
        status = 422
    else:
        try:
            roll, _created = npc_rolls.roll_npc_test(
                campaign=campaign, npc=npc, gm=request.user, form=form, key=key,
                nonce=RollKeyForm(request.POST).sent_nonce(), typed=typed,
            )  # fmt: skip
        except ActionRefused as refusal:
            form.errors.setdefault("", []).append(str(refusal))
            status = 409
        else:
            if not request.htmx:
                messages.success(request, _("Rolled for %(name)s (#%(seq)s).") % {
                    "name": npc.name, "seq": roll.seq,
                })  # fmt: skip
                return dashboard_at(campaign, f"#npc-roll-{npc.pk}")
            state["rolled"] = entry_for(roll, request.user, campaign.is_gm(request.user))
            if typed is not None:  # the boxes empty for the next roll's faces
                state = _npc_state(campaign, npc, form, real_dice.without_faces(request.POST)) | {
                    "rolled": state["rolled"]
                }
    if not request.htmx:
        return _whole_dashboard(request, campaign, {"npc_roll": state}, status=status)
    context = {
        "campaign": campaign,
        "session": open_session(campaign),
        "npc": npc,
        "npc_roll": state,
    }
    return render(request, "rolls/dashboard/_npc_roll.html", context, status=status)
