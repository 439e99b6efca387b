"""The chat box's one request: a member says a line. Refusals come back in the box with what
was typed; a plain (no-JavaScript) post goes back to the page it came from."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.access import member_campaign
from campaigns.models import Campaign
from config.redirects import safe_next
from rolls import limits
from rolls.actions import ActionRefused
from rolls.chat.actions import say
from rolls.chat.forms import SayForm
from rolls.tables import quick_dice


def _next(request: HttpRequest, campaign: Campaign, form: SayForm) -> str:
    fallback = reverse("campaign_detail", args=[campaign.pk])
    return safe_next(request, form.data.get("next"), fallback)


def _box(request: HttpRequest, campaign: Campaign, form: SayForm, *, status=200, said=None):
    context = {"say_campaign": campaign, "say_form": form, "said": said}
    context["say_next"] = _next(request, campaign, form)
    template = "rolls/chat/_say.html" if request.htmx else "rolls/chat/say.html"
    return render(request, template, context, status=status)


@login_required
@require_POST
def say_line(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Say a line at the table. A repeated key answers with the line it made, never a second."""
    campaign = member_campaign(request, campaign_id)
    if not limits.spend("chat", request.user.pk, 1, settings.CHAT_RATE_LIMIT):
        # Refused before the box is built (its choices read the table): in the page's refusal
        # region, so the box keeps the line as typed.
        message = _("You are writing faster than any table reads; nothing was sent. Wait a "
                    "few seconds and send it again.")  # fmt: skip
        return limits.refused(request, message)
    form = SayForm(request.POST, campaign=campaign, user=request.user)
    if not form.is_valid():
        return _box(request, campaign, form, status=422)
    key = form.cleaned_data.get("key")
    if key is None:
        form.add_error(None, _("This message is malformed; reload the page and try again."))
        return _box(request, campaign, form, status=400)
    nonce = form.cleaned_data.get("nonce")
    try:
        if form.is_roll():
            line = _roll(campaign, request.user, form, key, nonce)
            if line is None:
                return _box(request, campaign, form, status=422)
        else:
            line, _created = say(
                campaign=campaign, actor=request.user, key=key, nonce=nonce, **form.line()
            )
    except ActionRefused as refusal:
        form.add_error(None, str(refusal))
        return _box(request, campaign, form, status=409)
    if not request.htmx:
        return HttpResponseRedirect(_next(request, campaign, form))
    # A fresh box for the next line, to the same people, as the same speaker.
    fresh = SayForm(
        campaign=campaign,
        user=request.user,
        initial={"to": form.cleaned_data["to"], "speaker": form.cleaned_data.get("speaker")},
    )
    return _box(request, campaign, fresh, said=line)


def _roll(campaign: Campaign, user, form: SayForm, key, nonce):
    """``/r``: the quick-dice box's roll (its engine, its visibility, its kind of entry), or
    None with the refusal in the box."""
    visibility = form.roll_visibility()
    typed = form.cleaned_data["text"]
    quick = quick_dice.read_form(
        {"expression": form.typed.text if form.typed else "", "visibility": visibility or ""},
        campaign.is_gm(user),
    )
    if visibility is None:
        quick.errors = [
            _(
                "A roll is for everyone or for the GM only, never a whisper: choose one of "
                "them beside the line."
            )  # fmt: skip
        ]
    if quick.errors:
        form.add_error("text", [f"{typed}: {error}" for error in quick.errors])
        return None
    roll, _created = quick_dice.roll_quick(
        campaign=campaign, actor=user, form=quick, key=key, nonce=nonce
    )
    return roll
