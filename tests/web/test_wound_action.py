"""One validated way to add a wound (``rolls.systems.fasttest.sheet_actions.add_wound``), on
every path that adds one: the sheet's form, the combat wound the GM applies, and ignoring wounds
in a test."""

from __future__ import annotations

import copy
import uuid

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.sessions import start_session
from rolls import actions
from rolls.models import PendingTest, Roll
from rolls.systems.fasttest import sheet_actions
from rolls.systems.fasttest.models import AppliedWound
from sheets.models import Character
from tests.web.live import panel_url, seat

pytestmark = pytest.mark.django_db

HERO = {
    "attributes": {"BUDOWA": 6, "ZRĘCZNOŚĆ": 5, "UMYSŁ": 5, "DUCH": 4},
    "skills": {"WALKA": 2, "SPRAWNOŚĆ": 1, "KULTURA": -1, "TECHNIKA": -2, "PRZYRODA": 0,
               "EKWIPUNEK": 0},
    "traits": [{"name": "Rycerz", "level": 2, "magic": False},
               {"name": "szermierka", "level": 1, "magic": False}],
    "flaw": None,
    "wounds": [{"label": "pchnięcie", "severity": "heavy", "bandaged": False}],
    "armor": 0, "magic_die": None, "xp": 0, "experience_dice": 0,
}  # fmt: skip

FULL = [{"label": f"w{i}", "severity": "light", "bandaged": False} for i in range(20)]
#: A wound the schema refuses (no such severity), forged into the stored sheet: not the fault
#: of the next wound, which still goes on.
FORGED = [{"label": "pchnięcie", "severity": "heavy", "bandaged": False},
          {"label": "ugryzienie", "severity": "nasty", "bandaged": False}]  # fmt: skip


class Scripted:
    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, low: int, high: int) -> int:
        return self.faces.pop(0)


@pytest.fixture
def table(gm, player, other_player):
    campaign = Campaign.objects.create(
        name="Zarith", system="fasttest", gm=gm, settings={"fasttest": {"magic": True}}
    )
    seat(campaign, gm, player, other_player)
    hero = Character.objects.create(
        campaign=campaign, owner=player, name="Brunhilda", data=copy.deepcopy(HERO)
    )
    return campaign, hero, start_session(campaign)


def with_wounds(hero, wounds):
    Character.objects.filter(pk=hero.pk).update(data={**hero.data, "wounds": wounds})
    hero.refresh_from_db()
    return hero


def by_the_form(client, campaign, hero, session):
    client.force_login(campaign.gm)
    url = reverse("character_wound_add", args=[campaign.pk, hero.pk])
    return client.post(
        url, {"wound_label": "cut", "wound_severity": "light"}, HTTP_HX_REQUEST="true"
    )


def by_a_combat_wound(client, campaign, hero, session):
    """The GM applies the wound of a failed combat test (8 on the d10 against chance 6)."""
    roll, _ = actions.record_roll(
        actions.RollSpec(
            session=session,
            actor=hero.owner,
            system="fasttest",
            params={"attribute": 6},
            key=uuid.uuid4(),
            label="BUDOWA 6",
            character=hero,
        ),
        rng=Scripted(8, 4),
    )
    PendingTest.objects.create(
        session=session, character=hero, called_by=campaign.gm, target={"attribute": "BUDOWA"},
        modifiers={"combat": True}, status=PendingTest.Status.ROLLED, roll=roll,
    )  # fmt: skip
    client.force_login(campaign.gm)
    url = reverse("apply_wound", args=[campaign.pk, roll.pk])
    return client.post(
        url, {"player_weapon": "hand", "enemy_weapon": "hand"}, HTTP_HX_REQUEST="true"
    )


def by_ignoring_wounds(client, campaign, hero, session):
    client.force_login(hero.owner)
    choices = {"attribute": "BUDOWA", "ignore_wounds": "on", "key": str(uuid.uuid4())}
    return client.post(panel_url(hero, "test_roll"), choices)


PATHS = [by_the_form, by_a_combat_wound, by_ignoring_wounds]


@pytest.mark.parametrize("add", PATHS, ids=lambda add: add.__name__)
def test_every_path_adds_the_wound_to_the_sheet(client, table, add):
    campaign, hero, session = table
    add(client, campaign, hero, session)
    hero.refresh_from_db()
    assert len(hero.data["wounds"]) == 2


@pytest.mark.parametrize("add", PATHS, ids=lambda add: add.__name__)
def test_a_wound_past_the_sheets_twenty_is_refused_with_a_message_on_every_path(client, table, add):
    campaign, hero, session = table
    with_wounds(hero, FULL)
    response = add(client, campaign, hero, session)
    hero.refresh_from_db()
    assert "already holds 20 wounds" in response.content.decode()
    assert hero.data["wounds"] == FULL
    assert not AppliedWound.objects.exists()


@pytest.mark.parametrize("add", PATHS, ids=lambda add: add.__name__)
def test_a_sheet_outside_its_schema_elsewhere_still_takes_the_wound_on_every_path(
    client, table, add
):
    campaign, hero, session = table
    with_wounds(hero, FORGED)
    add(client, campaign, hero, session)
    hero.refresh_from_db()
    assert hero.data["wounds"][:2] == FORGED
    assert len(hero.data["wounds"]) == 3


def test_a_refused_wound_from_ignoring_wounds_logs_no_roll(client, table):
    campaign, hero, session = table
    with_wounds(hero, FULL)
    by_ignoring_wounds(client, campaign, hero, session)
    assert not Roll.objects.exists()


def test_the_wound_action_answers_its_errors_by_form_field(table):
    _campaign, hero, _session = table
    errors = sheet_actions.add_wound(hero, "cut", "nasty")
    assert list(errors) == ["wound_severity"]


def test_a_wound_label_beyond_the_schema_is_refused_with_a_message(table):
    _campaign, hero, _session = table
    errors = sheet_actions.add_wound(hero, "x" * 61, "light")
    assert errors == {"wound_label": ["Keep the label to 60 characters."]}
    hero.refresh_from_db()
    assert len(hero.data["wounds"]) == 1


def test_the_wound_action_leaves_the_callers_character_showing_the_saved_sheet(table):
    _campaign, hero, _session = table
    sheet_actions.add_wound(hero, "cut", "light")
    assert hero.data["wounds"][-1] == {"label": "cut", "severity": "light", "bandaged": False}
