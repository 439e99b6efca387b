"""How each system's test works: one page per system, open to anyone (a newcomer reads it before
having an account), linked from every test panel."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from rolls.rules.pages import rules_page_of, rules_pages


@require_safe
def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/index.html", {"pages": list(rules_pages().values())})


@require_safe
def rules_page(request: HttpRequest, system: str) -> HttpResponse:
    page = rules_page_of(system)
    if page is None:
        raise Http404("No such rule system.")
    pages = list(rules_pages().values())
    return render(request, "rules/system.html", {"page": page, "pages": pages})
