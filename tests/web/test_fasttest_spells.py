"""Casting a spell in FastTest (RULES.md section 1, "Magic"): a test on any attribute the caster
marks as a spell, the standard 2-3 penalty dice, one more for each earlier similar spell of the
session counted from the log and shown with its source, then the magic die offered."""

import uuid

import pytest
from django.urls import reverse

from rolls import actions
from rolls.labels import render, source_line, words
from rolls.models import PendingTest, Roll
from tests.web.dice import Scripted
from tests.web.live import panel_url

pytestmark = pytest.mark.django_db

CASTER = {
    "attributes": {"BUDOWA": 3, "ZRĘCZNOŚĆ": 4, "UMYSŁ": 6, "DUCH": 7},
    "skills": {"WALKA": -2, "SPRAWNOŚĆ": 0, "KULTURA": 1, "TECHNIKA": 2, "PRZYRODA": 0,
               "EKWIPUNEK": -1},
    "traits": [{"name": "czarodziejka", "level": 2, "magic": True},
               {"name": "magia ognia", "level": 1, "magic": True}],
    "flaw": None, "wounds": [], "armor": 0, "magic_die": 6, "xp": 0, "experience_dice": 0,
}  # fmt: skip
KNIGHT = CASTER | {"traits": [{"name": "Rycerz", "level": 2, "magic": False}], "magic_die": None}

SETTINGS = {"magic": True, "experience_dice": True, "emanation": False}
FIREBALL = {"spell": "on", "spell_name": "Ognisty pocisk"}


def zarith(hero=CASTER, settings=SETTINGS) -> dict:
    return {
        "name": "Zarith",
        "settings": {"fasttest": settings},
        "characters": [("Wiedźma Jaga", hero)],
    }


@pytest.fixture
def caster(make_table):
    return make_table(**zarith())


def panel(client, hero, **choices):
    return client.post(panel_url(hero), choices).context["panel"]


def cast(client, hero, dice, faces=(2, 2, 2, 4), **choices):
    """Roll through the roll endpoint: by default DUCH with the fireball, difficulty 2 (three
    d10s and one d6 against chance 7)."""
    dice(*faces)
    choices = {"attribute": "DUCH", **FIREBALL, **choices}
    response = client.post(panel_url(hero, "test_roll"), {**choices, "key": str(uuid.uuid4())})
    assert response.status_code == 200, response.content.decode()[:500]
    return response


def lines(entry):
    return [source_line(source) for source in entry.sources]


# --- The spell's dice -----------------------------------------------------------------------


def test_a_spell_adds_the_standard_two_penalty_dice(client, caster, player):
    client.force_login(player)
    shown = panel(client, caster.hero, attribute="DUCH", **FIREBALL)
    plain = panel(client, caster.hero, attribute="DUCH")
    assert (plain.params["penalty"], shown.params["penalty"]) == (0, 2)
    assert [source_line(s) for s in shown.sources] == [
        "+2 penalty dice: spell difficulty (Ognisty pocisk)"
    ]


def test_the_caster_may_take_the_harder_standard_difficulty_of_three(client, caster, player):
    client.force_login(player)
    shown = panel(client, caster.hero, attribute="DUCH", spell_difficulty="3", **FIREBALL)
    assert shown.params["penalty"] == 3


@pytest.mark.parametrize("difficulty", ["0", "1", "4", "x"])
def test_a_difficulty_outside_the_standard_two_or_three_is_refused(
    client, caster, player, difficulty
):
    client.force_login(player)
    shown = panel(client, caster.hero, attribute="DUCH", spell_difficulty=difficulty, **FIREBALL)
    assert not shown.ready
    assert shown.errors["spell_difficulty"] == [
        "A spell's difficulty is the standard 2 or 3 penalty dice."
    ]


@pytest.mark.parametrize("attribute", ["BUDOWA", "ZRĘCZNOŚĆ", "UMYSŁ", "DUCH"])
def test_a_spell_may_be_cast_on_any_attribute_the_caster_marks(client, caster, player, attribute):
    client.force_login(player)
    shown = panel(client, caster.hero, attribute=attribute, skill="PRZYRODA", **FIREBALL)
    assert shown.ready
    assert (
        render(shown.label)
        == f"Spell “Ognisty pocisk”: {attribute} "
        + str(CASTER["attributes"][attribute])
        + " + PRZYRODA +0"
    )


def test_a_spell_needs_a_name(client, caster, player):
    client.force_login(player)
    shown = panel(client, caster.hero, attribute="DUCH", spell="on", spell_name="  ")
    assert shown.errors["spell_name"] == ["Name the spell, so similar spells can be counted."]


def test_a_character_without_a_magic_trait_cannot_cast(client, make_table, player):
    table = make_table(**zarith(KNIGHT))
    client.force_login(player)
    shown = panel(client, table.hero, attribute="DUCH", **FIREBALL)
    assert shown.errors["spell"] == [
        "Casting a spell needs a magic trait (Wyróżnik magiczny) on the sheet."
    ]
    assert not Roll.objects.exists()


def test_a_caster_without_a_magic_die_left_cannot_cast(client, make_table, player):
    table = make_table(**zarith(CASTER | {"magic_die": None}))
    client.force_login(player)
    shown = panel(client, table.hero, attribute="DUCH", **FIREBALL)
    assert shown.errors["spell"] == [
        "No magic die is left: no spell until a night's rest brings it back."
    ]


def test_no_spell_is_cast_in_a_campaign_without_magic(client, make_table, player):
    table = make_table(**zarith(settings=SETTINGS | {"magic": False}))
    client.force_login(player)
    shown = panel(client, table.hero, attribute="DUCH", **FIREBALL)
    assert shown.errors["spell"] == [
        "This campaign plays without magic: there are no spells to cast."
    ]


def test_a_refused_spell_is_not_rolled(client, make_table, player, dice):
    table = make_table(**zarith(KNIGHT))
    client.force_login(player)
    dice(2, 4)
    choices = {"attribute": "DUCH", **FIREBALL, "key": str(uuid.uuid4())}
    response = client.post(panel_url(table.hero, "test_roll"), choices)
    assert response.status_code == 422
    assert not Roll.objects.exists()


def test_the_panel_offers_a_caster_to_cast_a_spell(client, caster, player):
    client.force_login(player)
    assert 'name="spell"' in client.post(panel_url(caster.hero), {}).content.decode()


def test_the_panel_offers_no_spell_to_a_character_without_magic(client, make_table, player):
    knight = make_table(**zarith(KNIGHT)).hero
    client.force_login(player)
    assert 'name="spell"' not in client.post(panel_url(knight), {}).content.decode()


# --- The uniqueness rule: earlier similar spells, from the log ------------------------------------


def test_each_earlier_similar_spell_of_the_session_adds_a_penalty_die(client, caster, player, dice):
    client.force_login(player)
    cast(client, caster.hero, dice)
    cast(client, caster.hero, dice, faces=(2, 2, 2, 2, 4))
    first, second = Roll.objects.order_by("seq")
    shown = panel(client, caster.hero, attribute="DUCH", **FIREBALL)
    assert shown.params["penalty"] == 4
    assert [source_line(s) for s in shown.sources] == [
        "+2 penalty dice: spell difficulty (Ognisty pocisk)",
        f"+2 penalty dice: similar spells earlier this session (#{first.seq}, #{second.seq})",
    ]


def test_the_second_spell_logs_its_similar_spell_with_its_source(client, caster, player, dice):
    client.force_login(player)
    cast(client, caster.hero, dice)
    cast(client, caster.hero, dice, faces=(2, 2, 2, 2, 4))
    first, second = Roll.objects.order_by("seq")
    assert second.params["penalty"] == 3
    assert lines(second) == [
        "+2 penalty dice: spell difficulty (Ognisty pocisk)",
        f"+1 penalty die: similar spells earlier this session (#{first.seq})",
    ]


def test_a_similar_spell_is_the_same_name_whatever_its_letter_case_and_spaces(
    client, caster, player, dice
):
    client.force_login(player)
    cast(client, caster.hero, dice)
    shown = panel(client, caster.hero, attribute="UMYSŁ", spell="on", spell_name=" ognisty  POCISK")
    assert shown.params["penalty"] == 3


def test_a_different_spell_adds_no_penalty_die_but_is_listed(client, caster, player, dice):
    client.force_login(player)
    cast(client, caster.hero, dice)
    response = client.post(
        panel_url(caster.hero), {"attribute": "DUCH", "spell": "on", "spell_name": "Leczenie"}
    )
    shown = response.context["panel"]
    assert shown.params["penalty"] == 2
    assert [(s.name, s.similar) for s in shown.context["earlier_spells"]] == [
        ("Ognisty pocisk", False)
    ]
    assert "#1 Ognisty pocisk" in response.content.decode()


def test_the_panel_marks_the_earlier_similar_spell(client, caster, player, dice):
    client.force_login(player)
    cast(client, caster.hero, dice)
    html = client.post(panel_url(caster.hero), {"attribute": "DUCH", **FIREBALL}).content.decode()
    assert "#1 Ognisty pocisk (similar: +1 penalty die)" in html


def test_a_plain_test_on_duch_is_no_spell_and_counts_for_none(client, caster, player, dice):
    client.force_login(player)
    dice(2, 4)
    client.post(
        panel_url(caster.hero, "test_roll"), {"attribute": "DUCH", "key": str(uuid.uuid4())}
    )
    shown = panel(client, caster.hero, attribute="DUCH", **FIREBALL)
    assert shown.params["penalty"] == 2


def test_spells_of_an_earlier_session_do_not_count(client, caster, gm, player, dice):
    client.force_login(player)
    cast(client, caster.hero, dice)
    client.force_login(gm)
    campaign = caster.campaign
    client.post(reverse("session_end", args=[campaign.pk, caster.session.pk]), {"confirm": "yes"})
    client.post(reverse("session_start", args=[campaign.pk]))
    client.force_login(player)
    shown = panel(client, caster.hero, attribute="DUCH", **FIREBALL)
    assert shown.params["penalty"] == 2


def test_another_casters_spell_does_not_count(client, make_table, player, other_player, dice):
    table = make_table(
        name="Zarith",
        settings={"fasttest": SETTINGS},
        characters=[("Wiedźma Jaga", CASTER), ("Zaklinacz", CASTER)],
    )
    jaga, other = table.characters
    client.force_login(other.owner)
    cast(client, other, dice)
    client.force_login(jaga.owner)
    assert panel(client, jaga, attribute="DUCH", **FIREBALL).params["penalty"] == 2


# --- The log entry and the magic die ------------------------------------------------------------


def test_the_log_entry_names_the_spell_and_its_test(client, caster, player, dice):
    client.force_login(player)
    cast(client, caster.hero, dice, skill="PRZYRODA")
    entry = Roll.objects.get()
    html = client.get(reverse("session_log", args=[caster.campaign.pk])).content.decode()
    assert render(entry.label_data) == "Spell “Ognisty pocisk”: DUCH 7 + PRZYRODA +0"
    assert "Spell “Ognisty pocisk”: DUCH 7 + PRZYRODA +0" in html
    assert "+2 penalty dice: spell difficulty (Ognisty pocisk)" in html


def test_the_rolled_spell_offers_the_magic_die(client, caster, player, dice):
    client.force_login(player)
    response = cast(client, caster.hero, dice)
    assert [f.kind for f in response.context["follow_ups"]] == ["magic_die"]
    assert "Roll the magic die (Kość magii) d6" in response.content.decode()


def test_a_plain_duch_test_offers_no_magic_die(client, caster, player, dice):
    client.force_login(player)
    dice(2, 4)
    url = panel_url(caster.hero, "test_roll")
    response = client.post(url, {"attribute": "DUCH", "key": str(uuid.uuid4())})
    assert response.context["follow_ups"] == []


def test_a_spell_on_budowa_is_followed_by_its_magic_die(client, caster, player, dice):
    client.force_login(player)
    cast(client, caster.hero, dice, faces=(1, 1, 1, 4), attribute="BUDOWA")
    spell = Roll.objects.get()
    dice(1)
    url = reverse(
        "test_follow_up", args=[caster.campaign.pk, caster.hero.pk, spell.pk, "magic_die"]
    )
    client.post(url, {"key": str(uuid.uuid4())})
    magic = Roll.objects.get(kind="magic_die")
    caster.hero.refresh_from_db()
    assert magic.parent == spell
    assert caster.hero.data["magic_die"] == 4


# --- The GM calls for a spell -----------------------------------------------------------------

HX = {"HTTP_HX_REQUEST": "true"}


def call(client, table, **form):
    url = reverse("call_test", args=[table.campaign.pk, table.hero.pk])
    return client.post(url, {"attribute": "DUCH", "skill": "", **form}, **HX)


def called(table):
    return PendingTest.objects.get(character=table.hero, status="open")


def test_the_call_form_offers_a_spell_for_a_caster(client, caster, gm):
    client.force_login(gm)
    html = client.get(reverse("dashboard", args=[caster.campaign.pk])).content.decode()
    assert 'name="spell_difficulty"' in html
    assert "spell, 0 penalty dice" in html


def test_the_call_forms_spell_of_one_penalty_die_reads_in_the_singular(client, caster, gm):
    client.force_login(gm)
    url = reverse("dashboard", args=[caster.campaign.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "spell, 1 penalty die<" in html
    assert "spell, 1 penalty dice" not in html
    polish = client.get(url, HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "zaklęcie, 1 kość karna<" in polish
    assert "zaklęcie, 3 kości karne<" in polish


def test_the_call_form_offers_no_spell_for_a_character_without_magic(client, make_table, gm):
    table = make_table(**zarith(KNIGHT))
    client.force_login(gm)
    html = client.get(reverse("dashboard", args=[table.campaign.pk])).content.decode()
    assert 'name="spell_difficulty"' not in html


def test_the_gm_calls_a_spell_easier_than_the_standard(client, caster, gm, player):
    client.force_login(gm)
    call(client, caster, spell_difficulty="1")
    test = called(caster)
    assert test.target["spell_difficulty"] == 1
    client.force_login(player)
    shown = panel(client, caster.hero, pending=test.pk, spell_name="Leczenie")
    assert shown.params["penalty"] == 1
    assert shown.context["spell_fixed"] is True


def test_the_player_cannot_change_the_difficulty_the_gm_called(client, caster, gm, player):
    client.force_login(gm)
    call(client, caster, spell_difficulty="0")
    test = called(caster)
    client.force_login(player)
    forged = {"spell": "", "spell_difficulty": "3", "spell_name": "Leczenie"}
    shown = panel(client, caster.hero, pending=test.pk, **forged)
    assert shown.params["penalty"] == 0
    assert render(shown.label) == "Spell “Leczenie”: DUCH 7"


def test_a_called_spell_is_rolled_named_and_followed_by_the_magic_die(
    client, caster, gm, player, dice
):
    client.force_login(gm)
    call(client, caster, spell_difficulty="3")
    test = called(caster)
    client.force_login(player)
    dice(1, 1, 1, 1, 4)
    form = {"pending": test.pk, "revision": test.revision, "spell_name": "Burza"}
    response = client.post(panel_url(caster.hero, "test_roll"), {**form, "key": str(uuid.uuid4())})
    roll = Roll.objects.get()
    assert lines(roll) == ["+3 penalty dice: spell difficulty (Burza)"]
    assert [f.kind for f in response.context["follow_ups"]] == ["magic_die"]


@pytest.mark.parametrize("value", ["4", "-1", "x"])
def test_a_called_spell_difficulty_out_of_range_is_refused(client, caster, gm, value):
    client.force_login(gm)
    call(client, caster, spell_difficulty=value)
    assert not PendingTest.objects.exists()


def test_a_spell_cannot_be_called_for_a_character_without_magic(client, make_table, gm):
    table = make_table(**zarith(KNIGHT))
    client.force_login(gm)
    call(client, table, spell_difficulty="2")
    assert not PendingTest.objects.exists()


def test_a_spell_the_gm_rolled_hidden_is_neither_counted_nor_shown(client, caster, gm, player):
    actions.record_roll(
        actions.RollSpec(
            session=caster.session,
            actor=gm,
            system="fasttest",
            params={"attribute": 7},
            key=uuid.uuid4(),
            label=words("spell_test", name="Ognisty pocisk", test="DUCH 7"),
            character=caster.hero,
            visibility="hidden",
        ),
        rng=Scripted(2, 4),
    )
    client.force_login(player)
    response = client.post(panel_url(caster.hero), {"attribute": "DUCH", **FIREBALL})
    assert response.context["panel"].params["penalty"] == 2
    assert "Earlier spells of this session" not in response.content.decode()


def test_the_players_own_secret_spell_counts(client, caster, player, dice):
    client.force_login(player)
    cast(client, caster.hero, dice, visibility="secret")
    assert Roll.objects.get().visibility == "secret"
    assert panel(client, caster.hero, attribute="DUCH", **FIREBALL).params["penalty"] == 3
