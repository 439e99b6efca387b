"""The turn order on the GM's dashboard (set it, "Next turn", "Next round") and the turn bar every
page of the table shows (``rolls/turns/_bar.html``), live on the socket's ``table:turn``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from campaigns.access import gm_campaign, member_campaign
from campaigns.models import Campaign, GameSession
from config.refusals import in_refusal_region
from config.text import TextField
from rolls import limits
from rolls.actions import ActionRefused
from rolls.cues import UNKNOWN
from rolls.engine import dice
from rolls.forms import RollKey
from rolls.gm_answers import dashboard_at
from rolls.tables.quick_dice import refusal_words
from rolls.turns import fight, order
from sheets.models import NPC, Character

BOX = "rolls/turns/_box.html"
#: Combatants one request may roll for: each is an entry of the log, and a battle's twenty NPCs
#: and the party fit (one account rolled 300 a request, flooding every table: issue 37).
ROLLED_AT_ONCE = 40


class NumberOrDice(TextField):
    """A combatant's number: a whole number, or dice to roll for it (``1d10+2``, the quick dice'
    notation), or blank (out of the fight)."""

    def clean(self, value: Any) -> int | dice.Params | None:
        typed = (super().clean(value) or "").strip()
        if not typed:
            return None
        try:
            number = int(typed)
        except ValueError:
            try:
                return dice.parse_expression(typed)
            except dice.ExpressionError as error:
                raise forms.ValidationError(refusal_words(error)) from error
        if not order.LOWEST <= number <= order.HIGHEST:
            raise forms.ValidationError(
                _("A number from %(lowest)s to %(highest)s, or dice to roll (1d10).")
                % {"lowest": order.LOWEST, "highest": order.HIGHEST}
            )
        return number


class OrderForm(forms.Form):
    """A number for each character of the party and each NPC (higher acts first), typed or
    rolled; whoever is left blank stays out of the fight. Only the campaign's own are fields,
    so a forged name is ignored. ``key``: the rolls' idempotency key (a double click rolls
    once)."""

    key = RollKey(required=False)

    def __init__(self, *args, characters=(), npcs=(), **kwargs) -> None:
        kwargs.setdefault("auto_id", "order-%s")
        super().__init__(*args, **kwargs)
        self.combatants: dict[str, Character | NPC] = {}
        for prefix, group in (("character", characters), ("npc", npcs)):
            for who in group:
                name = f"{prefix}-{who.pk}"
                self.combatants[name] = who
                self.fields[name] = NumberOrDice(label=who.name, required=False, max_length=40)

    def _given(self, kind) -> dict:
        return {
            who: self.cleaned_data[name]
            for name, who in self.combatants.items()
            if isinstance(self.cleaned_data.get(name), kind)
        }

    def numbers(self) -> dict[Character | NPC, int]:
        return self._given(int)

    def dice(self) -> dict[Character | NPC, dice.Params]:
        return self._given(dice.Params)


def _combatants(campaign: Campaign) -> tuple[list[Character], list[NPC]]:
    return (
        list(Character.objects.filter(campaign=campaign).order_by("name", "pk")),
        list(NPC.objects.filter(campaign=campaign).order_by("name", "pk")),
    )


def _form(campaign: Campaign, data=None, places=()) -> OrderForm:
    characters, npcs = _combatants(campaign)
    # What the order holds now fills the form in, so setting it again changes only what is typed.
    initial = {place.key: place.initiative for place in places}
    return OrderForm(data, characters=characters, npcs=npcs, initial=initial)


def box_context(campaign: Campaign, session: GameSession | None, **extra: Any) -> dict[str, Any]:
    """The dashboard's "Turn order" box (``rolls/turns/_box.html``)."""
    scene = order.current_scene(campaign.pk) if session is not None else None
    places = order.order_of(scene)
    return {
        "campaign": campaign,
        "session": session,
        "order_scene": scene,
        "order": places,
        "order_fight": fight.current(campaign.pk) if scene is not None else None,
        "order_form": extra.pop("order_form", None) or _form(campaign, places=places),
        **extra,
    }


def bar_context(campaign: Campaign, user, session=UNKNOWN) -> dict[str, Any]:
    """The turn bar (``rolls/turns/_bar.html``): the round, whose turn it is, who comes next;
    "your turn" on a page of the player whose character it is. An NPC the GM has not shown is
    "an NPC" to the players. ``session``, where the page knows it: with none running, nothing
    is asked."""
    asked = session is UNKNOWN or (session is not None and session.is_open)
    now = fight.current(campaign.pk) if asked else None
    places = order.order_of(now.scene_id) if now is not None else []  # the fight's own scene
    mine = (
        set(Character.objects.filter(campaign=campaign, owner=user).values_list("pk", flat=True))
        if now is not None and now.character_id is not None
        else set()
    )
    return {
        "bar_campaign": campaign,
        "bar_fight": now,
        "bar_order": places,
        "bar_is_gm": campaign.gm_id == user.pk,
        "bar_yours": now is not None and now.character_id in mine,
    }


def _answer(request, campaign, session, *, status=200, refusal="", note="", form=None):
    if not request.htmx:
        if refusal:
            messages.error(request, refusal)
        elif note:
            messages.success(request, note)
        return dashboard_at(campaign, "#turn-order")
    extra = {"order_refusal": refusal, "order_note": note}
    if form is not None:
        extra["order_form"] = form
    return render(request, BOX, box_context(campaign, session, **extra), status=status)


def _open_session(campaign: Campaign) -> GameSession:
    session = GameSession.objects.open_of(campaign.pk)
    if session is None:
        raise ActionRefused(_("No game session is running; the GM starts one."))
    return session


@require_POST
@login_required
def set_order(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The order from the numbers typed, and from the dice rolled for the others (each roll an
    entry of the log, for its combatant, seen as that combatant is: a hidden NPC's by the GM
    alone)."""
    campaign = gm_campaign(request, campaign_id)
    if refused := _too_many_dice(request, campaign):
        return refused
    session = GameSession.objects.open_of(campaign.pk)
    form = _form(campaign, request.POST)
    if not form.is_valid():
        refusal = _("Not set: see the marked numbers.")
        return _answer(request, campaign, session, status=422, refusal=refusal, form=form)
    if form.dice() and form.cleaned_data["key"] is None:
        refusal = _("This request is malformed; reload the page and try again.")
        return _answer(request, campaign, session, status=400, refusal=refusal, form=form)
    try:
        places = _set(campaign, request.user, form)
    except ActionRefused as refusal:
        return _answer(request, campaign, session, status=409, refusal=str(refusal), form=form)
    names = ", ".join(f"{place.name} {place.initiative}" for place in places)
    return _answer(request, campaign, session, note=_("The order: %(names)s.") % {"names": names})


def _too_many_dice(request: HttpRequest, campaign: Campaign) -> HttpResponse | None:
    """The refusal of an order giving dice to more combatants than one request may roll for, or
    than its user's budget has entries left for: counted from what was posted (anything typed
    that is no whole number is dice to roll, or refused as neither), before the form reads the
    campaign's combatants and parses each one's dice, so that a flood of such orders costs little
    (it cost 28 ms a request that way)."""
    asked = sum(
        1
        for name, value in request.POST.items()
        if name.startswith(("character-", "npc-")) and value.strip() and not _whole(value)
    )
    if asked > ROLLED_AT_ONCE:
        message = _(
            "Dice can be rolled for at most %(most)s combatants at once (%(asked)s were given "
            "dice); type the others' numbers."
        ) % {"most": ROLLED_AT_ONCE, "asked": asked}
        if not request.htmx:
            return _answer(request, campaign, None, refusal=message)
        return in_refusal_region(message, 422)
    if asked > limits.entries_left(request.user.pk):
        return limits.too_fast(request)  # refused before the first die, rather than rolled back
    return None


def _whole(typed: str) -> bool:
    try:
        int(typed)
    except ValueError:
        return False
    return True


@transaction.atomic
def _set(campaign: Campaign, gm, form: OrderForm) -> list[order.Place]:
    session = _open_session(campaign)
    rolled = order.rolled(session, gm, form.dice(), form.cleaned_data["key"])
    return order.set_order(session, form.numbers() | rolled)


def _move_on(request: HttpRequest, campaign_id: int, step) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    session = GameSession.objects.open_of(campaign.pk)
    try:
        now, granted = _moved(campaign, step)
    except ActionRefused as refusal:
        return _answer(request, campaign, session, status=409, refusal=str(refusal))
    words = {"name": now.name, "round": now.round}
    note = _("Round %(round)s: %(name)s's turn.") % words
    if granted is not None:
        note += " " + _("+%(granted)s Rozmach (%(before)s → %(after)s).") % {
            "granted": granted[0],
            "before": granted[1],
            "after": granted[2],
        }
    return _answer(request, campaign, session, note=note)


@transaction.atomic
def _moved(campaign: Campaign, step):
    """The turn moves on, with what the rules grant at the start of a character's turn
    (``fight.Turns.started``, Caerbannog's Rozmach) in the same transaction."""
    now, place = step(_open_session(campaign))
    rules = campaign.rules.part(fight.Turns)
    granted = None
    if rules is not None and place.character is not None:
        granted = rules.started(place.character, campaign)
    return now, granted


@require_POST
@login_required
def next_turn(request: HttpRequest, campaign_id: int) -> HttpResponse:
    return _move_on(request, campaign_id, order.next_turn)


@require_POST
@login_required
def next_round(request: HttpRequest, campaign_id: int) -> HttpResponse:
    return _move_on(request, campaign_id, order.next_round)


@require_GET
@login_required
def turn_bar(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The bar alone: an open page fetches it again when the turn or the order changes."""
    campaign = member_campaign(request, campaign_id)
    return render(request, "rolls/turns/_bar.html", bar_context(campaign, request.user))
