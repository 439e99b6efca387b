"""Pin the test the panel prepares, take a pin away: the sheet's list of pinned tests answers
both, refusals inside it with what was typed. Rolling a pinned test is the panel's own roll
(``test_roll``), posted from the list with the pin's choices."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from config.text import TextField
from rolls.actions import ActionRefused
from rolls.panels.views import character_to_roll
from rolls.saved.actions import choices_of, pin, unpin


class PinForm(forms.Form):
    pin_name = TextField(
        label=gettext_lazy("Name"),
        max_length=60,
        error_messages={"required": gettext_lazy("Name the test to pin it.")},
    )


def _list(request, campaign, character, *, status=200, refusal="", pin_name=""):
    context = {
        "campaign": campaign,
        "character": character,
        "pinned_tests": list(character.saved_tests.all()),
        "pin_refusal": refusal,
        "pin_name": pin_name,
    }
    if not request.htmx:
        return HttpResponseRedirect(
            reverse("character_detail", args=[campaign.pk, character.pk]) + "#pinned-tests"
        )
    return render(request, "rolls/saved/_list.html", context, status=status)


@login_required
@require_POST
def pin_test(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    """Pin the panel's test (its choices come with the request) under the name typed."""
    campaign, character = character_to_roll(request, campaign_id, pk)
    form = PinForm(request.POST)
    typed = request.POST.get("pin_name", "")[:60]
    if not form.is_valid():
        message = " ".join(m for ms in form.errors.values() for m in ms)
        return _list(request, campaign, character, status=422, refusal=message, pin_name=typed)
    name = " ".join(form.cleaned_data["pin_name"].split())
    try:
        pin(character, name, choices_of(request.POST))
    except ActionRefused as refusal:
        return _list(request, campaign, character, status=409, refusal=str(refusal), pin_name=typed)
    return _list(request, campaign, character)


@login_required
@require_POST
def unpin_test(request: HttpRequest, campaign_id: int, pk: int, saved_id: int) -> HttpResponse:
    campaign, character = character_to_roll(request, campaign_id, pk)
    try:
        unpin(character, saved_id)
    except ActionRefused as refusal:
        return _list(request, campaign, character, status=409, refusal=str(refusal))
    return _list(request, campaign, character)


@login_required
@require_GET
def pinned_tests(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    """The list again, with fresh keys: after one of its tests was rolled (its next click is a
    new roll, not the same request sent again)."""
    campaign, character = character_to_roll(request, campaign_id, pk)
    return _list(request, campaign, character)
