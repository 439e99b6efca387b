"""The GM's NPC trait lists: quick entry, the full form, reveal to players, delete.

Players see only the NPCs the GM has revealed, read-only and without the GM's notes.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.access import gm_campaign, member_campaign
from campaigns.models import Campaign
from campaigns.systems import get_system
from sheets import actions
from sheets.models import NPC
from sheets.npc_forms import (
    BLANK_TRAIT_ROWS,
    NPCForm,
    NpcStats,
    NPCStatsForm,
    QuickNPCForm,
    trait_formset,
)
from sheets.npc_parse import TRAITS_MAX, format_npc_line


def _gm_npc(request: HttpRequest, campaign_id: int, pk: int) -> tuple[Campaign, NPC]:
    """The GM's campaign and one of its NPCs; anyone else, or another campaign's NPC: 404."""
    campaign = gm_campaign(request, campaign_id)
    return campaign, get_object_or_404(NPC, campaign=campaign, pk=pk)


def _list_url(campaign: Campaign, npc: NPC | None = None) -> str:
    url = reverse("npc_list", args=[campaign.pk])
    return f"{url}#npc-{npc.pk}" if npc else url


def _board(
    request: HttpRequest, campaign: Campaign, form: QuickNPCForm, status: str = ""
) -> HttpResponse:
    """The list page, or only its board (quick entry + NPCs) for htmx."""
    is_gm = campaign.is_gm(request.user)
    npcs = NPC.objects.filter(campaign=campaign)
    if not is_gm:
        npcs = npcs.filter(revealed=True).defer("notes")
    context = {
        "campaign": campaign,
        "is_gm": is_gm,
        "npcs": list(npcs),
        "quick_form": form,
        "board_status": status,
    }
    template = "sheets/npcs/_board.html" if request.htmx else "sheets/npcs/list.html"
    return render(request, template, context)


@require_GET
@login_required
def npc_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = member_campaign(request, campaign_id)
    return _board(request, campaign, QuickNPCForm())


@require_POST
@login_required
def npc_quick_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    form = QuickNPCForm(request.POST)
    if not form.is_valid():
        return _board(request, campaign, form)
    try:
        created = actions.create_npcs(campaign, form.cleaned_data["text"])
    except actions.SheetRefused as refusal:
        form.add_error("text", str(refusal))
        return _board(request, campaign, form)
    names = ", ".join(npc.name for npc in created)
    status = ngettext("Added %(names)s.", "Added %(count)s NPCs: %(names)s.", len(created)) % {
        "count": len(created),
        "names": names,
    }
    if request.htmx:
        return _board(request, campaign, QuickNPCForm(), status)
    messages.success(request, status)
    return redirect(_list_url(campaign))


def _typed_again(request: HttpRequest):
    """The form as typed plus more blank trait rows, without judging it yet: each field's value
    as posted (a forged row count reads as no rows; the formset caps it)."""
    typed, typed_rows = NPCForm(request.POST), trait_formset(request.POST)
    traits = [
        {"name": row["name"].value() or "", "dice": row["dice"].value() or ""} for row in typed_rows
    ]
    traits = [t for t in traits if t["name"] or t["dice"]][:TRAITS_MAX]
    form = NPCForm(initial={name: typed[name].value() for name in ("name", "notes", "revealed")})
    formset = trait_formset(traits=traits)
    formset.extra = BLANK_TRAIT_ROWS * 2
    return form, formset


def _stats_form(request: HttpRequest, campaign: Campaign, npc: NPC | None) -> NPCStatsForm:
    """The NPC's full stats, where the campaign's system allows NPCs like players."""
    stats = get_system(campaign.system).part(NpcStats)
    names = stats.names(campaign) if stats is not None else ((), ())
    if request.method == "POST":
        return NPCStatsForm(request.POST, names=names)
    return NPCStatsForm(names=names, stats=npc.stats if npc else None)


def _npc_form_page(
    request: HttpRequest, campaign: Campaign, npc: NPC | None
) -> HttpResponse | tuple[NPCForm, object, NPCStatsForm]:
    """The full NPC form for create and edit; returns the page, or the valid forms."""
    stats = _stats_form(request, campaign, npc)
    if request.method == "POST" and "add_rows" in request.POST:
        form, formset = _typed_again(request)
    elif request.method == "POST":
        form = NPCForm(request.POST)
        formset = trait_formset(request.POST)
        if form.is_valid() & formset.is_valid() & stats.is_valid():
            return form, formset, stats
    elif npc is not None:
        form = NPCForm(initial={"name": npc.name, "notes": npc.notes, "revealed": npc.revealed})
        formset = trait_formset(traits=npc.traits)
    else:
        form, formset = NPCForm(), trait_formset()
    return _form_page(request, campaign, npc, form, formset, stats)


def _form_page(request, campaign, npc, form, formset, stats) -> HttpResponse:
    context = {
        "campaign": campaign,
        "npc": npc,
        "form": form,
        "formset": formset,
        "stats_form": stats,
        "line": format_npc_line(npc.name, npc.traits) if npc else "",
    }
    return render(request, "sheets/npcs/form.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def npc_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    result = _npc_form_page(request, campaign, None)
    if isinstance(result, HttpResponse):
        return result
    form, formset, stats = result
    try:
        npc = actions.create_npc(
            campaign, traits=formset.traits(), stats=stats.stats(), **form.cleaned_data
        )
    except actions.SheetRefused as refusal:
        form.add_error(None, str(refusal))
        return _form_page(request, campaign, None, form, formset, stats)
    messages.success(request, _("Added %(name)s.") % {"name": npc.name})
    return redirect(_list_url(campaign, npc))


@require_http_methods(["GET", "POST"])
@login_required
def npc_edit(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    campaign, npc = _gm_npc(request, campaign_id, pk)
    result = _npc_form_page(request, campaign, npc)
    if isinstance(result, HttpResponse):
        return result
    form, formset, stats = result
    actions.update_npc(npc, traits=formset.traits(), stats=stats.stats(), **form.cleaned_data)
    messages.success(request, _("Saved %(name)s.") % {"name": npc.name})
    return redirect(_list_url(campaign, npc))


@require_POST
@login_required
def npc_reveal(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    campaign, npc = _gm_npc(request, campaign_id, pk)
    choice = request.POST.get("revealed")
    if choice not in ("0", "1"):
        return HttpResponseBadRequest(_("Say revealed=1 to show the NPC or revealed=0 to hide it."))
    actions.set_npc_revealed(npc, choice == "1")
    if request.htmx:
        return render(
            request,
            "sheets/npcs/_npc_card.html",
            {"campaign": campaign, "npc": npc, "is_gm": True},
        )
    if npc.revealed:
        messages.success(request, _("Players now see %(name)s.") % {"name": npc.name})
    else:
        messages.success(request, _("%(name)s is hidden from players.") % {"name": npc.name})
    return redirect(_list_url(campaign, npc))


@require_http_methods(["GET", "POST"])
@login_required
def npc_delete(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    campaign, npc = _gm_npc(request, campaign_id, pk)
    if request.method == "POST":
        name = npc.name
        actions.delete_npc(npc)
        messages.success(request, _("Deleted %(name)s.") % {"name": name})
        return redirect(_list_url(campaign))
    return render(request, "sheets/npcs/delete.html", {"campaign": campaign, "npc": npc})
