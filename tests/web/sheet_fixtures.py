"""Fixtures of the character sheet tests: a campaign per system, its people, two sheets.

Test modules load them with ``pytest_plugins = ["tests.web.sheet_fixtures"]``.
"""

from __future__ import annotations

import pytest

from campaigns.models import Campaign, Membership
from sheets.models import Character
from tests.web.sheet_helpers import JAGA, JULIO, sheet


@pytest.fixture
def make_campaign(gm, player, other_player):
    """A campaign of ``system`` run by ``gm`` with ``player`` and ``other_player`` in it."""

    def make(system: str, settings: dict | None = None, name: str = "Table") -> Campaign:
        campaign = Campaign.objects.create(
            name=name, system=system, gm=gm, settings={system: settings or {}}
        )
        Membership.objects.create(campaign=campaign, user=gm, role=Membership.Role.GM)
        Membership.objects.create(campaign=campaign, user=player)
        Membership.objects.create(campaign=campaign, user=other_player)
        return campaign

    return make


@pytest.fixture
def fasttest(make_campaign) -> Campaign:
    return make_campaign("fasttest", {"magic": True, "experience_dice": True})


@pytest.fixture
def caerbannog(make_campaign) -> Campaign:
    return make_campaign("caerbannog")


@pytest.fixture
def jaga(fasttest, player) -> Character:
    return Character.objects.create(
        campaign=fasttest, owner=player, name="Wiedźma Jaga", data=sheet(JAGA)
    )


@pytest.fixture
def julio(caerbannog, player) -> Character:
    return Character.objects.create(
        campaign=caerbannog, owner=player, name="Julio", data=sheet(JULIO)
    )
