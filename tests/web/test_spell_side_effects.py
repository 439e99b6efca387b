"""FastTest's spell side effects (RULES.md, "A spell's outcome"): a minor one after "Tak, ale…",
one drawn after "Nie", a serious one after "Nie, i…"; the GM's side-effect table of that kind is
offered after each (the ordinary one where the GM keeps no minor or serious table), and a roll
"after" a spell on a table not called for then is refused."""

import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from rolls import actions
from rolls.labels import render
from rolls.models import RandomTable, Roll
from tests.web.dice import Scripted
from tests.web.test_after_roll import CASTER, SETTINGS, SPELL, zarith

pytestmark = [pytest.mark.django_db, pytest.mark.table(**zarith(SETTINGS, CASTER))]

#: The d10 and d6 that give each outcome of a DUCH 5 test (success at 5 or under).
FACES = {
    "yes_and": (3, 6),
    "yes": (3, 4),
    "yes_but": (3, 1),
    "no_but": (8, 1),
    "no": (8, 4),
    "no_and": (8, 6),
}


def side_table(campaign, purpose, name=None):
    return RandomTable.objects.create(
        campaign=campaign, name=name or purpose, dice="1d6", purpose=purpose,
        rows=[[1, 3, "sparks"], [4, 5, "a cold wind"], [6, 6, "the caster's hair turns white"]],
    )  # fmt: skip


def all_three(campaign):
    return (
        side_table(campaign, "side_effect_minor"),
        side_table(campaign, "side_effect"),
        side_table(campaign, "side_effect_serious"),
    )


def cast(table, outcome, label=SPELL):
    roll, _ = actions.record_roll(
        actions.RollSpec(
            session=table.session,
            actor=table.hero.owner,
            system="fasttest",
            params={"attribute": 5},
            key=uuid.uuid4(),
            label=label,
            character=table.hero,
        ),
        rng=Scripted(*FACES[outcome]),
    )
    assert roll.result["answer"]["outcome"] == outcome
    return roll


def offered(client, table):
    client.force_login(table.campaign.gm)
    response = client.get(reverse("dashboard", args=[table.campaign.pk]))
    return [(o["roll"], o["table"], o["purpose"]) for o in response.context["table_offers"]]


def roll_table(client, table, side, after, **extra):
    client.force_login(table.campaign.gm)
    url = reverse("random_table_roll", args=[table.campaign.pk, side.pk])
    data = {"key": str(uuid.uuid4()), "visibility": "public", "after": after.pk}
    return client.post(url, data, follow=True, **extra)


# --- Which table each outcome offers ------------------------------------------------------------


def test_a_spells_tak_ale_offers_the_minor_side_effect_table(client, table):
    minor, _ordinary, _serious = all_three(table.campaign)
    spell = cast(table, "yes_but")
    assert offered(client, table) == [(spell, minor, "side_effect_minor")]


def test_a_spells_nie_offers_the_ordinary_side_effect_table(client, table):
    _minor, ordinary, _serious = all_three(table.campaign)
    spell = cast(table, "no")
    assert offered(client, table) == [(spell, ordinary, "side_effect")]


def test_a_spells_nie_i_offers_the_serious_side_effect_table(client, table):
    _minor, _ordinary, serious = all_three(table.campaign)
    spell = cast(table, "no_and")
    assert offered(client, table) == [(spell, serious, "side_effect_serious")]


@pytest.mark.parametrize("outcome", ["no_but", "yes", "yes_and"])
def test_a_spells_nie_ale_tak_and_tak_i_offer_no_side_effect_table(client, table, outcome):
    all_three(table.campaign)
    cast(table, outcome)
    assert offered(client, table) == []


# --- One table for all three --------------------------------------------------------------------


def test_without_a_minor_table_tak_ale_offers_the_ordinary_one_as_a_minor_side_effect(
    client, table
):
    ordinary = side_table(table.campaign, "side_effect")
    side_table(table.campaign, "side_effect_serious")
    spell = cast(table, "yes_but")
    assert offered(client, table) == [(spell, ordinary, "side_effect_minor")]


def test_without_a_serious_table_nie_i_offers_the_ordinary_one_as_a_serious_side_effect(
    client, table
):
    ordinary = side_table(table.campaign, "side_effect")
    side_table(table.campaign, "side_effect_minor")
    spell = cast(table, "no_and")
    assert offered(client, table) == [(spell, ordinary, "side_effect_serious")]


def test_a_minor_or_serious_table_does_not_stand_in_for_the_ordinary_one(client, table):
    side_table(table.campaign, "side_effect_minor")
    side_table(table.campaign, "side_effect_serious")
    cast(table, "no")
    assert offered(client, table) == []


def test_a_nie_of_a_test_not_marked_as_a_spell_offers_no_side_effect(client, table):
    all_three(table.campaign)
    cast(table, "no", label="DUCH 5")
    assert offered(client, table) == []


# --- What the offer and the log say -------------------------------------------------------------


def test_the_offer_names_the_minor_side_effect_in_english_and_polish(client, table):
    side_table(table.campaign, "side_effect")
    spell = cast(table, "yes_but")
    client.force_login(table.campaign.gm)
    url = reverse("random_tables_box", args=[table.campaign.pk])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    polish = client.get(url, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert f"#{spell.seq}: the rules call for a table after a spell" in english
    assert "(minor side effect)." in english
    assert "(drobny skutek uboczny)." in polish


def test_the_log_entry_of_the_side_effect_says_it_is_a_serious_one(client, table):
    ordinary = side_table(table.campaign, "side_effect", name="Side effects")
    spell = cast(table, "no_and")
    roll_table(client, table, ordinary, after=spell)
    entry = Roll.objects.get(kind="table")
    assert entry.parent == spell
    with translation.override("en"):
        assert render(entry.label_words).startswith("Table: Side effects (1d6), after a spell")
        assert render(entry.label_words).endswith("(serious side effect)")
    with translation.override("pl"):
        assert render(entry.label_words).endswith("zaklęcia (poważny skutek uboczny)")


def test_a_rolled_side_effect_is_offered_no_more(client, table):
    minor, _ordinary, _serious = all_three(table.campaign)
    spell = cast(table, "yes_but")
    assert offered(client, table) == [(spell, minor, "side_effect_minor")]
    roll_table(client, table, minor, after=spell)
    assert offered(client, table) == []


# --- A forged roll "after" a spell --------------------------------------------------------------


def test_a_forged_roll_of_the_serious_table_after_a_tak_ale_is_refused_with_a_message(
    client, table
):
    _minor, _ordinary, serious = all_three(table.campaign)
    spell = cast(table, "yes_but")
    response = roll_table(client, table, serious, after=spell)
    message = f"The rules do not call for the table “side_effect_serious” after #{spell.seq}."
    assert message in response.content.decode()
    assert not Roll.objects.filter(kind="table").exists()


def test_a_forged_roll_of_the_ordinary_table_after_a_tak_ale_with_a_minor_one_is_refused(
    client, table
):
    _minor, ordinary, _serious = all_three(table.campaign)
    spell = cast(table, "yes_but")
    response = roll_table(client, table, ordinary, after=spell, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "The rules do not call for the table “side_effect”" in response.content.decode()
    assert not Roll.objects.filter(kind="table").exists()


def test_a_side_effect_table_rolled_on_its_own_needs_no_spell(client, table):
    _minor, _ordinary, serious = all_three(table.campaign)
    client.force_login(table.campaign.gm)
    url = reverse("random_table_roll", args=[table.campaign.pk, serious.pk])
    client.post(url, {"key": str(uuid.uuid4()), "visibility": "public"})
    assert Roll.objects.get(kind="table").parent is None


# --- Marking a table ----------------------------------------------------------------------------


@pytest.mark.parametrize("purpose", ["side_effect_minor", "side_effect", "side_effect_serious"])
def test_the_gm_marks_a_table_minor_ordinary_or_serious(client, table, purpose):
    client.force_login(table.campaign.gm)
    data = {"name": "Mishaps", "dice": "1d6", "purpose": purpose, "rows": "1-6: sparks"}
    client.post(reverse("random_tables", args=[table.campaign.pk]), data)
    assert RandomTable.objects.get(name="Mishaps").purpose == purpose


def test_the_table_form_says_how_the_side_effect_tables_go_together_in_polish(client, table):
    client.force_login(table.campaign.gm)
    url = reverse("random_tables", args=[table.campaign.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "po „Tak, ale…” zaklęcia (drobny skutek uboczny)" in page
    assert "Kampania z jedną tabelą skutków ubocznych losuje z niej wszystkie trzy" in page


def test_the_fasttest_rules_page_says_which_spell_outcomes_bring_a_side_effect_in_polish(client):
    page = client.get(reverse("rules", args=["fasttest"]), HTTP_ACCEPT_LANGUAGE="pl")
    assert "Tak, ale… z drobnym skutkiem ubocznym" in page.content.decode()
    assert "Nie, i… z poważnym" in page.content.decode()
