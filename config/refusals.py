"""A refusal an htmx request gets where the page shows refusals: the one region every page
has (``#request-refusal`` in base.html), not the part that asked, so what was typed stays.

Its status must be one htmx swaps (base.html's ``htmx-config``: 400, 409, 422 and 429).
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.html import format_html


def in_refusal_region(message: str, status: int) -> HttpResponse:
    response = HttpResponse(format_html('<p class="refusal" role="alert">{}</p>', message))
    response.status_code = status
    response["HX-Retarget"] = "#request-refusal"
    response["HX-Reswap"] = "innerHTML"
    return response
