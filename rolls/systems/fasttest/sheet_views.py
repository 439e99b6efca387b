"""FastTest's own actions on a character's sheet page: a wound added, bandaged, unbandaged or
removed (the wound tracker's box) and development paid in XP (the experience box). Its owner
or the GM only, through the sheets app's ``sheet_for_editor``, and 404 in a campaign whose
rules have no wound tracker, since these URLs are there for every campaign; each answers with
the box again (``answer_box``: htmx, or the page without JavaScript). Their URLs are FastTest's
``System.urls`` (``urls``); the writes are ``sheet_actions``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.access import member_campaign
from campaigns.models import Campaign
from rolls.systems.fasttest import is_ours, sheet_actions
from sheets.models import Character
from sheets.views import answer_box, sheet_for_editor


def _fasttest_sheet(request: HttpRequest, campaign_id: int, pk: int) -> tuple[Campaign, Character]:
    campaign = member_campaign(request, campaign_id)
    character = sheet_for_editor(request, campaign, pk)
    if not is_ours(campaign.system):
        raise Http404("No such page.")
    return campaign, character


@require_POST
@login_required
def character_wound_add(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    campaign, character = _fasttest_sheet(request, campaign_id, pk)
    label = request.POST.get("wound_label", "")
    severity = request.POST.get("wound_severity", "")
    errors = sheet_actions.add_wound(character, label, severity)
    character.refresh_from_db()
    typed = {"wound_label": label, "wound_severity": severity} if errors else {}
    return answer_box(request, campaign, character, "wounds", errors, typed=typed)


@require_POST
@login_required
def character_wound_change(
    request: HttpRequest, campaign_id: int, pk: int, index: int
) -> HttpResponse:
    campaign, character = _fasttest_sheet(request, campaign_id, pk)
    change = request.POST.get("change")
    if change == "bandage":
        errors = sheet_actions.set_wound_bandaged(character, index, True)
    elif change == "unbandage":
        errors = sheet_actions.set_wound_bandaged(character, index, False)
    elif change == "remove":
        errors = sheet_actions.remove_wound(character, index)
    else:
        return HttpResponseBadRequest(_("Unknown change to a wound."))
    character.refresh_from_db()
    return answer_box(request, campaign, character, "wounds", errors)


@require_POST
@login_required
def character_develop(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    campaign, character = _fasttest_sheet(request, campaign_id, pk)
    target = request.POST.get("trait", "")
    name = request.POST.get("new_name", "")
    errors = sheet_actions.develop(character, target, name, request.POST.get("new_magic") == "on")
    character.refresh_from_db()
    typed = {"trait": target, "new_name": name} if errors else {}
    return answer_box(request, campaign, character, "experience", errors, typed=typed)
