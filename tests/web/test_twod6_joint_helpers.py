"""2d6 joint tests: the helpers' count stays, and a helper may be a character of the table,
named in the log (RULES.md section 5, point 4: +1 circumstance per helper, at most 4)."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from rolls.models import PendingTest, Roll
from sheets.models import Character
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


# --- A joint test the GM calls: the GM names the helpers --------------------------------------


@pytest.fixture
def crowded(make_table, other_player):
    """Nomad, Ruda and Kruk at the table."""
    table = make_table("2d6", characters=[("Nomad", NOMAD), ("Ruda", NOMAD)])
    Character.objects.create(campaign=table.campaign, owner=other_player, name="Kruk", data=NOMAD)
    return table


def call(table, **form):
    url = reverse("call_test", args=[table.campaign.pk, table.hero.pk])
    data = {"attribute": "Percepcja", "skill": "", "difficulty": "15", **form}
    return table.client(table.gm).post(url, data, HTTP_HX_REQUEST="true")


def called_test(table):
    return PendingTest.objects.get(character=table.hero)


def test_the_call_form_offers_the_other_characters_as_helpers(crowded):
    html = crowded.client(crowded.gm).get(reverse("dashboard", args=[crowded.campaign.pk]))
    text = html.content.decode()
    assert f'id="call-{crowded.hero.pk}-helper" name="helper" multiple' in text
    assert '<option value="Kruk">Kruk</option>' in text


def test_the_helpers_the_gm_names_on_the_call_are_the_called_tests(crowded):
    call(crowded, helper=["Ruda", "Kruk"])
    assert called_test(crowded).target["helper"] == ["Ruda", "Kruk"]


def test_the_players_panel_shows_the_gms_helpers_ticked_and_fixed(crowded):
    call(crowded, helper=["Ruda"])
    test = called_test(crowded)
    built = panel(crowded, pending=test.pk).context["panel"]
    html = panel(crowded, pending=test.pk).content.decode()
    assert built.params["helpers"] == 1
    assert "Helpers the GM named" in html
    assert 'value="Ruda" checked disabled' in html
    assert 'value="Kruk"' not in html


def test_a_helper_the_player_adds_to_a_called_test_is_ignored(crowded):
    call(crowded, helper=["Ruda"])
    test = called_test(crowded)
    built = panel(crowded, pending=test.pk, helper=["Ruda", "Kruk"], helpers="3").context["panel"]
    assert built.params["helpers"] == 1


def test_the_log_entry_of_the_called_joint_test_names_the_gms_helpers(crowded, dice):
    call(crowded, helper=["Ruda", "Kruk"])
    test = called_test(crowded)
    dice(3, 2)
    client = crowded.client(crowded.players[0])
    url = reverse("test_roll", args=[crowded.campaign.pk, crowded.hero.pk])
    data = {"attribute": "Percepcja", "pending": test.pk, "revision": test.revision,
            "key": str(uuid.uuid4())}  # fmt: skip
    assert client.post(url, data).status_code == 200
    entry = Roll.objects.get()
    assert in_words(entry.sources) == [
        {"kind": "circumstance", "amount": 2, "source": "2 helpers +2: Ruda, Kruk"}
    ]


def test_a_helper_who_is_not_another_character_of_the_table_is_refused_on_the_call(crowded):
    response = call(crowded, helper=["Nomad"])
    assert "A named helper must be another character of this table." in response.content.decode()
    assert not crowded.campaign.sessions.first().pending_tests.exists()


def test_a_call_without_helpers_names_none(crowded):
    call(crowded)
    test = called_test(crowded)
    assert "helper" not in test.target
    assert panel(crowded, pending=test.pk).context["panel"].params["helpers"] == 0
