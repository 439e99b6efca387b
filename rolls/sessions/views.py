"""Sessions, scenes, the log and its exports. Rolls are recorded by rolls.actions, sessions and
scenes started and ended by campaigns.sessions."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import sessions
from campaigns.access import gm_campaign, member_campaign
from campaigns.models import GameSession
from config.text import text_problem
from rolls import actions
from rolls.dashboard.awards import experience_dice_on
from rolls.live.consumers import MAX_SEQ
from rolls.live.presence import log_context
from rolls.log import export, stats
from rolls.log.reading import entries_for, page_before
from rolls.models import PendingTest
from rolls.panels import sheet_page
from sheets.models import Character
from sheets.views import sheet_and_panel_context


def _refuse_unsafe(title: str) -> None:
    if problem := text_problem(title):
        raise actions.ActionRefused(problem)


def _session_of(campaign, session_id: int) -> GameSession:
    return get_object_or_404(GameSession, pk=session_id, campaign=campaign)


@require_GET
@login_required
def session_log(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The log partial of the campaign's current session (htmx refreshes it on a new session)."""
    campaign = member_campaign(request, campaign_id)
    return render(request, "rolls/log/_log.html", log_context(campaign, request.user))


class EarlierForm(forms.Form):
    """``?before=N`` of the earlier entries: a seq of the log (the page's oldest shown)."""

    before = forms.IntegerField(min_value=1, max_value=MAX_SEQ)

    def refusal(self) -> str:
        return _("Earlier entries are asked for with the number of an entry (before=1 or more).")


@require_GET
@login_required
def session_log_earlier(request: HttpRequest, campaign_id: int, session_id: int) -> HttpResponse:
    """The page of the log before entry ``before``, newest first, as this viewer may see it:
    htmx appends it to the shown log (and replaces the link with the next one); without
    JavaScript it is a page of its own."""
    campaign = member_campaign(request, campaign_id)
    session = _session_of(campaign, session_id)
    form = EarlierForm(request.GET)
    if not form.is_valid():
        # Shown where the link was (the page's configuration swaps a 400 in), not in the log.
        response = render(
            request, "rolls/log/_earlier_refused.html", {"refusal": form.refusal()}, status=400
        )
        response["HX-Retarget"] = "#log-earlier"
        response["HX-Reswap"] = "innerHTML"
        return response
    entries, earlier = page_before(
        session, request.user, campaign.is_gm(request.user), form.cleaned_data["before"]
    )
    context = {
        "log_campaign": campaign,
        "log_session": session,
        "log_entries": entries,
        "log_earlier": earlier,
    }
    template = "rolls/log/_earlier.html" if request.htmx else "rolls/log/earlier.html"
    return render(request, template, context)


@require_GET
@login_required
def session_detail(request: HttpRequest, campaign_id: int, session_id: int) -> HttpResponse:
    campaign = member_campaign(request, campaign_id)
    session = _session_of(campaign, session_id)
    own = list(Character.objects.filter(campaign=campaign, owner=request.user).order_by("pk"))
    if own and session.is_open:
        # A player's table: their character to play (one at a time, chosen by ?character=).
        chosen = request.GET.get("character", "")
        character = next((c for c in own if str(c.pk) == chosen), own[0])
        context = sheet_and_panel_context(request, campaign, character) | {"own": own}
        context |= sheet_page.panel_context(request, campaign, context, session)
    else:
        context = {"cues_session": session if session.is_open else None}
    context |= log_context(campaign, request.user, session)
    context |= _side_context(request, campaign, session)
    return render(request, "rolls/sessions/detail.html", context)


def _side_context(request: HttpRequest, campaign, session) -> dict[str, Any]:
    """What ``rolls/sessions/_side.html`` shows: the session, its scenes, the GM's tools."""
    return {
        "campaign": campaign,
        "session": session,
        "scenes": session.scenes.all(),
        "is_gm": campaign.is_gm(request.user),
    }


@require_GET
@login_required
def session_side(request: HttpRequest, campaign_id: int, session_id: int) -> HttpResponse:
    """The session's side alone: an open table page refreshes it when a scene starts, the
    session ends or (with challenge points) a roll spends them."""
    campaign = member_campaign(request, campaign_id)
    session = _session_of(campaign, session_id)
    return render(request, "rolls/sessions/_side.html", _side_context(request, campaign, session))


@require_GET
@login_required
def session_stats(request: HttpRequest, campaign_id: int, session_id: int) -> HttpResponse:
    """How often each face came up, for the session and per person, over the rolls the viewer
    may see in the log."""
    campaign = member_campaign(request, campaign_id)
    session = _session_of(campaign, session_id)
    is_gm = campaign.is_gm(request.user)
    entries = entries_for(session, request.user, is_gm, newest_first=False)
    whole, people = stats.session_stats(entries)
    context = {
        # Entries the GM struck (rolls.strikes): their dice were drawn, so they are counted.
        "struck": sum(1 for entry in entries if entry.get("struck")),
        "campaign": campaign,
        "session": session,
        "is_gm": is_gm,
        "whole": whole,
        "people": people,
        "typed": stats.typed_stats(entries),
        "min_expected": stats.MIN_EXPECTED,
        "chart": {"width": stats.CHART_WIDTH, "height": stats.CHART_HEIGHT},
    }
    return render(request, "rolls/sessions/stats.html", context)


@require_POST
@login_required
def session_start(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    title = request.POST.get("title", "").strip()[:120]
    try:
        _refuse_unsafe(title)
        session = sessions.start_session(campaign, title)
    except actions.ActionRefused as refusal:
        messages.error(request, str(refusal))
        return redirect("campaign_detail", campaign.pk)
    return redirect("session_detail", campaign.pk, session.pk)


@require_http_methods(["GET", "POST"])
@login_required
def session_end(request: HttpRequest, campaign_id: int, session_id: int) -> HttpResponse:
    """End a session, asked once: the button opens this confirmation (a page of its own, so it
    works without JavaScript), and only its "Yes" (``confirm=yes``) ends the session. A post
    without it, say from a page opened before this step existed, is asked again."""
    campaign = gm_campaign(request, campaign_id)
    session = _session_of(campaign, session_id)
    if not session.is_open:
        messages.info(request, _("This session has already ended."))
        return redirect("session_detail", campaign.pk, session_id)
    if request.method == "GET" or request.POST.get("confirm") != "yes":
        context = {
            "campaign": campaign,
            "session": session,
            "open_tests": session.pending_tests.filter(status=PendingTest.Status.OPEN).count(),
            "converts_dice": experience_dice_on(campaign),
        }
        return render(request, "rolls/sessions/end.html", context)
    try:
        sessions.end_session(session)
    except actions.ActionRefused as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, _("The session has ended."))
    return redirect("session_detail", campaign.pk, session_id)


@require_POST
@login_required
def scene_new(request: HttpRequest, campaign_id: int, session_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    title = request.POST.get("title", "").strip()[:120]
    try:
        _refuse_unsafe(title)
        sessions.new_scene(_session_of(campaign, session_id), title)
    except actions.ActionRefused as refusal:
        messages.error(request, str(refusal))
    return redirect("session_detail", campaign.pk, session_id)


_EXPORTS = {
    "md": "text/markdown; charset=utf-8",
    "csv": "text/csv; charset=utf-8",
    "json": "application/json",
}


@require_GET
@login_required
def session_export(
    request: HttpRequest, campaign_id: int, session_id: int, fmt: str
) -> HttpResponse:
    campaign = member_campaign(request, campaign_id)
    session = _session_of(campaign, session_id)
    entries = entries_for(session, request.user, campaign.is_gm(request.user), newest_first=False)
    if fmt == "md":
        body = export.as_markdown(session, entries)
    elif fmt == "csv":
        body = export.as_csv(entries)
    else:
        body = export.as_json(session, entries)
    response = HttpResponse(body, content_type=_EXPORTS[fmt])
    name = slugify(f"{campaign.name}-{session.pk}") or f"session-{session.pk}"
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response
