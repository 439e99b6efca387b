"""What the rolls app shows on a character's sheet page: the table's roll log beside the sheet,
the character's conditions and, to the sheet's player, the test the GM has called for
(registered with ``sheets.page_parts`` in rolls.apps)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from campaigns.models import Campaign
from rolls import conditions
from rolls.log import log_context
from rolls.models import PendingTest


def called_test_context(context: dict) -> dict[str, Any]:
    """The test the GM has called for and the player has not rolled yet: it opens at once."""
    if not context["can_edit"]:
        return {}
    pending = PendingTest.objects.filter(
        character=context["character"], status=PendingTest.Status.OPEN
    ).first()
    return {"pending_test": pending}


def beside_sheet(request: HttpRequest, campaign: Campaign, context: dict) -> dict[str, Any]:
    return (
        log_context(campaign, request.user)
        | called_test_context(context)
        | {"sheet_conditions": conditions.active(context["character"])}
    )
