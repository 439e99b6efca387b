"""Each GM operation reads its POST through a Django form that refuses a forged value with the
operation's own sentence (rolls.pending.forms, rolls.forms, rolls.dashboard.npc_rolls)."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

import pytest
from django.http import QueryDict
from django.urls import reverse
from django.utils import translation

from rolls import forms as gm_forms
from rolls.dashboard import npc_rolls
from rolls.models import Roll
from rolls.panels import Limit
from rolls.pending import forms as pending_forms
from rolls.systems.fasttest.gm_forms import WoundForm
from rolls.tables.quick_dice import read_form
from tests.web.test_random_tables import TABLE, weather

NUL = "a\x00b"


def post(**fields) -> QueryDict:
    data = QueryDict(mutable=True)
    for name, value in fields.items():
        data.setlist(name, value if isinstance(value, list) else [value])
    return data


def change(form_class, data, modifiers=None, limits=None):
    pending = SimpleNamespace(modifiers=modifiers or {}, target={})
    form = form_class(data, pending=pending, limits=limits or {})
    return form, pending


def refusal(form_class, data, **kwargs) -> str:
    form, _pending = change(form_class, data, **kwargs)
    assert not form.is_valid()
    return form.refusal()


# --- Changes to a pending test ------------------------------------------------------------------


def test_a_forged_kind_of_modifier_is_refused():
    data = post(kind="curse", amount="2", source="ciemność")
    assert refusal(pending_forms.AddDiceForm, data) == "Unknown kind of modifier."


def test_posted_dice_are_read_as_the_number_an_action_gives():
    form, pending = change(
        pending_forms.AddDiceForm, post(kind="penalty", amount=" 2 ", source=" mgła ")
    )
    assert form.is_valid()
    form.apply()
    assert pending.modifiers["dice"] == [{"kind": "penalty", "amount": 2, "source": "mgła"}]


def test_text_for_a_number_of_dice_is_refused_with_the_range():
    data = post(kind="bonus", amount="two", source="lampa")
    assert refusal(pending_forms.AddDiceForm, data) == "A number of dice must be from 1 to 20."


def test_a_kinds_amount_is_checked_against_the_systems_range_for_it():
    limits = {"penalty": Limit(1, 3, "From %(low)s to %(high)s.")}
    data = post(kind="penalty", amount="4", source="lód")
    assert refusal(pending_forms.AddDiceForm, data, limits=limits) == "From 1 to 3."


def test_a_posted_source_is_text_even_when_it_looks_like_the_apps_words():
    form, pending = change(
        pending_forms.AddDiceForm, post(kind="bonus", amount="1", source='{"w": "armor"}')
    )
    assert form.is_valid()
    assert form.cleaned_data["source"] == '{"w": "armor"}'


def test_a_nul_in_the_source_is_refused_with_the_one_text_rule():
    message = refusal(pending_forms.AddDiceForm, post(kind="bonus", amount="1", source=NUL))
    assert "Null characters" not in message  # the app's sentence, not Django's
    assert message


def test_a_full_test_takes_no_more_modifiers():
    full = {"dice": [{"kind": "bonus", "amount": 1, "source": "x"}] * 20}
    form, _pending = change(
        pending_forms.AddDiceForm, post(kind="bonus", amount="1", source="y"), modifiers=full
    )
    assert form.is_valid()
    with pytest.raises(Exception, match="as many modifiers as one test can hold"):
        form.apply()


def test_a_modifier_no_longer_there_is_refused():
    modifiers = {"dice": [{"kind": "bonus", "amount": 1, "source": "x"}]}
    message = refusal(pending_forms.RemoveDiceForm, post(index="1"), modifiers=modifiers)
    assert message == "That modifier is no longer there; look again."


def test_an_empty_number_clears_it():
    set_difficulty = pending_forms.OPERATIONS["set_difficulty"]
    form, pending = change(set_difficulty, post(value=""), modifiers={"difficulty": 9})
    assert form.is_valid()
    form.apply()
    assert "difficulty" not in pending.modifiers


def test_a_number_the_system_has_no_range_for_is_refused():
    message = refusal(pending_forms.OPERATIONS["set_easing"], post(value="1"))
    assert message == "Tests of this system have no such setting."


def test_a_number_outside_the_systems_range_is_refused_with_its_words():
    limits = {"difficulty": Limit(2, 10, "Difficulty: %(low)s to %(high)s.")}
    message = refusal(pending_forms.OPERATIONS["set_difficulty"], post(value="11"), limits=limits)
    assert message == "Difficulty: 2 to 10."


def test_combat_is_yes_or_no():
    message = refusal(pending_forms.CombatForm, post(value="maybe"))
    assert message == "Say whether this is a combat test: yes or no."


def test_an_action_marks_combat_with_true():
    form, pending = change(pending_forms.CombatForm, {"value": True})
    assert form.is_valid()
    form.apply()
    assert pending.modifiers == {pending_forms.COMBAT: True}


def test_a_forged_category_is_refused():
    message = refusal(
        pending_forms.OPERATIONS["add_category_modifier"],
        post(category="luck", amount="1", source="x"),
    )
    assert message == "Choose the category: circumstance, personal, equipment or supernatural."


def test_a_category_modifier_of_zero_is_refused():
    message = refusal(
        pending_forms.OPERATIONS["add_category_modifier"],
        post(category="personal", amount="0", source="x"),
    )
    assert message == "A modifier of 0 changes nothing; give it a sign and a size."


def test_negative_challenge_points_are_refused():
    message = refusal(pending_forms.ChallengeForm, post(value="-1"))
    assert message == "Challenge points must be a whole number, 0 or more."


def test_what_is_tested_is_never_read_from_text():
    assert refusal(pending_forms.TargetForm, post(target="BUDOWA")) == "Choose what is tested."


# --- The GM's other tools -----------------------------------------------------------------------


def test_a_forged_weapon_class_is_refused():
    form = WoundForm(post(player_weapon="hand", enemy_weapon="cannon"), ("hand",))
    assert not form.is_valid()
    assert form.refusal() == "Choose the weapon class of each side: light, hand or heavy."


def test_a_malformed_roll_key_is_none():
    assert gm_forms.RollKeyForm(post(key="not-a-key")).key_or_none() is None
    key = uuid.uuid4()
    assert gm_forms.RollKeyForm(post(key=str(key))).key_or_none() == key


def test_an_opposed_tests_forged_ids_name_nobody():
    form = gm_forms.OpposedStartForm(
        post(initiator=str(2**63), opponent="npc-x"), shared_difficulty=False
    )
    assert form.is_valid()
    assert form.cleaned_data == {
        "initiator": None,
        "opponent": ("npc", None),
        "npc_initiates": False,
    }


def test_an_opposed_tests_difficulty_in_words_is_refused():
    form = gm_forms.OpposedStartForm(post(difficulty="hard"), shared_difficulty=True)
    assert form.errors["difficulty"] == ["The difficulty must be a whole number."]


def test_an_opposed_tests_difficulty_in_words_is_refused_in_polish_for_a_polish_gm():
    with translation.override("pl"):
        form = gm_forms.OpposedStartForm(post(difficulty="trudny"), shared_difficulty=True)
        assert form.errors["difficulty"] == ["Trudność musi być liczbą całkowitą."]


def test_a_difficulty_the_rules_do_not_share_is_not_read():
    form = gm_forms.OpposedStartForm(post(difficulty="hard"), shared_difficulty=False)
    assert form.is_valid()
    assert "difficulty" not in form.cleaned_data


def test_a_card_part_names_its_character_by_a_whole_id():
    assert gm_forms.CardPartForm(post(part="card", character="x")).character_id() is None
    assert gm_forms.CardPartForm(post(part="card", character="7")).character_id() == 7


def test_an_npcs_test_refuses_a_nul_with_the_one_text_rule(db):
    form = npc_rolls.read_form("t10", post(what=NUL, pool="3", difficulty="6"))
    assert form.errors["what"]
    assert "Null characters" not in form.errors["what"][0]


def test_an_npcs_test_keeps_a_number_typed_as_text_to_show_it_again(db):
    form = npc_rolls.read_form("t10", post(pool="many", difficulty="6"))
    assert form.values["pool"] == "many"
    assert form.errors["pool"]


@TABLE
@pytest.mark.parametrize("after", ["²", "9" * 30])
def test_a_forged_roll_a_table_follows_is_refused_with_a_message(client, table, gm, after):
    campaign = table.campaign
    client.force_login(gm)
    url = reverse("random_table_roll", args=[campaign.pk, weather(campaign).pk])
    data = {"key": str(uuid.uuid4()), "visibility": "public", "after": after}
    response = client.post(url, data, follow=True)
    assert response.status_code == 200
    assert "That roll is not in this campaign&#x27;s log." in response.content.decode()
    assert not Roll.objects.filter(kind="table").exists()


def test_a_quick_roll_not_saying_who_sees_it_is_public():
    assert read_form(post(expression="2d6"), is_gm=False).visibility == "public"


@TABLE
def test_the_dashboard_reads_a_change_through_its_operations_form(client, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    client.force_login(gm)
    client.post(
        reverse("call_test", args=[campaign.pk, hero.pk]), {"attribute": "BUDOWA"}, follow=True
    )
    test = session.pending_tests.get()
    url = reverse("change_test", args=[campaign.pk, test.pk])
    client.post(url, {"op": "add_dice", "kind": "penalty", "amount": "2", "source": "mgła"})
    test.refresh_from_db()
    assert test.modifiers["dice"] == [{"kind": "penalty", "amount": 2, "source": "mgła"}]


def test_every_operation_form_says_what_it_changes():
    assert [
        name for name, form in pending_forms.OPERATIONS.items() if not hasattr(form, "apply")
    ] == []
