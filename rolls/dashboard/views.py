"""The GM's dashboard: the party live, the pending tests being shaped, NPCs at hand, the log."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from campaigns.access import gm_campaign
from campaigns.models import GameSession
from campaigns.systems import get_system
from config.text import text_problem
from rolls.actions import ActionRefused
from rolls.conditions import in_force as conditions_in_force
from rolls.conditions import views as condition_views
from rolls.conditions.forms import ConditionForm
from rolls.dashboard import awards, gm_readings
from rolls.dashboard.party import vitals
from rolls.dashboard.system_boxes import box_context
from rolls.discord.models import DiscordBridge
from rolls.forms import CallTestForm, ChangeTypedForm, RollKeyForm
from rolls.live.presence import log_context
from rolls.log.payload import roll_payload
from rolls.models import PendingTest
from rolls.opposed.readers_views import dashboard_view as opposed_view
from rolls.opposed.rules import OpposedRules
from rolls.opposed.rules import rules_of as opposed_rules_of
from rolls.panels import gm_follow_ups_after, gm_follow_ups_of, gm_limits
from rolls.pending import actions as pending_actions
from rolls.strikes.views import box_context as strike_box_context
from rolls.tables.views import box_context as tables_context  # the tables box, as it shows
from rolls.turns import fight as turns
from rolls.turns.views import box_context as order_box_context
from sheets import actions as sheet_actions
from sheets.models import NPC, Character
from sheets.npc_forms import QuickNPCForm


def open_session(campaign) -> GameSession | None:
    session = GameSession.objects.open_of(campaign.pk)
    if session is not None:
        session.campaign = campaign  # its name shows the campaign's: no query for it
    return session


def _party(campaign) -> list[dict[str, Any]]:
    characters = Character.objects.filter(campaign=campaign).select_related("owner")
    return [{"character": c, "vitals": vitals(c, campaign.system)} for c in characters]


def _sides(campaign) -> list[dict[str, Any]]:
    """The characters that may take a side in an opposed test, each with its call fields."""
    system = get_system(campaign.system)
    if system.part(OpposedRules) is None:
        return []
    return [
        {"character": c, "target_fields": system.panel.target_fields(c, campaign)}
        for c in Character.objects.filter(campaign=campaign)
    ]


def _pending_cards(campaign, session) -> list[dict[str, Any]]:
    """Each character's latest called test of the session: open (being shaped), or rolled (its
    entry stays on the card until the GM calls the next test for that character)."""
    if session is None:
        return []
    tests = (
        PendingTest.objects.filter(
            session=session, status__in=[PendingTest.Status.OPEN, PendingTest.Status.ROLLED]
        )
        .select_related("character", "roll__actor", "roll__parent", "roll__seal", "roll__strike")
        .order_by("-created_at", "-pk")
    )
    latest: dict[int, PendingTest] = {}
    for test in tests:
        latest.setdefault(test.character_id, test)
    return [_card(campaign, test) for test in sorted(latest.values(), key=lambda t: t.created_at)]


def _card(campaign, test: PendingTest) -> dict[str, Any]:
    """One called test as the GM sees it: built from the player's current choices (the draft)
    with the GM's modifiers, so its odds are the ones the player will roll; once rolled, the
    entry."""
    system = get_system(campaign.system)
    if test.status == PendingTest.Status.ROLLED:
        card = {"test": test, "rolled": roll_payload(test.roll)}
        if gm_follow_ups_of(system) is not None:
            # What followed the roll (a re-roll, a die read instead) is where the test stands
            # now, and what the GM may do next is done to that entry.
            latest = pending_actions.latest_entry(test.roll)
            card["latest"] = roll_payload(latest) if latest.pk != test.roll_id else None
            card["gm_follow_ups"] = gm_follow_ups_after(system, latest, test.character, campaign)
        return card
    panel = pending_actions.card_panel(system, campaign, test)
    return {
        "test": test,
        "panel": panel,
        "limits": gm_limits(system.panel, panel, test),
        "controls": system.gm_controls,
        "npc": test.modifiers.get("npc"),
        "combat": pending_actions.is_combat(test.modifiers),
        "dice": list(enumerate(test.modifiers.get("dice", []))),
    }


# --- One context function per part: each reads only what its part shows ----------------------


def meta_context(campaign, session) -> dict[str, Any]:
    """The head line: the session, its latest scene (and its challenge points)."""
    scene = session.scenes.order_by("-number").first() if session else None
    return {"campaign": campaign, "session": session, "scene": scene}


def party_context(campaign, session) -> dict[str, Any]:
    """The party grid: each character's vitals, the call form's fields and the card's tools."""
    system = get_system(campaign.system)
    party = _party(campaign)
    in_force = conditions_in_force.active_in(campaign)
    for member in party:
        member["target_fields"] = system.panel.target_fields(member["character"], campaign)
        member["conditions"] = in_force.get(member["character"].pk, [])
        member["condition_form"] = ConditionForm(
            system=system, auto_id=f"cond-{member['character'].pk}-%s"
        )
    return {
        "campaign": campaign,
        "session": session,
        "party": party,
        **turns_context(campaign, session),
        "marks_combat": "combat" in system.gm_controls,
        # The party card's conditions part (rolls/conditions/_card.html).
        "presets": conditions_in_force.condition_rules(system).presets,
        "has_conditions": bool(conditions_in_force.condition_rules(system).effects),
    }


def turns_context(campaign, session) -> dict[str, Any]:
    """The fight's round and whose turn it is, where the rules keep turns
    (``rolls.turns.fight``)."""
    keeps = turns.keeps_turns(get_system(campaign.system))
    return {
        "keeps_turns": keeps,
        "fight": turns.current(campaign.pk) if keeps and session is not None else None,
    }


def _fold_rolled(cards: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The cards shown open (every open test, and the latest roll) and the rolled cards before
    it, newest first: those stay until their character's next test and would pile up."""
    rolled = sorted((c for c in cards if "rolled" in c), key=lambda c: -c["test"].roll.seq)
    earlier = rolled[1:]
    folded = {id(card) for card in earlier}
    return [c for c in cards if id(c) not in folded], earlier


def pending_context(campaign, session) -> dict[str, Any]:
    """The tests being shaped, the opposed tests, and the NPCs a card can take traits from."""
    cards, earlier_rolled = _fold_rolled(_pending_cards(campaign, session))
    return {
        "campaign": campaign,
        "session": session,
        "cards": cards,
        "earlier_rolled": earlier_rolled,
        "opposed_tests": opposed_view(session),
        "opposed_rules": opposed_rules_of(campaign.system),
        # Who may take a side in an opposed test, with what each may test: this part's own, so
        # its refresh lists them as the full page does.
        "opposed_party": _sides(campaign),
        "npcs": list(NPC.objects.filter(campaign=campaign)),
    }


def after_roll_context(campaign, session) -> dict[str, Any]:
    """The system's box of what the GM applies after each of the latest tests (FastTest's)."""
    own = box_context(campaign.rules, "after_roll", campaign, session)
    return {"campaign": campaign, "session": session, **own}


def gm_readings_context(campaign, session) -> dict[str, Any]:
    """The GM's box of the latest free rolls the rules let the GM act on (AST: hindered)."""
    on = gm_follow_ups_of(get_system(campaign.system)) is not None
    items = gm_readings.box(campaign, session) if on else []
    return {
        "campaign": campaign, "session": session, "gm_follow_ups_on": on,
        "gm_reading_items": items,
    }  # fmt: skip


def gm_box_context(campaign, session) -> dict[str, Any]:
    """The system's box of results the GM applies from the latest entries (Caerbannog's)."""
    own = box_context(campaign.rules, "results", campaign, session)
    return {"campaign": campaign, "session": session, **own}


def npc_box_context(campaign, session) -> dict[str, Any]:
    """The system's box of the GM's NPCs together, in "NPCs at hand" (Caerbannog's)."""
    own = box_context(campaign.rules, "npcs", campaign, session)
    return {"campaign": campaign, "session": session, **own}


def awards_context(campaign, **forms) -> dict[str, Any]:
    """The awards box: its two forms (the posted ones when they came back with errors)."""
    characters = list(Character.objects.filter(campaign=campaign).only("pk", "name"))
    box = {
        "keeps_xp": awards.keeps_xp(campaign),
        "dice_on": awards.experience_dice_on(campaign),
        "xp_form": forms.get("xp_form")
        or awards.XPForm(characters=characters, rules=campaign.rules),
        "die_form": forms.get("die_form") or awards.ExperienceDieForm(characters=characters),
        "recent": awards.recent_awards(campaign),
        "note": forms.get("awards_note", ""),
    }
    return {"campaign": campaign, "awards_box": box}


def _dashboard_context(request, campaign, **forms) -> dict[str, Any]:
    """The whole dashboard: every part's context (the posted forms, if any, in their parts)."""
    session = open_session(campaign)
    return {
        **meta_context(campaign, session),
        **party_context(campaign, session),
        **pending_part_context(request, campaign, session),
        **after_roll_context(campaign, session),
        **gm_readings_context(campaign, session),
        **condition_views.options_context(campaign, session),
        **gm_box_context(campaign, session),
        **npc_box_context(campaign, session),
        **awards_context(campaign, **forms),
        **tables_context(campaign, session),
        **strike_box_context(campaign, session),
        **order_box_context(campaign, session),
        **log_context(campaign, request.user, session),
        "cues_session": session,  # the group cue's (rolls.cues)
    }


@require_GET
@login_required
def dashboard(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    context = _dashboard_context(request, campaign)
    # A bridge Discord stopped (its webhook deleted) is told where the GM looks during a game.
    context["discord_stopped"] = DiscordBridge.objects.filter(campaign=campaign, gone=True).first()
    return render(request, "rolls/dashboard/page.html", context)


@require_GET
@login_required
def dashboard_meta(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The head line alone: it follows a new scene, the session, the challenge points."""
    campaign = gm_campaign(request, campaign_id)
    context = meta_context(campaign, open_session(campaign))
    return render(request, "rolls/dashboard/_meta.html", context)


@require_GET
@login_required
def dashboard_party(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The party grid alone: the dashboard refreshes it when a sheet or a roll changes it."""
    campaign = gm_campaign(request, campaign_id)
    context = party_context(campaign, open_session(campaign))
    return render(request, "rolls/dashboard/_party.html", context)


@require_GET
@login_required
def dashboard_pending(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    context = pending_part_context(request, campaign, open_session(campaign))
    return render(request, "rolls/pending/_list.html", context)


# The latest refusal of a GM's action on the dashboard is state, kept in the GM's session: every
# refresh and a reload show it (with the number that was refused) until the GM's next action
# succeeds or the card it is about changes.
_REFUSAL = "dashboard-refusal-{}"


def _remember_refusal(request, campaign, message: str, card: int | None) -> None:
    key = _REFUSAL.format(campaign.pk)
    if not message:
        request.session.pop(key, None)
        return
    test = PendingTest.objects.filter(pk=card).only("revision", "status").first()
    request.session[key] = {
        "message": message,
        "card": card,
        "state": [test.revision, test.status] if test else None,
        "typed": ChangeTypedForm(request.POST).typed() if card is not None else None,
    }


def refusal_context(request, cards) -> dict[str, Any]:
    """The remembered refusal, while the card it is about is as it was refused."""
    kept = request.session.get(_REFUSAL.format(cards["campaign"].pk))
    if not kept:
        return {}
    if kept["card"] is not None:
        every = cards["cards"] + cards["earlier_rolled"]
        shown = {c["test"].pk: [c["test"].revision, c["test"].status] for c in every}
        if shown.get(kept["card"]) != kept["state"]:
            return {}
    folded = {c["test"].pk for c in cards["earlier_rolled"]}
    return {
        "refusal": kept["message"],
        "refused": kept["card"],
        "typed": kept["typed"],
        # A refusal on a folded card is shown where the GM acted: its fold stays open.
        "refused_folded": kept["card"] in folded,
    }


def pending_part_context(request, campaign, session) -> dict[str, Any]:
    """The tests being shaped as this GM sees them: with their refusal, if one stands."""
    context = pending_context(campaign, session)
    return context | refusal_context(request, context)


def _back(request, campaign, message: str = "", card: int | None = None) -> HttpResponse:
    """After a GM action: the pending list for htmx (a refusal shown on the ``card`` it is
    about, the refused number kept in its field), the dashboard otherwise (the refusal as a
    message, back at that card)."""
    _remember_refusal(request, campaign, message, card)
    if request.htmx:
        context = pending_part_context(request, campaign, open_session(campaign))
        return render(request, "rolls/pending/_list.html", context)
    if message:
        messages.error(request, message)
    anchor = f"#pending-{card}" if card is not None and message else "#pending-tests"
    return redirect(reverse("dashboard", args=[campaign.pk]) + anchor)


@require_POST
@login_required
def call_test(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    character = get_object_or_404(Character, pk=pk, campaign=campaign)
    session = open_session(campaign)
    if session is None:
        return _back(request, campaign, _("Start a session before calling for tests."))
    panel = get_system(campaign.system).panel
    # What is tested is matched against the sheet; text that could not be stored never gets
    # that far, whatever the system's form reads.
    if problem := next(filter(None, map(text_problem, _values(request.POST))), None):
        return _back(request, campaign, problem)
    target, wrong = panel.target_from_post(request.POST, character, campaign)
    if wrong:
        return _back(request, campaign, " ".join(wrong))
    combat = (
        CallTestForm(request.POST).is_combat()
        and "combat" in get_system(campaign.system).gm_controls
    )
    try:
        pending_actions.call_test(
            session=session, character=character, gm=request.user, target=target, combat=combat
        )
    except ActionRefused as refusal:
        return _back(request, campaign, str(refusal))
    return _back(request, campaign)


def _values(post) -> list[str]:
    return [value for key in post for value in post.getlist(key)]


@require_POST
@login_required
def change_test(request: HttpRequest, campaign_id: int, pending_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    test = get_object_or_404(PendingTest, pk=pending_id, session__campaign=campaign)
    # The operation's own form reads the rest of the POST (rolls.pending.forms).
    op = ChangeTypedForm(request.POST).typed()["op"]
    try:
        pending_actions.change_test(test.pk, request.user, op, data=request.POST)
    except ActionRefused as refusal:
        return _back(request, campaign, str(refusal), card=test.pk)
    return _back(request, campaign)


@require_POST
@login_required
def follow_rolled_test(
    request: HttpRequest, campaign_id: int, pending_id: int, kind: str
) -> HttpResponse:
    """What the rules let the GM do after a called test was rolled, from its card."""
    campaign = gm_campaign(request, campaign_id)
    test = get_object_or_404(PendingTest, pk=pending_id, session__campaign=campaign)
    sent = RollKeyForm(request.POST)
    key = sent.key_or_none()
    if key is None:
        return _back(request, campaign, _("This request is malformed."), card=test.pk)
    try:
        pending_actions.follow_rolled_test(
            pending_id=test.pk, gm=request.user, kind=kind, choices=request.POST, key=key,
            nonce=sent.sent_nonce(),
        )  # fmt: skip
    except ActionRefused as refusal:
        return _back(request, campaign, str(refusal), card=test.pk)
    return _back(request, campaign)


@require_POST
@login_required
def cancel_test(request: HttpRequest, campaign_id: int, pending_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    test = get_object_or_404(PendingTest, pk=pending_id, session__campaign=campaign)
    pending_actions.cancel_test(test.pk, request.user)
    return _back(request, campaign)


@require_POST
@login_required
def quick_npc(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Quick entry of NPCs from the dashboard, reading the line like the NPC page does."""
    campaign = gm_campaign(request, campaign_id)
    form = QuickNPCForm(request.POST)
    if form.is_valid():
        created = sheet_actions.create_npcs(campaign, form.cleaned_data["text"])
        messages.success(request, ", ".join(npc.name for npc in created))
    else:
        for error in form.errors.get("text", []):
            messages.error(request, error)
    return redirect(reverse("dashboard", args=[campaign.pk]) + "#npc-hand-title")
