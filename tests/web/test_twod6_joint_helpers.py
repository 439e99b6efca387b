"""2d6 joint tests: the helpers' count stays, and a helper may be a character of the table,
named in the log (RULES.md section 5, point 4: +1 circumstance per helper, at most 4)."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from rolls.models import Roll
from tests.web.test_panel_twod6 import NOMAD
from tests.web.words_helpers import in_words

pytestmark = pytest.mark.django_db


@pytest.fixture
def wasteland(make_table):
    """Nomad (the player's) and Ruda (the other player's), in a running session."""
    return make_table("2d6", characters=[("Nomad", NOMAD), ("Ruda", NOMAD)])


def panel(table, **choices):
    client = table.client(table.players[0])
    url = reverse("test_panel", args=[table.campaign.pk, table.hero.pk])
    return client.post(url, {"attribute": "Percepcja", **choices})


def test_the_panel_offers_the_other_characters_of_the_table_as_helpers(wasteland):
    context = panel(wasteland).context["panel"].context
    assert context["table_helpers"] == [("Ruda", False)]


def test_a_named_helper_counts_as_one_beside_the_helpers_count(wasteland):
    built = panel(wasteland, helpers="1", helper="Ruda").context["panel"]
    assert built.params["helpers"] == 2
    assert in_words(built.sources) == [
        {"kind": "circumstance", "amount": 2, "source": "2 helpers +2: Ruda"}
    ]


def test_a_name_that_is_no_other_character_of_the_table_is_refused(wasteland):
    built = panel(wasteland, helper="Nomad").context["panel"]
    assert not built.ready
    assert built.errors["helper"] == ["A named helper must be another character of this table."]


def test_named_helpers_count_toward_the_limit_of_four(wasteland):
    built = panel(wasteland, helpers="4", helper="Ruda").context["panel"]
    assert built.errors["helpers"] == ["A joint test takes at most 4 helpers, named ones included."]


def test_the_log_entry_names_the_helper(wasteland, dice):
    dice(3, 2)
    client = wasteland.client(wasteland.players[0])
    url = reverse("test_roll", args=[wasteland.campaign.pk, wasteland.hero.pk])
    client.post(url, {"attribute": "Percepcja", "helper": "Ruda", "key": str(uuid.uuid4())})
    entry = Roll.objects.get()
    assert in_words(entry.sources) == [
        {"kind": "circumstance", "amount": 1, "source": "1 helper +1: Ruda"}
    ]
    assert entry.params["helpers"] == 1
