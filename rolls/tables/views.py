"""The GM's random tables: write, import, export and roll them. GM-only: 404 for anyone else.

Writes go through ``rolls.tables.random_tables``; a refused form comes back with what was typed
and a message naming the lines to fix, so nothing is lost.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.access import gm_campaign
from campaigns.models import GameSession
from campaigns.stored_text import as_read
from campaigns.systems import get_system
from rolls.actions import ActionRefused
from rolls.forms import TableImportForm, TableRollForm
from rolls.log.reading import entry_for
from rolls.models import RandomTable, Roll, Visibility
from rolls.tables import random_tables
from rolls.tables.rules import table_rules


def _tables_page(
    request, campaign, form, import_errors=(), status=200, import_typed=None
) -> HttpResponse:
    context = {
        "campaign": campaign,
        "tables": RandomTable.objects.filter(campaign=campaign),
        "form": form,
        "import_errors": list(import_errors),
        "import_typed": import_typed or {},
        "has_defaults": bool(table_rules(get_system(campaign.system)).defaults),
    }
    return render(request, "rolls/tables/list.html", context, status=status)


@require_http_methods(["GET", "POST"])
@login_required
def tables(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The campaign's tables, and the form of a new one (quick entry)."""
    campaign = gm_campaign(request, campaign_id)
    if request.method == "GET":
        return _tables_page(request, campaign, random_tables.TableForm(campaign=campaign))
    form = random_tables.TableForm(request.POST, campaign=campaign)
    if form.is_valid():
        try:
            table = random_tables.save_table(form)
        except ActionRefused as refusal:
            form.add_error("name", str(refusal))
        else:
            messages.success(request, _("Table “%(name)s” saved.") % {"name": table.name})
            return redirect("random_tables", campaign.pk)
    return _tables_page(request, campaign, form, status=422)


@require_http_methods(["GET", "POST"])
@login_required
def table_edit(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    table = get_object_or_404(RandomTable, pk=pk, campaign=campaign)
    status = 200
    if request.method == "POST":
        form = random_tables.TableForm(request.POST, campaign=campaign, table=table)
        if form.is_valid():
            try:
                random_tables.save_table(form)
            except ActionRefused as refusal:
                form.add_error("name", str(refusal))
            else:
                messages.success(request, _("Table “%(name)s” saved.") % {"name": table.name})
                return redirect("random_tables", campaign.pk)
        status = 422
    else:
        initial = {
            "name": table.name,
            "dice": table.dice,
            "purpose": table.purpose,
            "rows": random_tables.rows_text(table),
        }
        form = random_tables.TableForm(initial=initial, campaign=campaign, table=table)
    context = {"campaign": campaign, "table": table, "form": form}
    return render(request, "rolls/tables/edit.html", context, status=status)


@require_POST
@login_required
def table_delete(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    table = get_object_or_404(RandomTable, pk=pk, campaign=campaign)
    table.delete()  # the log keeps its rolls: they hold the row they read
    messages.success(request, _("Table “%(name)s” deleted.") % {"name": table.name})
    return redirect("random_tables", campaign.pk)


@require_POST
@login_required
def table_defaults(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    made = random_tables.add_default_tables(campaign)
    if made:
        names = ", ".join(str(as_read(table.name)) for table in made)
        messages.success(request, _("Tables added: %(names)s.") % {"names": names})
    else:
        messages.info(request, _("The rules' tables are already in this campaign."))
    return redirect("random_tables", campaign.pk)


@require_POST
@login_required
def table_import(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """A CSV (from, to, text: name and dice typed in the form) or JSON file, checked like quick
    entry; a refused file comes back in the new table's form, to fix by hand."""
    campaign = gm_campaign(request, campaign_id)
    sent = TableImportForm(request.POST, request.FILES)
    blank = random_tables.TableForm(campaign=campaign)
    if not sent.is_valid():
        return _tables_page(request, campaign, blank, sent.errors["file"], 422)
    upload = sent.cleaned_data["file"]
    try:
        data = random_tables.read_import(
            upload.name, upload.read(random_tables.MAX_IMPORT_BYTES + 1)
        )
    except random_tables.ImportRefused as refusal:
        # The name and dice typed beside the file stay, to try again with a mended file.
        return _tables_page(request, campaign, blank, [str(refusal)], 422, sent.typed())
    data |= sent.typed()
    form = random_tables.TableForm(data, campaign=campaign)
    if form.is_valid():
        try:
            table = random_tables.save_table(form)
        except ActionRefused as refusal:
            form.add_error("name", str(refusal))
        else:
            messages.success(request, _("Table “%(name)s” imported.") % {"name": table.name})
            return redirect("random_tables", campaign.pk)
    return _tables_page(
        request, campaign, form, [_("The file was read; fix the table below.")], 422
    )


@require_GET
@login_required
def table_export(request: HttpRequest, campaign_id: int, pk: int, fmt: str) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    table = get_object_or_404(RandomTable, pk=pk, campaign=campaign)
    if fmt == "json":
        response = HttpResponse(random_tables.export_json(table), "application/json")
    else:
        response = HttpResponse(random_tables.export_csv(table), "text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="table-{table.pk}.{fmt}"'
    return response


def box_context(campaign, session) -> dict[str, Any]:
    """What the GM's tables box shows (the dashboard's part and this box's own answers alike):
    the tables, those the rules call for after the latest rolls, and the latest table rolled.
    The rolled entry is read from the log, not carried by the roll's answer, so the refresh the
    roll's own table event sets off shows it too, whichever of the two answers lands last."""
    rolled = random_tables.latest_roll(session)
    return {
        "campaign": campaign,
        "session": session,
        "random_tables": list(RandomTable.objects.filter(campaign=campaign)),
        "table_offers": random_tables.offers(campaign, session),
        "table_rolled": entry_for(rolled, campaign.gm, True) if rolled else None,
    }


def _box(request, campaign, status=200, **extra) -> HttpResponse:
    session = GameSession.objects.open_of(campaign.pk)
    context = box_context(campaign, session) | extra
    return render(request, "rolls/tables/_box.html", context, status=status)


@require_GET
@login_required
def tables_box(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The dashboard's tables box alone: refreshed when a roll lands (a table may be offered)."""
    return _box(request, gm_campaign(request, campaign_id))


@require_POST
@login_required
def table_roll(request: HttpRequest, campaign_id: int, pk: int) -> HttpResponse:
    """The GM rolls a table from the dashboard, public or hidden (after a roll, when offered).
    With htmx the box answers with the entry; without, the dashboard with a message."""
    campaign = gm_campaign(request, campaign_id)
    table = get_object_or_404(RandomTable, pk=pk, campaign=campaign)
    try:
        roll = _roll(request, campaign, table)
    except ActionRefused as refusal:
        if request.htmx:
            return _box(request, campaign, status=409, table_refusal=str(refusal))
        messages.error(request, str(refusal))
        return redirect(reverse("dashboard", args=[campaign.pk]) + "#random-tables")
    if request.htmx:
        return _box(request, campaign)
    shown = _("hidden") if roll.visibility == Visibility.HIDDEN else _("public")
    answer = roll.result["answer"]
    messages.success(
        request,
        _("%(name)s (#%(seq)s, %(shown)s): %(total)s → %(text)s")
        % {
            "name": as_read(table.name),
            "seq": roll.seq,
            "shown": shown,
            "total": answer["total"],
            "text": as_read(answer["text"]),
        },
    )
    return redirect(reverse("dashboard", args=[campaign.pk]) + "#random-tables")


def _roll(request, campaign, table) -> Roll:
    sent = TableRollForm(request.POST)
    key = sent.key_or_none()
    if key is None:
        raise ActionRefused(_("This request is malformed; reload the page."))
    parent = None
    after = sent.cleaned_data["after"]
    if after is not None:
        parent = Roll.objects.filter(pk=after, session__campaign=campaign).first()
        if parent is None:
            raise ActionRefused(_("That roll is not in this campaign's log."))
    session = GameSession.objects.open_of(campaign.pk)
    if session is None:
        raise ActionRefused(_("Start a session to roll on a table."))
    roll, _created = random_tables.roll_on_table(
        table=table, session=session, gm=request.user, key=key,
        visibility=sent.cleaned_data["visibility"], nonce=sent.cleaned_data["nonce"],
        parent=parent,
    )  # fmt: skip
    return roll
