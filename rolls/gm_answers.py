"""How a GM's tool on the dashboard answers (a box of after-roll results, a party card...): with
htmx, its own part of the dashboard, a refusal said inside it; without JavaScript, the whole
dashboard at that part, the refusal as a message. One rule for every tool, so each says only
which part it is. Here too the two lines every tool wrote again: where a page without
JavaScript goes (``dashboard_at``) and the key its form sent (``sent_key``)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from rolls.forms import RollKeyForm


def part_or_dashboard(
    request: HttpRequest,
    campaign,
    *,
    anchor: str,
    template: str,
    context: Callable[[], dict[str, Any]],
    status: int = 200,
    refusal: Any = "",
) -> HttpResponse:
    """The part (``template`` with ``context()``, read only when it is answered) for htmx; else
    the dashboard at ``anchor`` ("#after-roll"), with ``refusal`` as a message."""
    if not request.htmx:
        if refusal:
            messages.error(request, refusal)
        return dashboard_at(campaign, anchor)
    return render(request, template, context(), status=status)


def dashboard_at(campaign, anchor: str) -> HttpResponse:
    """The dashboard at ``anchor`` ("#party-3"): where a tool sends a page without JavaScript."""
    return redirect(reverse("dashboard", args=[campaign.pk]) + anchor)


def sent_key(request: HttpRequest) -> uuid.UUID | None:
    """The idempotency key a tool's form sent, None when it is missing or malformed: the tool
    refuses the request then, it never makes one up (a sent-again form must find its entry)."""
    return RollKeyForm(request.POST).key_or_none()
