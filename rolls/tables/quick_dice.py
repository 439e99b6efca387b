"""Quick dice: any member types a dice expression (``2d6+3``, ``4d6kh3``, ``3d10!``) on a table
page, and the server rolls it into the log like any test: fair dice, seq, idempotency key,
visibility. The expression is the engine's (``rolls.engine.dice``), whatever the campaign's
system; this module reads the form, says the engine's refusals in the reader's language, and
calls ``record_roll``.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from campaigns.access import member_campaign
from campaigns.models import Campaign, GameSession
from config.redirects import safe_next
from config.text import named_character
from rolls.actions import ActionRefused, RollSpec, record_roll
from rolls.engine import dice
from rolls.forms import RollKeyForm, Text
from rolls.log.reading import entry_for
from rolls.models import Roll, Visibility

#: The engine's refusals (``dice.MESSAGES``) in the reader's language, by code.
MESSAGES = {
    "unreadable": gettext_lazy(
        "Cannot read “%(char)s” at position %(position)s: %(expected)s expected."
    ),
    "ends_early": gettext_lazy("The expression ends too early: %(expected)s expected at the end."),
    "stray_close": gettext_lazy("The “)” at position %(position)s closes no “(”."),
    "split_number": gettext_lazy("A space splits the number at position %(position)s."),
    "number_long": gettext_lazy("The number at position %(position)s is too long."),
    "number_big": gettext_lazy("The number %(number)s is too big; at most %(max)s."),
    "zero_dice": gettext_lazy("At position %(position)s: roll at least one die."),
    "sides_range": gettext_lazy(
        "At position %(position)s: a die has 1 to %(max)s sides, not %(sides)s."
    ),
    "no_explode": gettext_lazy("At position %(position)s: a d%(sides)s cannot explode."),
    "explode_keep": gettext_lazy(
        "At position %(position)s: exploding dice cannot also be kept or dropped."
    ),
    "keep_many": gettext_lazy(
        "At position %(position)s: %(count)s dice cannot keep or drop %(n)s."
    ),
    "empty": gettext_lazy("Type a dice expression, such as 2d6+3."),
    "no_dice": gettext_lazy("The expression rolls no dice; add one, such as d20."),
    "length": gettext_lazy("The expression is too long; at most %(max)s characters."),
    "depth": gettext_lazy("The brackets nest too deep; at most %(max)s levels."),
    "terms": gettext_lazy("The expression has too many parts; at most %(max)s."),
    "too_many_dice": gettext_lazy(
        "This expression may need %(needed)s dice (explosions counted); at most %(max)s dice "
        "can be rolled at once."
    ),
}

#: What the parser expected where it could not read (``dice.EXPECTED``).
EXPECTED = {
    "term": gettext_lazy("a number, a die such as d6, or “(”"),
    "close": gettext_lazy("“)”"),
    "sides": gettext_lazy("the number of sides"),
    "drop": gettext_lazy("dh or dl (drop the highest or lowest)"),
    "how_many": gettext_lazy("how many dice to keep or drop"),
    "operator": gettext_lazy("“+”, “-” or the end"),
}


def refusal_words(error: dice.ExpressionError) -> str:
    """An engine refusal in the reader's language (its English text if the code is new)."""
    message = MESSAGES.get(error.code)
    if message is None:
        return str(error)
    data = dict(error.data)
    if "char" in data:
        data["char"] = named_character(data["char"])
    if "expected" in data:
        data["expected"] = EXPECTED.get(data["expected"], data["expected"])
    return str(message) % data


def visibilities(is_gm: bool) -> list[tuple[str, Any]]:
    """Who may see a quick roll: the table, or only the GM (the GM's own: hidden)."""
    if is_gm:
        return [
            (Visibility.PUBLIC, Visibility.PUBLIC.label),
            (Visibility.HIDDEN, Visibility.HIDDEN.label),
        ]
    return [
        (Visibility.PUBLIC, Visibility.PUBLIC.label),
        (Visibility.SECRET, gettext_lazy("secret (me and the GM)")),
    ]


@dataclass
class QuickForm:
    """The box as typed: the expression, who may see it, what is wrong with it."""

    expression: str = ""
    visibility: str = Visibility.PUBLIC
    errors: list[str] = field(default_factory=list)
    params: dice.Params | None = None


class QuickPost(RollKeyForm):
    """The box as posted: the expression as typed (the engine reads it), who may see it (the
    table when not said), the roll's key and nonce, and the page to go back to."""

    expression = Text()
    # One of the member's last expressions, rolled again in one click (``recent``).
    again = Text()
    visibility = Text()
    next = Text()

    def clean_expression(self) -> str:
        return self.cleaned_data["expression"] or ""

    def clean_visibility(self) -> str:
        visibility = self.cleaned_data["visibility"]
        return Visibility.PUBLIC if visibility is None else visibility

    def next_page(self) -> str:
        self.is_valid()
        return self.cleaned_data.get("next") or ""


def read_form(post, is_gm: bool) -> QuickForm:
    sent = QuickPost(post)
    sent.is_valid()
    raw = sent.cleaned_data["again"] or sent.cleaned_data["expression"]
    form = QuickForm(expression=raw[: dice.MAX_LENGTH * 2])
    form.visibility = sent.cleaned_data["visibility"]
    if form.visibility not in dict(visibilities(is_gm)):
        form.errors.append(_("Choose who may see this roll."))
    try:
        form.params = dice.parse_expression(raw)
    except dice.ExpressionError as error:
        form.errors.append(refusal_words(error))
    return form


#: How many of a member's last expressions the box offers to roll again.
RECENT = 5


def recent(campaign: Campaign, user) -> list[str]:
    """The member's last distinct expressions at this table, newest first (one query): the
    box offers each to roll again in one click."""
    if not user.is_authenticated:
        return []
    found: list[str] = []
    for value in recent_params(campaign, user):
        expression = value.get("expression") if isinstance(value, dict) else None
        if isinstance(expression, str) and expression not in found:
            found.append(expression)
    return found[:RECENT]


def recent_params(campaign: Campaign, user):
    """The params of the member's latest quick rolls at this table, newest first: read through
    the ``roll_kind_of_actor`` index, so a member with none costs nothing however long the log."""
    return (
        Roll.objects.filter(session__campaign=campaign, actor=user, kind=dice.QUICK_KIND)
        .order_by("-created_at", "-pk")
        .values_list("params", flat=True)[: RECENT * 8]
    )


def roll_quick(
    *, campaign: Campaign, actor, form: QuickForm, key: uuid.UUID, nonce: str | None = None
) -> tuple[Roll, bool]:
    """Roll the typed expression in the open session, into the log (``record_roll``)."""
    if form.params is None or form.errors:
        raise ActionRefused(_("Correct the dice expression first."))
    session = GameSession.objects.open_of(campaign.pk)
    if session is None:
        raise ActionRefused(_("No game session is running; the GM starts one."))
    return record_roll(
        RollSpec(
            session=session,
            actor=actor,
            system=campaign.system,
            engine=dice,
            params={"expression": form.params.expression},
            key=key,
            label=form.params.expression,
            visibility=form.visibility,
            kind=dice.QUICK_KIND,
            nonce=nonce,
        )
    )


def _next(request: HttpRequest, campaign: Campaign) -> str:
    """Where a plain (no-JavaScript) post goes back to: the page it came from, if ours."""
    fallback = reverse("campaign_detail", args=[campaign.pk])
    return safe_next(request, QuickPost(request.POST).next_page(), fallback)


@login_required
@require_POST
def quick_roll(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Roll a quick expression. A repeated key answers with the first roll, never a second."""
    campaign = member_campaign(request, campaign_id)
    is_gm = campaign.is_gm(request.user)
    form = read_form(request.POST, is_gm)
    sent = QuickPost(request.POST)
    status, rolled = 200, None
    key = sent.key_or_none()
    if key is None:
        form.errors.insert(0, _("This roll request is malformed; reload the page and try again."))
        status = 400
    else:
        if form.errors:
            status = 422
        else:
            try:
                roll, _created = roll_quick(
                    campaign=campaign, actor=request.user, form=form, key=key,
                    nonce=sent.sent_nonce(),
                )  # fmt: skip
            except ActionRefused as refusal:
                form.errors.append(str(refusal))
                status = 409
            else:
                rolled = entry_for(roll, request.user, is_gm)
                form = QuickForm(visibility=form.visibility)  # a fresh box for the next roll
    if not request.htmx and status == 200:
        return HttpResponseRedirect(_next(request, campaign))
    context = {
        "quick_campaign": campaign,
        "quick_is_gm": is_gm,
        "quick_form": form,
        "quick_rolled": rolled,
        "quick_next": _next(request, campaign),
    }
    template = "rolls/tables/_quick_dice.html" if request.htmx else "rolls/tables/quick_dice.html"
    return render(request, template, context, status=status)
