"""The test panel on a sheet: open it from a stat, watch the odds, roll."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from campaigns.access import Request
from campaigns.real_dice import may_type_dice
from campaigns.systems import get_system
from rolls import actions, real_dice, roll_options
from rolls.conditions import actions as conditions
from rolls.conditions.forms import OptionsForm
from rolls.engine.note import NOTE_KINDS
from rolls.log.reading import may_see
from rolls.models import PendingTest, Roll
from rolls.opposed.actions import initiator_only as opposed_initiator_only
from rolls.opposed.settle import settle_refusal as opposed_settle_refusal
from rolls.panels import FollowUps, posted, with_target
from rolls.panels.panel_view import (
    PanelView,
    latest_call,
    opened,
    panel_on_load,
    pending_for,
    visibilities,
)
from rolls.panels.requests import (
    MALFORMED,
    REAL_DICE_REFUSED,
    FollowUpRequest,
    RollRequest,
    ShownRequest,
    asked_for,
)
from rolls.pending import actions as pending_actions
from sheets.access import member_character


def character_to_roll(request: HttpRequest, campaign_id: int, pk: int):
    """The character if the user may roll for it (its owner or the GM), else 404."""
    character = member_character(request, campaign_id, pk)
    campaign = character.campaign
    if character.owner_id != request.user.pk and not campaign.is_gm(request.user):
        raise Http404("No such test panel.")
    return campaign, character


@require_http_methods(["GET", "POST"])
@login_required
def test_panel(request: Request, campaign_id: int, pk: int) -> HttpResponse:
    campaign, character = character_to_roll(request, campaign_id, pk)
    choices: QueryDict = request.POST if request.method == "POST" else request.GET
    if request.headers.get("X-Panel-Refresh") == "1":
        return _refreshed(request, campaign, character, choices)
    pending = pending_for(character, choices)
    if pending is not None and character.owner_id == request.user.pk:
        if request.method == "POST":
            # The player changed a choice: the GM's card follows it.
            pending_actions.save_draft(pending, choices, campaign.gm_id)
        elif set(choices) <= {"pending"} and pending.draft:
            # The panel opened again (a GM change, a reload): the player's choices stay.
            choices = posted({**pending.draft, "pending": [str(pending.pk)]})
    if pending is None and request.method == "POST":
        return PanelView(request, campaign, character).response(
            choices, rolled=_shown(choices, character)
        )
    return PanelView(request, campaign, character).response(choices)


def _refreshed(request, campaign, character, choices) -> HttpResponse:
    """The panel as the table stands now, for the page's refresh after a table event
    (static/js/panel.js): a call that arrived, or the one shown called off or rolled; else the
    same choices on the sheet as it is now (not a refusal of a condition a roll just ended),
    with the result shown, or what has since followed it (the GM read another die)."""
    choices = conditions.without_ended(choices, character)
    asked = asked_for(choices, "pending")
    view = PanelView(request, campaign, character)
    if view.session is None and asked is not None:
        # The session of the call shown has ended: the panel as a page opens it now.
        return HttpResponse(panel_on_load(view))
    called = latest_call(character) if view.session is not None else None
    if called is not None and called.pk != asked:
        return view.response(opened(called))
    was = None
    if asked is not None and called is None:
        was = PendingTest.objects.filter(pk=asked, character=character).first()
    if was is not None and was.status == PendingTest.Status.CANCELLED:
        return view.response(posted({"called_off": [str(was.pk)]}))
    if was is not None and was.roll_id is not None:
        return view.response(with_target(choices, was.target), rolled=_standing(was.roll))
    if "key" not in choices:
        # No test opened yet: the panel as a page opens it (a stat click fills an idle slot).
        return HttpResponse(panel_on_load(view))
    return view.response(choices, rolled=_shown(choices, character))


def _shown(choices, character) -> Roll | None:
    """The result the panel showed (``shown``), where it stands now: it stays through the
    player's changes and the page's refreshes until a new test or roll replaces it."""
    shown = ShownRequest(posted(choices))
    roll_id = shown.cleaned_data.get("shown") if shown.is_valid() else None
    roll = Roll.objects.filter(pk=roll_id, character=character).first() if roll_id else None
    return _standing(roll)


def _standing(roll: Roll | None) -> Roll | None:
    """Where a shown result stands now: the last dice rolled after it (a note that follows it,
    a condition the roll ended, is the log's: the result stays)."""
    if roll is None:
        return None
    after = roll.follow_ups.exclude(kind__in=NOTE_KINDS).order_by("-seq")
    while (later := after.first()) is not None:
        roll, after = later, later.follow_ups.exclude(kind__in=NOTE_KINDS).order_by("-seq")
    return roll


@require_POST
@login_required
def test_roll(request: Request, campaign_id: int, pk: int) -> HttpResponse:
    """Roll what the panel shows. A repeated key answers with the first roll, never a second."""
    campaign, character = character_to_roll(request, campaign_id, pk)
    choices = request.POST
    view = PanelView(request, campaign, character)

    def refuse(status: int, message: str = "") -> HttpResponse:
        return view.response(choices, status=status, refusal=message)

    asked = RollRequest(choices, visibilities(campaign, request.user))
    for name in ("key", "visibility"):
        if name in asked.errors:
            return refuse(400, str(asked.errors[name][0]))
    key, visibility, nonce = (asked.cleaned_data[name] for name in ("key", "visibility", "nonce"))
    session = view.session
    if session is None:
        return refuse(409, _("No game session is running; the GM starts one."))
    typed = real_dice.typed_text(choices) if real_dice.asked(choices) else None
    if typed is not None and not may_type_dice(campaign, request.user):
        return refuse(403, str(REAL_DICE_REFUSED))
    if "pending" in asked.errors or asked.cleaned_data.get("pending") is not None:
        return _roll_pending(view, choices, asked, refuse, typed)
    panel = get_system(campaign.system).panel.build(character, campaign, choices)
    if panel.ready and panel.parent is not None:
        if typed is not None:
            return refuse(409, _("Real dice cannot be typed for this roll; roll it here."))
        return _roll_as_follow_up(view, choices, panel, asked, refuse)
    try:
        if not panel.ready:
            # Refused only once no roll is found under this key (below): a re-sent roll may
            # have spent what the panel needs. The panel shows what is wrong at its fields;
            # with nothing chosen there is none.
            raise actions.ActionRefused(
                "" if panel.errors else _("Choose what to test on the sheet first.")
            )
        roll, _created = actions.roll_from_panel(
            session=session,
            actor=request.user,
            character=character,
            panel=panel,
            key=key,
            visibility=visibility,
            nonce=nonce,
            typed=None if typed is None else real_dice.faces(panel, typed),
        )
    except actions.ActionRefused as refusal:
        # A request sent again after its answer was lost: the roll it made is the answer (the
        # sheet it spent from may no longer allow the same choices). Looked up only here, so a
        # first roll costs no extra query.
        made = Roll.objects.filter(
            session=session, idempotency_key=key, character=character, actor=request.user
        ).first()
        if made is None:
            return refuse(409 if panel.ready else 422, str(refusal))
        return view.response(choices, rolled=made)
    if typed is not None:
        # The whole panel again, its dice's boxes empty for the next roll's faces.
        return view.response(real_dice.without_faces(choices), rolled=roll)
    if panel.spend or panel.on_result is not None:
        # The roll changed the sheet (left on ``character``): the whole panel again.
        return view.response(choices, rolled=roll)
    if request.htmx:
        return _roll_answer(view, roll)
    return view.response(choices, rolled=roll, panel=panel)


def _roll_as_follow_up(view: PanelView, choices, panel, roll_request, refuse) -> HttpResponse:
    """A panel opened from the sheet that follows an earlier roll (the magic die after a
    spell): rolled as that roll's follow-up, built again under the session's lock."""
    request, campaign, character = view.request, view.campaign, view.character

    def build():
        again = get_system(campaign.system).panel.build(character, campaign, choices)
        if not again.ready or again.parent is None or again.parent.pk != panel.parent.pk:
            raise actions.ActionRefused(_("That can no longer be done with this roll."))
        return again

    try:
        roll, _created = actions.roll_follow_up(
            parent=panel.parent, actor=request.user, character=character, kind=panel.kind,
            build=build, key=roll_request.cleaned_data["key"],
            nonce=roll_request.cleaned_data["nonce"],
        )  # fmt: skip
    except actions.ActionRefused as refusal:
        return refuse(409, str(refusal))
    character.refresh_from_db()
    return view.response({}, rolled=roll)


def _roll_answer(view: PanelView, roll: Roll) -> HttpResponse:
    """Only the rolled entry, what may follow it and a fresh key: the rest of the panel is
    what the player rolled from, so it is not rendered (or its odds computed) again."""
    context = {
        "campaign": view.campaign,
        "character": view.character,
        "key": uuid.uuid4(),
        **view.rolled_context(roll),
    }
    response = render(view.request, "rolls/panels/_roll_answer.html", context)
    return reswap(retarget(response, "#test-panel-rolled"), "innerHTML")


def _roll_pending(view: PanelView, choices, roll_request, refuse, typed) -> HttpResponse:
    """Roll a test the GM called for, at exactly the revision the player was shown."""
    request, character = view.request, view.character
    asked = roll_request.cleaned_data
    pending_id, revision = asked.get("pending"), asked.get("revision")
    if pending_id is None or revision is None:
        return refuse(400, str(MALFORMED))
    if not PendingTest.objects.filter(pk=pending_id, character=character).exists():
        raise Http404("No such pending test.")
    try:
        roll, _created = pending_actions.roll_pending(
            pending_id=pending_id, revision=revision, actor=request.user, choices=choices,
            key=asked["key"], visibility=asked["visibility"], nonce=asked["nonce"],
            typed=typed,
        )  # fmt: skip
    except actions.ActionRefused as refusal:
        return refuse(409, str(refusal))
    character.refresh_from_db()
    # The panel stays on the test just rolled (its target was fixed, so it was not posted).
    target = PendingTest.objects.get(pk=pending_id).target
    return view.response(with_target(choices, target), rolled=roll)


@require_POST
@login_required
def test_follow_up(
    request: Request, campaign_id: int, pk: int, roll_id: int, kind: str
) -> HttpResponse:
    """Something the rules allow after a roll, logged as its own entry linked to that roll."""
    campaign, character = character_to_roll(request, campaign_id, pk)
    parent = get_object_or_404(
        Roll.objects.select_related("session", "actor"), pk=roll_id, character=character
    )
    # Before any other check: a refusal would otherwise answer with the roll it refers to.
    if not may_see(parent, request.user, campaign.is_gm(request.user)):
        raise Http404("No such roll.")
    system = get_system(campaign.system)
    choices = request.POST

    def refuse(status: int, message: str) -> HttpResponse:
        return PanelView(request, campaign, character).response(
            {}, status=status, refusal=message, rolled=parent
        )

    asked = FollowUpRequest(choices)
    if not asked.is_valid():
        return refuse(400, str(asked.errors["key"][0]))

    follow_ups = system.part(FollowUps)
    if follow_ups is None or follow_ups.offered is None or follow_ups.build is None:
        return refuse(409, _("Nothing can follow a roll in this system."))
    offered_now, build_panel = follow_ups.offered, follow_ups.build

    def build():
        offered = {f.kind for f in offered_now(parent, character, campaign)}
        if kind not in offered:
            raise actions.ActionRefused(_("That can no longer be done with this roll."))
        if opposed_initiator_only(parent, kind):
            raise actions.ActionRefused(_("Only the initiator of an opposed test may do that."))
        if refusal := opposed_settle_refusal(parent):
            raise actions.ActionRefused(refusal)
        panel = build_panel(kind, parent, character, campaign, choices)
        if not panel.ready:
            messages = [m for field_messages in panel.errors.values() for m in field_messages]
            raise actions.ActionRefused(" ".join(messages))
        return panel

    try:
        roll, _created = actions.roll_follow_up(
            parent=parent, actor=request.user, character=character, kind=kind, build=build,
            key=asked.cleaned_data["key"], nonce=asked.cleaned_data["nonce"],
        )  # fmt: skip
    except actions.ActionRefused as refusal:
        return refuse(409, str(refusal))
    character.refresh_from_db()
    return PanelView(request, campaign, character).response({}, rolled=roll)


@require_POST
@login_required
def test_options(request: Request, campaign_id: int, pk: int, roll_id: int) -> HttpResponse:
    """The options picked after a roll, on the roller's panel (RULES.md 3.6): its player's pick,
    or the GM's (where the rules leave it to the GM, or on an absent player's behalf); logged
    once as the entry that follows the roll. Another player or an outsider gets 404."""
    campaign, character = character_to_roll(request, campaign_id, pk)
    roll = get_object_or_404(
        Roll.objects.select_related("session", "actor"), pk=roll_id, character=character
    )
    if not may_see(roll, request.user, campaign.is_gm(request.user)):
        raise Http404("No such roll.")

    def answer(status: int = 200, refusal: str = "") -> HttpResponse:
        if not request.htmx:
            # Without JavaScript: back to the sheet, the refusal (or the pick) said there.
            if refusal:
                messages.error(request, refusal)
            else:
                messages.success(request, _("Your pick is in the log."))
            return redirect("character_detail", campaign.pk, character.pk)
        return PanelView(request, campaign, character).response(
            {}, status=status, rolled=roll, options_refusal=refusal
        )

    menu = roll_options.menu_for(roll)
    if menu is None or not menu["options"]:
        return answer(409, _("The rules offer no options after this roll."))
    form = OptionsForm(request.POST, menu=menu)
    if not form.is_valid():
        return answer(422, " ".join(str(m) for ms in form.errors.values() for m in ms))
    try:
        roll_options.choose_options(
            roll=roll, actor=request.user, chosen=form.cleaned_data["chosen"],
            own=form.cleaned_data["own"], key=form.cleaned_data["key"],
        )  # fmt: skip
    except actions.ActionRefused as refusal:
        return answer(409, str(refusal))
    character.refresh_from_db()
    return answer()
