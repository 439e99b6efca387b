"""What the rolls app shows on a character's sheet page: the table's roll log beside the sheet,
the character's conditions and, to those who may roll for it, its test panel as it opens
(registered with ``sheets.page_context`` in rolls.apps)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from campaigns.models import Campaign
from rolls.conditions import in_force
from rolls.live.presence import log_context
from rolls.panels.panel_view import PanelView, panel_on_load


def panel_context(
    request: HttpRequest, campaign: Campaign, context: dict, session
) -> dict[str, Any]:
    """The test panel of the page's character, to its player (or the GM), as it opens
    (``panel_view.panel_on_load``): a test called on it, its turn to settle, else the idle
    slot. ``session`` is the open session or None; the cues above the page leave out this
    character, whose panel says it all (``cues_session`` spares them asking again)."""
    shown = {"cues_session": session}
    if not context["can_edit"]:
        return shown
    character = context["character"]
    view = PanelView(request, campaign, character)
    view.session = session
    panel = panel_on_load(view)
    pinned = list(character.saved_tests.all())  # rolls.saved: its tests pinned to roll again
    return shown | {"test_panel": panel, "panel_character": character, "pinned_tests": pinned}


def beside_sheet(request: HttpRequest, campaign: Campaign, context: dict) -> dict[str, Any]:
    log = log_context(campaign, request.user)
    session = log["log_session"]
    return (
        log
        | panel_context(
            request, campaign, context, session if session and session.is_open else None
        )
        | {"sheet_conditions": in_force.active(context["character"])}
    )
