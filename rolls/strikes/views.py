"""The GM's box "Correct the log" on the dashboard: strike one of the latest entries with a
reason, and clear in the same step the conditions it left."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from campaigns.access import gm_campaign
from campaigns.models import Campaign, GameSession
from config.text import TextField
from rolls.actions import ActionRefused
from rolls.conditions.in_force import name_words
from rolls.forms import RollKey
from rolls.gm_answers import dashboard_at
from rolls.labels import render as render_words
from rolls.models import Condition, Roll
from rolls.strikes.actions import REASON_MAX, STRUCK, given_back, strike

#: How many of the running session's latest entries the box offers.
OFFERED = 20


def strikable(session: GameSession | None) -> list[Roll]:
    """The running session's latest entries the GM may strike, newest first (one query)."""
    if session is None or not session.is_open:
        return []
    latest = (
        Roll.objects.filter(session=session, strike__isnull=True, seal__isnull=True)
        .exclude(kind=STRUCK)
        .select_related("actor")
        .order_by("-seq")[:OFFERED]
    )
    return list(latest)


def _left(entries: list[Roll]) -> dict[int, list[str]]:
    """The names of the conditions in force each entry left, by the entry's pk (one query)."""
    found: dict[int, list[str]] = {}
    in_force = Condition.objects.filter(cleared_entry=None).filter(
        Q(source__in=entries) | Q(added_entry__in=entries)
    )
    for condition in in_force:
        for pk in {condition.source_id, condition.added_entry_id} - {None}:
            # The rules' own conditions in the reader's words, the GM's as typed.
            found.setdefault(pk, []).append(render_words(name_words(condition)))
    return found


def _entry_line(roll: Roll, left: list[str]) -> str:
    who = roll.character_name or roll.actor.get_username()
    # Whole: a label cut in the middle of a message would read half in no language.
    line = f"#{roll.seq} {who}: {render_words(roll.label_words)}"
    if left:
        line += " — " + _("left: %(names)s") % {"names": ", ".join(left)}
    if back := given_back(roll):
        line += " — " + _("gives back: %(numbers)s") % {"numbers": back}
    return line


class StrikeForm(forms.Form):
    """Which entry, why, and whether the conditions it left go with it."""

    roll = forms.TypedChoiceField(label=gettext_lazy("Entry"), coerce=int)
    reason = TextField(
        label=gettext_lazy("Why"),
        max_length=REASON_MAX,
        error_messages={"required": gettext_lazy("Say why it does not stand.")},
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("e.g. the wrong skill")}),
    )
    clear_conditions = forms.BooleanField(
        label=gettext_lazy("Also clear the conditions it left"), required=False
    )
    give_back = forms.BooleanField(
        label=gettext_lazy("Also give back what it spent or gained on the sheet"), required=False
    )
    key = RollKey(required=False)

    def __init__(self, *args, entries: list[Roll] = (), **kwargs) -> None:
        kwargs.setdefault("auto_id", "strike-%s")
        super().__init__(*args, **kwargs)
        left = _left(entries) if entries else {}
        self.fields["roll"].choices = [
            (roll.pk, _entry_line(roll, left.get(roll.pk, []))) for roll in entries
        ]
        self.fields["roll"].error_messages["invalid_choice"] = _(
            "That entry cannot be struck now (struck already, or not among the latest); "
            "look at the log again."
        )

    def clean_reason(self) -> str:
        reason = " ".join(self.cleaned_data["reason"].split())
        if not reason:
            raise forms.ValidationError(_("Say why it does not stand."))
        return reason


def box_context(campaign: Campaign, session: GameSession | None, **extra: Any) -> dict[str, Any]:
    entries = strikable(session)
    form = extra.pop("strike_form", None) or StrikeForm(entries=entries)
    return {"campaign": campaign, "session": session, "strike_form": form, **extra}


@login_required
@require_POST
def strike_entry(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Strike the chosen entry; refusals come back in the box with what was typed."""
    campaign = gm_campaign(request, campaign_id)
    session = GameSession.objects.open_of(campaign.pk)
    form = StrikeForm(request.POST, entries=strikable(session))
    status, struck = 200, None
    if not form.is_valid():
        status = 422
    elif form.cleaned_data.get("key") is None:
        form.add_error(None, _("This request is malformed; reload the page and try again."))
        status = 400
    else:
        try:
            struck, _created = strike(
                campaign=campaign,
                gm=request.user,
                roll_id=form.cleaned_data["roll"],
                reason=form.cleaned_data["reason"],
                key=form.cleaned_data["key"],
                clear_conditions=form.cleaned_data["clear_conditions"],
                give_back=form.cleaned_data["give_back"],
            )
        except ActionRefused as refusal:
            form.add_error(None, str(refusal))
            status = 409
    if not request.htmx:
        if struck is not None:
            messages.success(request, _("#%(seq)s struck.") % {"seq": struck.parent.seq})
        else:
            for error in form.errors.values():
                messages.error(request, " ".join(error))
        return dashboard_at(campaign, "#strike-box")
    extra = {"struck": struck} if struck is not None else {"strike_form": form}
    context = box_context(campaign, session, **extra)
    return render(request, "rolls/strikes/_box.html", context, status=status)
