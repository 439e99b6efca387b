"""Character sheet views, generic over the systems in ``sheets.systems``.

Every view finds the campaign through ``member_campaign`` (404 for outsiders) and the character
through one helper per question: ``_sheet_for_member`` (any member reads it) and
``sheet_for_editor`` (its owner or the GM; 404 for everyone else, so a forged edit of another
player's sheet learns nothing). Writes go through ``sheets.actions``. A rule system's own sheet
actions (FastTest's wounds and development) are views in its folder, ``rolls/systems/<key>/``,
that use ``sheet_for_editor`` and ``answer_box`` from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import trigger_client_event

from campaigns.access import member_campaign
from campaigns.models import Campaign
from campaigns.system_settings import system_settings
from campaigns.systems import get_system
from sheets import actions, export, page_context
from sheets.models import Character
from sheets.systems import Section, sections

#: The character's name: a box of its own on every sheet, whatever the system.
NAME_SECTION = Section("name", gettext_lazy("Name"), "sheets/_name_box.html", ("name",))


@dataclass
class Box:
    """One box of the sheet as the viewer sees it: read-only or open for editing."""

    section: Section
    url: str
    data: Any
    can_edit: bool
    editing: bool = False
    errors: dict = field(default_factory=dict)
    focus: bool = False

    @property
    def key(self) -> str:
        return self.section.key

    @property
    def title(self) -> str:
        return self.section.title

    @property
    def has_form(self) -> bool:
        return bool(self.section.fields)


# Permission helpers --------------------------------------------------------------------------


def _sheet_for_member(request: HttpRequest, campaign: Campaign, pk: int) -> Character:
    """A character of this campaign; any member may read it."""
    return get_object_or_404(Character.objects.select_related("owner"), campaign=campaign, pk=pk)


def _can_edit(request: HttpRequest, campaign: Campaign, character: Character) -> bool:
    return campaign.is_gm(request.user) or character.owner_id == request.user.pk


def sheet_for_editor(request: HttpRequest, campaign: Campaign, pk: int) -> Character:
    """A character its owner or the GM may change; 404 for everyone else."""
    character = _sheet_for_member(request, campaign, pk)
    if not _can_edit(request, campaign, character):
        raise Http404("No such page.")
    character.campaign = campaign
    return character


def _section(campaign: Campaign, key: str) -> Section:
    if key == NAME_SECTION.key:
        return NAME_SECTION
    settings = system_settings(campaign)
    for section in sections(get_system(campaign.system).sheet):
        if section.key == key and (not section.setting or settings.get(section.setting)):
            return section
    raise Http404("No such part of the sheet.")


def _may_edit_section(request: HttpRequest, campaign: Campaign, section: Section) -> bool:
    return bool(section.fields) and (not section.gm_only or campaign.is_gm(request.user))


# Rendering -----------------------------------------------------------------------------------


def _base_context(request: HttpRequest, campaign: Campaign) -> dict[str, Any]:
    module = get_system(campaign.system).sheet
    return {
        "campaign": campaign,
        "settings": system_settings(campaign),
        "is_gm": campaign.is_gm(request.user),
        "form_template": module.FORM_TEMPLATE,
        "sheet_template": module.SHEET_TEMPLATE,
        "has_sections": bool(module.SECTIONS),
    }


def _section_url(campaign: Campaign, character: Character, key: str) -> str:
    return reverse(
        "character_section",
        kwargs={"campaign_id": campaign.pk, "pk": character.pk, "section": key},
    )


def _sheet_context(
    request: HttpRequest,
    campaign: Campaign,
    character: Character,
    *,
    editing: str = "",
    typed: Any = None,
    errors: dict | None = None,
    focus: str = "",
) -> dict[str, Any]:
    """Everything the sheet page and its boxes render from; ``typed`` fills the open box."""
    module = get_system(campaign.system).sheet
    context = _base_context(request, campaign)
    can_edit = _can_edit(request, campaign, character)
    settings = context["settings"]
    boxes = {}
    for section in (NAME_SECTION, *sections(module)):
        if section.setting and not settings.get(section.setting):
            continue
        is_open = section.key == editing
        stored = character.name if section is NAME_SECTION else character.data
        boxes[section.key] = Box(
            section=section,
            url=_section_url(campaign, character, section.key),
            data=typed if is_open and typed is not None else stored,
            can_edit=can_edit and _may_edit_section(request, campaign, section),
            editing=is_open,
            errors=(errors or {}) if is_open else {},
            focus=section.key == focus,
        )
    context.update(
        character=character,
        data=character.data,
        errors={},
        creating=False,
        can_edit=can_edit,
        derived=module.derived(character.data, campaign),
        sections=boxes,
        detail_url=reverse(
            "character_detail", kwargs={"campaign_id": campaign.pk, "pk": character.pk}
        ),
    )
    return context


def _render_box(request: HttpRequest, context: dict, key: str) -> HttpResponse:
    context["section"] = context["sections"][key]
    template = NAME_SECTION.template if key == NAME_SECTION.key else "sheets/_section.html"
    return render(request, template, context)


def answer_box(
    request: HttpRequest,
    campaign: Campaign,
    character: Character,
    key: str,
    errors: dict,
    *,
    typed: Any = None,
    editing: bool = False,
) -> HttpResponse:
    """After a write: the box again (htmx) or the page (no JavaScript); errors keep the input."""
    if not errors and not request.htmx:
        return redirect(f"{_detail_url(campaign, character)}#section-{key}")
    context = _sheet_context(
        request,
        campaign,
        character,
        editing=key if editing and errors else "",
        typed=typed,
        errors=errors,
        focus="" if errors else key,
    )
    if not editing:
        context["action_errors"] = errors
        context["typed"] = typed or {}
    if not request.htmx:
        return _detail_page(request, campaign, context)
    response = _render_box(request, context, key)
    refreshes = context["sections"][key].section.refreshes
    if not errors and refreshes:
        trigger_client_event(response, "sheet-changed", {"boxes": list(refreshes)})
    return response


def _detail_url(campaign: Campaign, character: Character) -> str:
    return reverse("character_detail", kwargs={"campaign_id": campaign.pk, "pk": character.pk})


# Creating ------------------------------------------------------------------------------------


def _create_context(request: HttpRequest, campaign: Campaign, data, errors, typed) -> dict:
    module = get_system(campaign.system).sheet
    context = _base_context(request, campaign)
    context.update(
        character=None,
        creating=True,
        can_edit=True,
        data=data,
        errors=errors,
        typed=typed,
        totals=module.totals(data, campaign),
        owners=actions.owner_choices(campaign, request.user),
    )
    return context


@require_http_methods(["GET", "POST"])
@login_required
def character_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = member_campaign(request, campaign_id)
    module = get_system(campaign.system).sheet
    if request.method == "GET":
        typed = {"name": "", "owner": str(request.user.pk)}
        context = _create_context(request, campaign, module.default_data(campaign), {}, typed)
        return render(request, "sheets/create.html", context)
    data = module.data_from_post(request.POST, campaign)
    typed = {"name": request.POST.get("name", ""), "owner": request.POST.get("owner", "")}
    if "_more" in request.POST:  # "more rows": show the form again, nothing saved
        context = _create_context(request, campaign, data, {}, typed)
        return render(request, "sheets/create.html", context)
    character, errors = actions.create_character(
        campaign, by=request.user, name=typed["name"], data=data, owner_id=typed["owner"] or None
    )
    if errors:
        context = _create_context(request, campaign, data, errors, typed)
        return render(request, "sheets/create.html", context)
    messages.success(request, _("%(name)s is ready.") % {"name": character.name})
    return redirect(_detail_url(campaign, character))


@require_POST
@login_required
def character_totals(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = member_campaign(request, campaign_id)
    module = get_system(campaign.system).sheet
    data = module.data_from_post(request.POST, campaign)
    return render(request, "sheets/_totals.html", {"totals": module.totals(data, campaign)})


# The sheet -----------------------------------------------------------------------------------


@require_http_methods(["GET"])
@login_required
def character_detail(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    campaign = member_campaign(request, campaign_id)
    character = _sheet_for_member(request, campaign, pk)
    editing = request.GET.get("edit", "")
    if editing:
        try:
            section = _section(campaign, editing)
        except Http404:
            editing = ""
        else:
            allowed = _can_edit(request, campaign, character)
            if not (allowed and _may_edit_section(request, campaign, section)):
                editing = ""
    context = _sheet_context(request, campaign, character, editing=editing)
    return _detail_page(request, campaign, context)


@require_http_methods(["GET"])
@login_required
def character_paper(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    """The sheet alone, as its page shows it: an open page refreshes it when the character
    changes elsewhere (``sheets/_paper.html``), never fetching the whole page for it."""
    campaign = member_campaign(request, campaign_id)
    character = _sheet_for_member(request, campaign, pk)
    context = _sheet_context(request, campaign, character)
    return render(request, "sheets/_paper.html", context)


def _detail_page(request: HttpRequest, campaign: Campaign, context: dict) -> HttpResponse:
    """The whole sheet page: the sheet, its test panel, and the table's roll log beside it
    (the log and the called test are the rolls app's: ``sheets.page_context``)."""
    context |= page_context.beside_sheet(request, campaign, context)
    return render(request, "sheets/detail.html", context)


def sheet_and_panel_context(
    request: HttpRequest, campaign: Campaign, character: Character
) -> dict[str, Any]:
    """What ``sheets/_paper.html`` and ``rolls/panels/_slot.html`` need (but the test the GM has
    called for, which is the rolls app's), for another page that shows a character to play (the
    table page)."""
    character.campaign = campaign
    return _sheet_context(request, campaign, character)


@require_http_methods(["GET", "POST"])
@login_required
def character_section(
    request: HttpRequest, campaign_id: int, pk: int, section: str
) -> HttpResponse:
    campaign = member_campaign(request, campaign_id)
    if request.method == "GET" and "view" in request.GET:
        character = _sheet_for_member(request, campaign, pk)
        box = _section(campaign, section)
        return _render_box(request, _sheet_context(request, campaign, character), box.key)
    character = sheet_for_editor(request, campaign, pk)
    box = _section(campaign, section)
    if not _may_edit_section(request, campaign, box):
        raise Http404("No such page.")
    if request.method == "GET":
        if not request.htmx:
            return redirect(f"{_detail_url(campaign, character)}?edit={box.key}#section-{box.key}")
        context = _sheet_context(request, campaign, character, editing=box.key)
        return _render_box(request, context, box.key)
    if box is NAME_SECTION:
        errors = actions.rename_character(character, request.POST.get("name"))
        typed = request.POST.get("name", "")
    else:
        posted = get_system(campaign.system).sheet.data_from_post(request.POST, campaign)
        typed, errors = actions.update_section(character, box, posted)
    return answer_box(request, campaign, character, box.key, errors, typed=typed, editing=True)


@require_http_methods(["GET"])
@login_required
def character_export(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    campaign = member_campaign(request, campaign_id)
    character = _sheet_for_member(request, campaign, pk)
    character.campaign = campaign
    response = HttpResponse(
        export.export_json(character), content_type="application/json; charset=utf-8"
    )
    filename = f"{slugify(character.name) or 'character'}.{campaign.system}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_http_methods(["GET", "POST"])
@login_required
def character_import(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = member_campaign(request, campaign_id)
    context = _base_context(request, campaign)
    owners = actions.owner_choices(campaign, request.user)
    typed = {"json": "", "owner": str(request.user.pk)}
    context.update(owners=owners, problems=[], typed=typed, max_kb=export.MAX_BYTES // 1024)
    if request.method == "GET":
        return render(request, "sheets/import.html", context)
    typed.update(json=request.POST.get("json", ""), owner=request.POST.get("owner", ""))
    upload = request.FILES.get("file")
    if upload is not None and upload.size > export.MAX_BYTES:
        raw: bytes | str = b"\0" * (export.MAX_BYTES + 1)  # read no further: it is too large
    elif upload is not None:
        raw = upload.read(export.MAX_BYTES + 1)
    else:
        raw = typed["json"]
    if not raw:
        context["problems"] = [_("Choose an exported file or paste its JSON.")]
        return render(request, "sheets/import.html", context)
    imported = export.read_import(raw, campaign)
    if not imported.problems:
        character, errors = actions.create_character(
            campaign,
            by=request.user,
            name=imported.name,
            data=imported.data,
            owner_id=typed["owner"] or None,
        )
        if character is not None:
            messages.success(request, _("%(name)s was imported.") % {"name": character.name})
            return redirect(_detail_url(campaign, character))
        imported.problems = [message for group in errors.values() for message in group]
    context["problems"] = imported.problems
    return render(request, "sheets/import.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def character_delete(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    campaign = member_campaign(request, campaign_id)
    character = sheet_for_editor(request, campaign, pk)
    if request.method == "POST":
        name = character.name
        character.delete()
        messages.success(request, _("%(name)s was deleted.") % {"name": name})
        return redirect("campaign_detail", campaign_id=campaign.pk)
    return render(request, "sheets/delete.html", {"campaign": campaign, "character": character})
