"""The cues above a page of the table: what the reader must do now elsewhere. The tests the GM
calls for on their characters, and the group test under way. Rendered into the page's first
HTML (``rolls/templatetags/cues.py``) and by their refreshes (``my_calls`` below,
``group_views.group_cue``), from these same functions."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.db.models import OuterRef, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns.access import member_campaign
from campaigns.models import GameSession
from rolls.group import actions as group
from rolls.group import screen as group_screen
from rolls.labels import DIFFICULTY_NAMES
from rolls.models import GroupTest, PendingTest
from rolls.panels import WholeNumberOrNone

#: The page does not know the open session: the cue asks.
UNKNOWN = object()


class CueRequest(forms.Form):
    """Where a cue's refresh is shown: beside the panel of the character ``sheet`` (its
    call is in the panel), or ``here`` on the group test's own page."""

    sheet = WholeNumberOrNone()
    here = forms.BooleanField(required=False)


def asked(request) -> dict[str, Any]:
    """The cue refresh's ``sheet`` and ``here``: anything else is neither."""
    form = CueRequest(request.GET)
    if not form.is_valid():
        return {"sheet": None, "here": False}
    return {"sheet": form.cleaned_data["sheet"], "here": form.cleaned_data["here"]}


def call_cues(campaign, user, *, sheet: int | None = None) -> list[dict[str, Any]]:
    """The tests the GM calls for on ``user``'s characters, oldest first (one query), but the
    one on ``sheet`` (a character's pk): that character's panel on the page shows its call."""
    calls = (
        PendingTest.objects.filter(
            session__campaign=campaign,
            session__ended_at__isnull=True,
            character__owner=user,
            status=PendingTest.Status.OPEN,
        )
        .select_related("character")
        .order_by("created_at")
    )
    if sheet is not None:
        calls = calls.exclude(character_id=sheet)
    return [{"test": test, "what": _what(test.target)} for test in calls]


#: A called test's target keys that say how hard it is, who helps or how a combined test is
#: read: not what is tested.
NOT_TESTED = frozenset({"difficulty", "helper", "form", "order", "combat"})
#: Caerbannog names each tested place by its kind ("skill:Atletyka", "defence:Unik").
PLACE_KINDS = ("skill:", "defence:")


def _what(target: dict) -> str:
    """What the GM called for, in the sheet's own words (``ZRĘCZNOŚĆ + SPRAWNOŚĆ``), and against
    what difficulty (``Umysł against 15``)."""
    if not isinstance(target, dict):
        return ""
    values = [value for key, value in target.items() if key not in NOT_TESTED]
    parts = [v for value in values for v in (value if isinstance(value, list) else [value])]
    named = [
        part.split(":", 1)[1] if part.startswith(PLACE_KINDS) else part
        for part in parts
        if isinstance(part, str) and part
    ]
    tested = " + ".join(named)
    difficulty = target.get("difficulty")
    if tested and isinstance(difficulty, str | int) and str(difficulty):
        # A named difficulty (Caerbannog's "przeciętny") reads in the reader's words.
        difficulty = DIFFICULTY_NAMES.get(difficulty, difficulty)
        return _("%(tested)s against %(difficulty)s") % {"tested": tested, "difficulty": difficulty}
    return tested


def group_cue(campaign, user, *, session=UNKNOWN, here: bool = False) -> dict[str, Any]:
    """What ``rolls/group/_cue.html`` needs: the group test under way (``cue``) or, in a running
    session, the offer to start one; ``here`` on the group test's own page, which it does not
    link to. ``session``: the open session (or None) when the page knows it. One query where
    the rules have group tests (none elsewhere), and the helper's characters while one is
    under way."""
    shown = {"campaign": campaign, "cue": None, "offer": False, "here": here}
    if group.rules_of(campaign.system) is None:
        return shown
    if session is UNKNOWN:
        session, under_way = _open_session_and_group(campaign)
    else:
        under_way = group_screen.under_way(session) if session is not None else None
    cue = group_screen.cue_of(under_way, user, campaign.gm_id) if under_way is not None else None
    return shown | {"cue": cue, "offer": session is not None}


def _open_session_and_group(campaign) -> tuple[GameSession | None, GroupTest | None]:
    """The campaign's open session and its group test under way, in one query (two while a
    group test is under way)."""
    under_way = GroupTest.objects.filter(session=OuterRef("pk"), status__in=group.OPEN)
    session = (
        GameSession.objects.open()
        .filter(campaign=campaign)
        .annotate(group_under_way=Subquery(under_way.values("pk")[:1]))
        .first()
    )
    if session is None or session.group_under_way is None:
        return session, None
    return session, GroupTest.objects.get(pk=session.group_under_way)


@require_http_methods(["GET"])
@login_required
def my_calls(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The tests the GM is calling for on the user's characters: the cue every page shows
    (``?sheet=`` leaves out the character whose panel is on that page)."""
    campaign = member_campaign(request, campaign_id)
    shown = call_cues(campaign, request.user, sheet=asked(request)["sheet"])
    return render(request, "rolls/_call_cues.html", {"campaign": campaign, "cues": shown})
