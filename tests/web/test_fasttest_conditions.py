"""FastTest's conditions (issue 15; RULES.md section 1): the wound test's reading and the magic
die dropping from d4 set the character's state, the waking test ends being unconscious, and the
GM's penalty dice lasting beyond one test join every panel's sources."""

import json
import re
import uuid
from html import unescape

import pytest
from django.urls import reverse
from django.utils import translation

from rolls.conditions import actions as conditions
from rolls.labels import render
from rolls.models import Condition, PendingTest, Roll
from rolls.systems.fasttest import states
from tests.web.dice import deal
from tests.web.live import panel_url
from tests.web.test_after_roll import (
    CASTER,
    SPELL,
    magic_via_panel,
    roll_wound_test,
    rolled,
    wound,
    zarith,
)
from tests.web.words_helpers import in_words

pytestmark = [pytest.mark.django_db, pytest.mark.table(**zarith())]


def states_of(character) -> list[str]:
    return [c.preset for c in Condition.objects.filter(character=character, cleared_entry=None)]


def wounded_and_tested(client, monkeypatch, table, gm, player, enemy_weapon, *faces):
    """Brunhilda loses a fight against ``enemy_weapon`` and rolls the wound test on ``faces``."""
    roll = rolled(table.session, table.hero, "no")
    client.force_login(gm)
    wound(client, table.campaign, roll, "hand", enemy_weapon)
    return roll_wound_test(client, monkeypatch, table.campaign, table.hero, player, *faces)


def sheet_html(client, character) -> str:
    url = reverse("character_detail", args=[character.campaign_id, character.pk])
    return client.get(url).content.decode()


def party_html(client, campaign) -> str:
    return client.get(reverse("dashboard_party", args=[campaign.pk])).content.decode()


def add_preset(client, table, key, character=None):
    url = reverse("add_condition", args=[table.campaign.pk, (character or table.hero).pk])
    return client.post(url, {"preset": key}, HTTP_HX_REQUEST="true")


def test_a_failed_wound_test_on_a_heavy_wound_leaves_the_character_unconscious(
    client, monkeypatch, table, gm, player
):
    # BUDOWA 7, the bandaged light wound and the new heavy one: three d10 and one d6, all failing.
    applied = wounded_and_tested(client, monkeypatch, table, gm, player, "hand", 9, 9, 9, 4)
    state = Condition.objects.get(character=table.hero)
    assert (state.preset, state.source) == ("ft_unconscious", applied.wound_test.roll)
    assert state.added_entry.kind == "condition"
    assert "unconscious (nieprzytomny)" in in_words(state.added_entry.label_words)


def test_a_passed_wound_test_leaves_the_character_conscious_without_a_state(
    client, monkeypatch, table, gm, player
):
    wounded_and_tested(client, monkeypatch, table, gm, player, "hand", 1, 2, 3, 4)
    assert states_of(table.hero) == []


def test_a_failed_wound_test_on_a_deadly_wound_leaves_the_character_dead(
    client, monkeypatch, table, gm, player
):
    wounded_and_tested(client, monkeypatch, table, gm, player, "heavy", 9, 9, 9, 4)
    assert states_of(table.hero) == ["ft_dead"]


def test_a_passed_wound_test_on_a_deadly_wound_leaves_the_character_alive_but_unconscious(
    client, monkeypatch, table, gm, player
):
    wounded_and_tested(client, monkeypatch, table, gm, player, "heavy", 1, 2, 3, 4)
    assert states_of(table.hero) == ["ft_unconscious"]


def test_dying_ends_being_unconscious_and_the_log_says_why(client, monkeypatch, table, gm, player):
    client.force_login(gm)
    add_preset(client, table, "ft_unconscious")
    wounded_and_tested(client, monkeypatch, table, gm, player, "heavy", 9, 9, 9, 4)
    cleared = Condition.objects.get(preset="ft_unconscious")
    assert states_of(table.hero) == ["ft_dead"]
    assert "the character died" in in_words(cleared.cleared_entry.label_words)


def test_the_state_shows_on_the_sheet_and_the_party_card(client, monkeypatch, table, gm, player):
    wounded_and_tested(client, monkeypatch, table, gm, player, "hand", 9, 9, 9, 4)
    client.force_login(player)
    assert "state: unconscious (nieprzytomny)" in sheet_html(client, table.hero)
    client.force_login(gm)
    assert "state: unconscious (nieprzytomny)" in party_html(client, table.campaign)


def test_the_gm_clears_a_state_by_hand(client, monkeypatch, table, gm, player):
    wounded_and_tested(client, monkeypatch, table, gm, player, "hand", 9, 9, 9, 4)
    state = Condition.objects.get(character=table.hero)
    client.force_login(gm)
    client.post(reverse("clear_condition", args=[table.campaign.pk, state.pk]))
    assert states_of(table.hero) == []


# --- The magic die and the waking test -----------------------------------------------------------


@pytest.fixture
def caster(make_table):
    return make_table(**zarith(hero=CASTER | {"magic_die": 4}))


def exhausted(client, monkeypatch, caster, player) -> Condition:
    spell = rolled(caster.session, caster.hero, "yes", label=SPELL)
    client.force_login(player)
    magic_via_panel(client, caster.campaign, caster.hero, spell, 1, monkeypatch=monkeypatch)
    return Condition.objects.get(character=caster.hero, cleared_entry=None)


def test_a_d4_dropping_leaves_the_caster_unconscious_from_exhaustion(
    client, monkeypatch, caster, player
):
    state = exhausted(client, monkeypatch, caster, player)
    assert (state.preset, state.source.kind) == ("ft_exhausted", "magic_die")


def test_the_gms_magic_die_from_the_strip_leaves_the_same_state(client, monkeypatch, caster, gm):
    spell = rolled(caster.session, caster.hero, "yes", label=SPELL)
    client.force_login(gm)
    deal(monkeypatch, 1)
    url = reverse("gm_magic_die", args=[caster.campaign.pk, spell.pk])
    client.post(url, {"key": str(uuid.uuid4())}, HTTP_HX_REQUEST="true")
    assert states_of(caster.hero) == ["ft_exhausted"]


def test_a_caster_already_unconscious_is_not_made_so_twice(client, monkeypatch, caster, gm):
    client.force_login(gm)
    add_preset(client, caster, "ft_unconscious")
    spell = rolled(caster.session, caster.hero, "yes", label=SPELL)
    deal(monkeypatch, 1)
    url = reverse("gm_magic_die", args=[caster.campaign.pk, spell.pk])
    client.post(url, {"key": str(uuid.uuid4())}, HTTP_HX_REQUEST="true")
    assert states_of(caster.hero) == ["ft_unconscious"]


def test_a_magic_die_that_holds_leaves_no_state(client, monkeypatch, caster, player):
    spell = rolled(caster.session, caster.hero, "yes", label=SPELL)
    client.force_login(player)
    magic_via_panel(client, caster.campaign, caster.hero, spell, 3, monkeypatch=monkeypatch)
    assert states_of(caster.hero) == []


def test_the_sheet_offers_both_waking_tests_in_one_click(client, monkeypatch, caster, player):
    state = exhausted(client, monkeypatch, caster, player)
    html = sheet_html(client, caster.hero)
    assert "Waking test: DUCH + SPRAWNOŚĆ" in html
    assert "Waking test: BUDOWA + SPRAWNOŚĆ" in html
    rolls = [json.loads(unescape(found)) for found in re.findall(r'data-roll="([^"]*)"', html)]
    opened = {"skill": "SPRAWNOŚĆ", "attempt": str(state.pk)}
    assert opened | {"attribute": "DUCH"} in rolls
    assert opened | {"attribute": "BUDOWA"} in rolls


def test_the_waking_panel_shows_the_state_and_its_box_ticked(client, monkeypatch, caster, player):
    state = exhausted(client, monkeypatch, caster, player)
    form = {"attribute": "DUCH", "skill": "SPRAWNOŚĆ", "attempt": str(state.pk)}
    response = client.get(panel_url(caster.hero), form)
    html = response.content.decode()
    assert response.context["panel"].ready
    assert f'name="attempt" value="{state.pk}" checked' in html
    assert "state: unconscious from exhaustion" in html


def roll_waking(client, caster, state, attribute="DUCH", skill="SPRAWNOŚĆ"):
    form = {"attribute": attribute, "skill": skill, "attempt": str(state.pk)}
    return client.post(panel_url(caster.hero, "test_roll"), {**form, "key": str(uuid.uuid4())})


def test_a_successful_waking_test_wakes_the_caster(client, monkeypatch, caster, player, dice):
    state = exhausted(client, monkeypatch, caster, player)
    dice(3, 4)  # DUCH 7 + SPRAWNOŚĆ 0: 3 is a success
    roll_waking(client, caster, state)
    state.refresh_from_db()
    assert not state.active
    assert "succeeded" in in_words(state.cleared_entry.label_words)


def test_a_failed_waking_test_leaves_the_caster_unconscious(
    client, monkeypatch, caster, player, dice
):
    state = exhausted(client, monkeypatch, caster, player)
    dice(9, 4)
    roll_waking(client, caster, state)
    state.refresh_from_db()
    assert state.active


def test_a_waking_test_of_another_attribute_is_refused_and_rolls_nothing(
    client, monkeypatch, caster, player
):
    state = exhausted(client, monkeypatch, caster, player)
    before = Roll.objects.count()
    response = roll_waking(client, caster, state, attribute="UMYSŁ")
    assert "The waking test is DUCH + SPRAWNOŚĆ or BUDOWA + SPRAWNOŚĆ" in response.content.decode()
    assert Roll.objects.count() == before


def test_a_forged_waking_box_is_refused_with_a_message(client, caster, player):
    client.force_login(player)
    form = {"attribute": "DUCH", "skill": "SPRAWNOŚĆ", "attempt": "999999"}
    panel = client.post(panel_url(caster.hero), form).context["panel"]
    assert "That condition is no longer on the sheet" in " ".join(panel.errors["attempt"])


def test_the_waking_test_uses_the_skill_renamed_in_sprawnoscs_place(
    make_table, client, monkeypatch, player
):
    skills = ["WALKA", "ATLETYKA", "KULTURA", "MAGIA", "PRZYRODA", "EKWIPUNEK"]
    settings = {"magic": True, "experience_dice": False, "emanation": False, "skills": skills}
    hero = CASTER | {"magic_die": 4, "skills": dict(zip(skills, [-2, 0, 1, 2, 0, -1], strict=True))}
    caster = make_table(**zarith(settings, hero))
    exhausted(client, monkeypatch, caster, player)
    assert "Waking test: BUDOWA + ATLETYKA" in sheet_html(client, caster.hero)


# --- Penalty dice lasting beyond one test --------------------------------------------------------


def test_the_gms_list_offers_the_states_and_the_rules_penalty_dice(client, table, gm):
    client.force_login(gm)
    html = party_html(client, table.campaign)
    for name in ("unconscious (nieprzytomny)", "dead (martwy)", "a flaw hinders (Wada)"):
        assert name in html


def test_a_penalty_condition_is_penalty_dice_among_the_sources(client, table, gm, player):
    client.force_login(gm)
    add_preset(client, table, "ft_hard_scene")
    client.force_login(player)
    panel = client.post(panel_url(table.hero), {"attribute": "BUDOWA"}).context["panel"]
    # The bandaged light wound still counts once on BUDOWA, as a wound, not as a condition.
    assert (panel.params["penalty"], panel.params["wounds"]) == (2, 1)
    lines = [entry for entry in in_words(panel.sources) if entry["kind"] == "penalty"]
    assert [entry["amount"] for entry in lines] == [1, 2]
    assert "hard circumstances: 2 penalty dice (condition, #" in lines[1]["source"]


def test_a_state_adds_no_dice(client, table, gm, player):
    client.force_login(gm)
    add_preset(client, table, "ft_unconscious")
    client.force_login(player)
    panel = client.post(panel_url(table.hero), {"attribute": "UMYSŁ"}).context["panel"]
    assert (panel.params["penalty"], panel.params["bonus"]) == (0, 0)


def test_the_gms_typed_penalty_dice_shape_only_their_attributes_tests(client, table, gm, player):
    client.force_login(gm)
    typed = {"name": "oślepiony", "effect": "penalty", "amount": "3", "scope": "attribute",
             "scope_name": "ZRĘCZNOŚĆ", "lasts": "hand", "ends_with": ""}  # fmt: skip
    url = reverse("add_condition", args=[table.campaign.pk, table.hero.pk])
    client.post(url, typed, HTTP_HX_REQUEST="true")
    client.force_login(player)
    tested = client.post(panel_url(table.hero), {"attribute": "ZRĘCZNOŚĆ"}).context["panel"]
    other = client.post(panel_url(table.hero), {"attribute": "UMYSŁ"}).context["panel"]
    assert (tested.params["penalty"], other.params["penalty"]) == (3, 0)


@pytest.mark.parametrize(
    ("amount", "message"),
    [("0", "changes nothing"), ("11", "is from 1 to 10"), ("x", "whole number")],
)
def test_wrong_penalty_dice_are_refused_with_the_reason(client, table, gm, amount, message):
    client.force_login(gm)
    typed = {"name": "mgła", "effect": "penalty", "amount": amount, "scope": "all",
             "scope_name": "", "lasts": "hand", "ends_with": ""}  # fmt: skip
    url = reverse("add_condition", args=[table.campaign.pk, table.hero.pk])
    response = client.post(url, typed, HTTP_HX_REQUEST="true")
    assert response.status_code in (409, 422)
    assert message in response.content.decode()
    assert states_of(table.hero) == []


def test_a_flaw_is_used_up_by_the_next_test(client, table, gm, player, dice):
    client.force_login(gm)
    add_preset(client, table, "ft_flaw")
    client.force_login(player)
    dice(1, 1, 4, 4)
    client.post(
        panel_url(table.hero, "test_roll"), {"attribute": "UMYSŁ", "key": str(uuid.uuid4())}
    )
    assert states_of(table.hero) == []


def test_a_wound_test_is_not_shaped_by_conditions(client, monkeypatch, table, gm, player):
    client.force_login(gm)
    add_preset(client, table, "ft_hard_scene")
    roll = rolled(table.session, table.hero, "no")
    wound(client, table.campaign, roll, "hand", "hand")
    test = Condition.objects.get(preset="ft_hard_scene")
    client.force_login(player)
    pending = PendingTest.objects.get(status="open")
    panel = client.get(panel_url(table.hero), {"pending": pending.pk}).context["panel"]
    assert panel.params["penalty"] == 0
    assert test.active


def test_the_sheet_shows_fasttests_conditions_box(client, table, player):
    client.force_login(player)
    assert 'id="sheet-conditions"' in sheet_html(client, table.hero)


def test_a_state_and_its_waking_test_read_in_polish(client, monkeypatch, caster, player):
    state = exhausted(client, monkeypatch, caster, player)
    with translation.override("pl"):
        line = conditions.line(state)
        waking = render(states.waking_tests(state, ["WALKA", "SPRAWNOŚĆ"])[0]["label"])
    assert line.startswith("stan: nieprzytomny z wyczerpania (")
    assert waking == "Odzyskanie przytomności: DUCH + SPRAWNOŚĆ"


def test_the_sheet_costs_no_more_queries_with_three_conditions_than_with_one(
    client, table, gm, player
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries_of_the_sheet() -> int:
        client.force_login(player)
        sheet_html(client, table.hero)  # the login's own writes are not the sheet's
        with CaptureQueriesContext(connection) as asked:
            assert "sheet-conditions" in sheet_html(client, table.hero)
        return len(asked)

    client.force_login(gm)
    add_preset(client, table, "ft_hard_scene")
    one = queries_of_the_sheet()
    client.force_login(gm)
    add_preset(client, table, "ft_unconscious")
    add_preset(client, table, "ft_exhausted")
    assert len(states_of(table.hero)) == 3
    assert queries_of_the_sheet() == one
