"""Conditions at the table: the GM adds one to a character from the party card (the rules'
own in one click, or typed) and clears it; every member sees a character's conditions beside
the sheet. After a roll the GM's box shows what the player picked from its options and takes
the GM's counter-move, the GM's own pick where the rules leave it to the GM (RULES.md 3.6), and
a pick on an absent player's behalf (``rolls.roll_options``; the player's is on the panel).

GM operations are 404 for anyone else (``gm_campaign``); a character of another table is 404.
Each form works without JavaScript (a redirect to the dashboard with a message); with htmx each
answers with the part it changed. Writes go through ``rolls.conditions`` and
``rolls.roll_options``.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from campaigns.access import gm_campaign
from campaigns.models import Campaign, GameSession
from rolls import roll_options
from rolls.actions import ActionRefused
from rolls.conditions import actions as conditions
from rolls.conditions import in_force
from rolls.conditions.forms import ConditionForm, CounterMoveForm, OptionsForm, PresetForm
from rolls.gm_answers import part_or_dashboard
from rolls.models import Condition, Roll
from sheets.access import member_character
from sheets.models import Character


def card_context(campaign: Campaign, character: Character, **extra) -> dict:
    """What a party card's conditions part shows (rolls/conditions/_card.html)."""
    return {
        "campaign": campaign,
        "character": character,
        "session": GameSession.objects.open_of(campaign.pk),
        "conditions": in_force.active(character),
        "presets": in_force.condition_rules(campaign.rules).presets,
        "has_conditions": bool(in_force.condition_rules(campaign.rules).effects),
        "condition_form": extra.pop("condition_form", None)
        or ConditionForm(system=campaign.rules, auto_id=f"cond-{character.pk}-%s"),
        **extra,
    }


def _card(request, campaign, character, *, status=200, refusal="", form=None) -> HttpResponse:
    return part_or_dashboard(
        request,
        campaign,
        anchor=f"#party-{character.pk}",
        template="rolls/conditions/_card.html",
        context=lambda: card_context(
            campaign,
            character,
            condition_refusal=refusal,
            **({"condition_form": form} if form else {}),
        ),
        status=status,
        refusal=refusal,
    )


@require_POST
@login_required
def add_condition(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    """One of the rules' own (``preset``) or the GM's typed condition, on one character."""
    campaign = gm_campaign(request, campaign_id)
    character = get_object_or_404(Character, pk=pk, campaign=campaign)
    system = campaign.rules
    if not in_force.condition_rules(system).effects:
        return _card(request, campaign, character, status=409,
                     refusal=_("These rules apply no conditions to their tests yet."))  # fmt: skip
    form_class = PresetForm if "preset" in request.POST else ConditionForm
    form = form_class(request.POST, system=system, auto_id=f"cond-{pk}-%s")
    if not form.is_valid():
        refusal = " ".join(m for ms in form.errors.values() for m in ms)
        typed = form if form_class is ConditionForm else None
        return _card(request, campaign, character, status=422, refusal=refusal, form=typed)
    try:
        conditions.add_condition(character=character, actor=request.user, spec=form.spec())
    except ActionRefused as refusal:
        return _card(request, campaign, character, status=409, refusal=str(refusal))
    return _card(request, campaign, character)


@require_POST
@login_required
def clear_condition(request: HttpRequest, campaign_id: int, condition_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    condition = get_object_or_404(
        Condition.objects.select_related("character"),
        pk=condition_id,
        character__campaign=campaign,
    )
    try:
        conditions.clear_condition(condition_id=condition.pk, actor=request.user)
    except ActionRefused as refusal:
        return _card(request, campaign, condition.character, status=409, refusal=str(refusal))
    return _card(request, campaign, condition.character)


@require_GET
@login_required
def character_conditions(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    """A character's conditions beside the sheet: the page refreshes it when they change."""
    character = member_character(request, campaign_id, pk)
    return render(
        request,
        "rolls/conditions/_sheet.html",
        {"campaign": character.campaign, "character": character,
         "conditions": in_force.active(character)},
    )  # fmt: skip


# --- The options after a roll --------------------------------------------------------------------


def options_context(campaign: Campaign, session: GameSession | None, **extra) -> dict:
    """The open session's latest tests whose menu waits for a pick or the GM's counter-move."""
    offers = roll_options.offers(campaign, session)
    return {"campaign": campaign, "session": session, "option_offers": offers, **extra}


def _options_box(request, campaign, *, status=200, refusal="") -> HttpResponse:
    def context():
        session = GameSession.objects.open_of(campaign.pk)
        return options_context(campaign, session, options_refusal=refusal)

    return part_or_dashboard(
        request,
        campaign,
        anchor="#roll-options",
        template="rolls/_roll_options.html",
        context=context,
        status=status,
        refusal=refusal,
    )


def _refusal(form) -> str:
    return " ".join(m for ms in form.errors.values() for m in ms)


def _gm_roll(request: HttpRequest, campaign_id: int, roll_id: int) -> tuple[Campaign, Roll]:
    """A test of a character at the GM's own table, else 404."""
    campaign = gm_campaign(request, campaign_id)
    roll = get_object_or_404(
        Roll.objects.select_related("character", "session"),
        pk=roll_id,
        session__campaign=campaign,
        character__isnull=False,
    )
    return campaign, roll


@require_GET
@login_required
def options_box(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    session = GameSession.objects.open_of(campaign.pk)
    return render(request, "rolls/_roll_options.html", options_context(campaign, session))


@require_POST
@login_required
def choose_options(request: HttpRequest, campaign_id: int, roll_id: int) -> HttpResponse:
    """The GM's pick: the options the rules leave to the GM (a catastrophe's bad options), or a
    player's on their behalf while the player has not picked."""
    campaign, roll = _gm_roll(request, campaign_id, roll_id)
    menu = roll_options.menu_for(roll)
    if menu is None or not menu["options"]:
        return _options_box(request, campaign, status=409,
                            refusal=_("The rules offer no options after this roll."))  # fmt: skip
    form = OptionsForm(request.POST, menu=menu)
    if not form.is_valid():
        return _options_box(request, campaign, status=422, refusal=_refusal(form))
    try:
        roll_options.choose_options(
            roll=roll, actor=request.user, chosen=form.cleaned_data["chosen"],
            own=form.cleaned_data["own"], key=form.cleaned_data["key"],
        )  # fmt: skip
    except ActionRefused as refusal:
        return _options_box(request, campaign, status=409, refusal=str(refusal))
    return _options_box(request, campaign)


@require_POST
@login_required
def counter_move(request: HttpRequest, campaign_id: int, roll_id: int) -> HttpResponse:
    """The GM's own counter-move after a roll, in the GM's words (logged once)."""
    campaign, roll = _gm_roll(request, campaign_id, roll_id)
    form = CounterMoveForm(request.POST)
    if not form.is_valid():
        return _options_box(request, campaign, status=422, refusal=_refusal(form))
    try:
        roll_options.counter_move(
            roll=roll, actor=request.user, text=form.cleaned_data["text"],
            key=form.cleaned_data["key"],
        )  # fmt: skip
    except ActionRefused as refusal:
        return _options_box(request, campaign, status=409, refusal=str(refusal))
    return _options_box(request, campaign)
