"""How a GM's tool on the dashboard answers (a box of after-roll results, a party card...): with
htmx, its own part of the dashboard, a refusal said inside it; without JavaScript, the whole
dashboard at that part, the refusal as a message. One rule for every tool, so each says only
which part it is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse


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
        return redirect(reverse("dashboard", args=[campaign.pk]) + anchor)
    return render(request, template, context(), status=status)
