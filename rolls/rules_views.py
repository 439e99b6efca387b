"""How each system's test works: one page per system, open to anyone (a newcomer reads it before
having an account), linked from every test panel."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from rolls.rules_pages import PAGES


@require_safe
def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/index.html", {"pages": list(PAGES.values())})


@require_safe
def rules_page(request: HttpRequest, system: str) -> HttpResponse:
    page = PAGES.get(system)
    if page is None:
        raise Http404("No such rule system.")
    return render(request, "rules/system.html", {"page": page, "pages": list(PAGES.values())})
