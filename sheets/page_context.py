"""What other apps show on a character's sheet page, beside the sheet.

The apps build on each other in one order, campaigns <- sheets <- rolls: the table's roll log and
the test the GM has called for are the rolls app's, so this app does not import them; the rolls
app registers a function that adds them to the page's context (rolls.apps).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest

from campaigns.models import Campaign

#: ``part(request, campaign, context) -> dict``: more context for the sheet page, given the
#: sheet's own (``context["character"]``, ``context["can_edit"]``...).
PagePart = Callable[[HttpRequest, Campaign, dict[str, Any]], dict[str, Any]]

_parts: dict[str, PagePart] = {}


def register(name: str, part: PagePart) -> None:
    """Add ``part`` to every sheet page; registering a name again replaces its part."""
    _parts[name] = part


def beside_sheet(request: HttpRequest, campaign: Campaign, context: dict) -> dict[str, Any]:
    """What the registered parts add to the sheet page."""
    extra: dict[str, Any] = {}
    for part in _parts.values():
        extra |= part(request, campaign, context)
    return extra
