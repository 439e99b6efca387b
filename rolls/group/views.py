"""The group test screen (rolls.group): gather helpers, roll each one's dice, boost, settle.

Every page of the table shows the same group test and fetches it again when the table's socket
says it changed (``table:group``); every action answers with the section as it now stands, a
refusal said in it.
"""

from __future__ import annotations

import uuid

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from campaigns.access import member_campaign
from campaigns.models import GameSession
from config.text import TextField, text_problem
from rolls import cues
from rolls.actions import ActionRefused
from rolls.forms import RollKeyForm
from rolls.group import actions, offers
from rolls.group import screen as group_screen
from rolls.live.presence import log_context
from rolls.models import GroupTest
from sheets.models import Character


class GroupForm(forms.Form):
    """Every field a group action may send; each action reads the ones it needs."""

    # Bounded like the database's keys: a number past them is refused here, never queried.
    revision = forms.IntegerField(required=False, min_value=1, max_value=2**31 - 1)
    character = forms.IntegerField(required=False, min_value=1, max_value=2**31 - 1)
    skill = TextField(required=False, max_length=120)
    difficulty = forms.IntegerField(required=False, min_value=0, max_value=30)
    ease = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=0, choices=[("-1", "-1"), ("0", "0"), ("1", "1")]
    )
    boost = forms.BooleanField(required=False)
    dice = forms.TypedMultipleChoiceField(
        required=False, coerce=int, choices=[(str(i), str(i)) for i in range(12)]
    )
    ability = TextField(required=False, max_length=60)
    cost = forms.IntegerField(required=False, min_value=0, max_value=10)
    heroic = TextField(required=False, max_length=40)
    #: An offered helper, taken in ("accept") or not ("decline").
    answer = TextField(required=False, max_length=10)
    #: The screen's one choice of a character and their skill: "<character>|<skill>".
    pick = TextField(required=False, max_length=140)

    def clean(self):
        data = super().clean()
        pick = data.get("pick") or ""
        if pick:
            character, _bar, skill = pick.partition("|")
            if not character.isdigit() or len(character) > 9:
                raise forms.ValidationError(_("Choose a character and what they test with."))
            data["character"], data["skill"] = int(character), skill
        return data

    def problem(self) -> str:
        if self.is_valid():
            return ""
        return " ".join(m for messages in self.errors.values() for m in messages)


def _session(campaign) -> GameSession | None:
    return GameSession.objects.open_of(campaign.pk)


def _context(request, campaign, refusal: str = "") -> dict:
    session = _session(campaign)
    shown = group_screen.view(actions.current(session), request.user, campaign)
    return shown | {"campaign": campaign, "session": session, "refusal": refusal}


def _answer(request, campaign, refusal: str = "") -> HttpResponse:
    if request.htmx:
        return render(request, "rolls/group/_section.html", _context(request, campaign, refusal))
    if refusal:
        messages.error(request, refusal)
    return redirect(reverse("group_test", args=[campaign.pk]))


def _campaign_with_rules(request, campaign_id: int):
    campaign = member_campaign(request, campaign_id)
    if actions.rules_of(campaign.system) is None:
        raise Http404("No group tests in these rules.")
    return campaign


@require_GET
@login_required
def group_page(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = _campaign_with_rules(request, campaign_id)
    context = _context(request, campaign)
    # The table's log beside the test: each participant's dice land in it as they are rolled.
    context |= log_context(campaign, request.user, context["session"])
    return render(request, "rolls/group/page.html", context | {"cues_session": context["session"]})


@require_GET
@login_required
def group_section(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = _campaign_with_rules(request, campaign_id)
    return render(request, "rolls/group/_section.html", _context(request, campaign))


def _read(request) -> tuple[dict, str]:
    post = request.POST
    problem = next(
        (text_problem(v) for name in post for v in post.getlist(name) if text_problem(v)), None
    )
    if problem:
        return {}, problem
    form = GroupForm(post)
    return (form.cleaned_data if form.is_valid() else {}), form.problem()


def _character(campaign, pk) -> Character | None:
    return Character.objects.filter(pk=pk, campaign=campaign).first() if pk else None


def _group_of(campaign, group_id: int) -> GroupTest:
    found = GroupTest.objects.filter(pk=group_id, session__campaign=campaign).first()
    if found is None:
        raise Http404("No such group test.")
    return found


def _act(request, campaign_id: int, do) -> HttpResponse:
    campaign = _campaign_with_rules(request, campaign_id)
    data, problem = _read(request)
    if problem:
        return _answer(request, campaign, problem)
    try:
        do(campaign, data)
    except ActionRefused as refusal:
        return _answer(request, campaign, str(refusal))
    return _answer(request, campaign)


def _key(request) -> tuple[uuid.UUID, str]:
    """The key and dice nonce a roll sent; a missing key gets a fresh one (the roll is made),
    where a GM's tool refuses it (``rolls.gm_answers.sent_key``): a rule of its own."""
    sent = RollKeyForm(request.POST)
    return sent.key_or_none() or uuid.uuid4(), sent.sent_nonce() or ""


@require_POST
@login_required
def group_start(request: HttpRequest, campaign_id: int) -> HttpResponse:
    def do(campaign, data):
        session = _session(campaign)
        if session is None:
            raise ActionRefused(_("Start a session before calling for tests."))
        if data.get("difficulty") is None:
            raise ActionRefused(_("Give the difficulty of the group test."))
        actions.start_group(
            session=session,
            user=request.user,
            initiator=_character(campaign, data.get("character")),
            skill=data.get("skill") or "",
            difficulty=data["difficulty"],
            ease=data.get("ease") or 0,
        )

    return _act(request, campaign_id, do)


def _picked(request, campaign_id: int, group_id: int, action) -> HttpResponse:
    """``action`` on the character and skill the screen's one choice named (``pick``)."""

    def do(campaign, data):
        # A character of another table is no character of this one (refused, not looked up).
        character = Character.objects.filter(pk=data.get("character") or 0).first()
        action(
            group_id=_group_of(campaign, group_id).pk,
            user=request.user,
            revision=data.get("revision"),
            character=character,
            skill=data.get("skill") or "",
        )

    return _act(request, campaign_id, do)


def _on_member(request, campaign_id: int, group_id: int, action) -> HttpResponse:
    """``action`` on the participant (or offered helper) the form names (``character``)."""

    def do(campaign, data):
        action(
            group_id=_group_of(campaign, group_id).pk,
            user=request.user,
            revision=data.get("revision"),
            character_pk=data.get("character") or 0,
        )

    return _act(request, campaign_id, do)


@require_POST
@login_required
def group_add(request: HttpRequest, campaign_id: int, group_id: int) -> HttpResponse:
    return _picked(request, campaign_id, group_id, actions.add_helper)


@require_POST
@login_required
def group_offer(request: HttpRequest, campaign_id: int, group_id: int) -> HttpResponse:
    """A player offers their character as a helper (``rolls.group.offers``)."""
    return _picked(request, campaign_id, group_id, offers.offer_help)


@require_POST
@login_required
def group_answer(request: HttpRequest, campaign_id: int, group_id: int) -> HttpResponse:
    """Those who gather take an offered helper in, or decline the offer."""

    def do(campaign, data):
        if data.get("answer") not in ("accept", "decline"):
            raise ActionRefused(_("Accept the offer or decline it."))
        offers.answer_offer(
            group_id=_group_of(campaign, group_id).pk,
            user=request.user,
            revision=data.get("revision"),
            character_pk=data.get("character") or 0,
            accept=data["answer"] == "accept",
        )

    return _act(request, campaign_id, do)


@require_POST
@login_required
def group_withdraw(request: HttpRequest, campaign_id: int, group_id: int) -> HttpResponse:
    """The player takes their offer back."""
    return _on_member(request, campaign_id, group_id, offers.withdraw_offer)


@require_POST
@login_required
def group_remove(request: HttpRequest, campaign_id: int, group_id: int) -> HttpResponse:
    return _on_member(request, campaign_id, group_id, actions.remove_helper)


@require_POST
@login_required
def group_roll(request: HttpRequest, campaign_id: int, group_id: int) -> HttpResponse:
    def do(campaign, data):
        key, nonce = _key(request)
        actions.roll_member(
            group_id=_group_of(campaign, group_id).pk,
            user=request.user,
            revision=data.get("revision"),
            character_pk=data.get("character") or 0,
            key=key,
            nonce=nonce,
        )

    return _act(request, campaign_id, do)


@require_POST
@login_required
def group_boost(request: HttpRequest, campaign_id: int, group_id: int) -> HttpResponse:
    def do(campaign, data):
        actions.set_boost(
            group_id=_group_of(campaign, group_id).pk,
            user=request.user,
            revision=data.get("revision"),
            character_pk=data.get("character") or 0,
            boost=bool(data.get("boost")),
        )

    return _act(request, campaign_id, do)


@require_POST
@login_required
def group_reroll(request: HttpRequest, campaign_id: int, group_id: int) -> HttpResponse:
    def do(campaign, data):
        key, nonce = _key(request)
        actions.reroll_member(
            group_id=_group_of(campaign, group_id).pk,
            user=request.user,
            revision=data.get("revision"),
            character_pk=data.get("character") or 0,
            dice=list(data.get("dice") or []),
            ability=data.get("ability") or "",
            cost=data.get("cost") or 0,
            key=key,
            nonce=nonce,
        )

    return _act(request, campaign_id, do)


@require_POST
@login_required
def group_settle(request: HttpRequest, campaign_id: int, group_id: int) -> HttpResponse:
    def do(campaign, data):
        actions.settle(
            group_id=_group_of(campaign, group_id).pk,
            user=request.user,
            revision=data.get("revision"),
            heroic=data.get("heroic") or "",
        )

    return _act(request, campaign_id, do)


@require_POST
@login_required
def group_cancel(request: HttpRequest, campaign_id: int, group_id: int) -> HttpResponse:
    def do(campaign, data):
        actions.cancel(group_id=_group_of(campaign, group_id).pk, user=request.user)

    return _act(request, campaign_id, do)


@require_GET
@login_required
def group_cue(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The line on every page of the table while a group test is under way (``?here=1`` on
    the group test's own page)."""
    campaign = member_campaign(request, campaign_id)
    context = cues.group_cue(campaign, request.user, here=cues.asked(request)["here"])
    return render(request, "rolls/group/_cue.html", context)
