"""Conditions (issue 15): what a roll or the GM leaves on a character, shaping every test it
concerns by itself until cleared; each add and clear an entry of the session's log."""

import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.sessions import end_session, new_scene
from campaigns.systems import all_systems, get_system
from rolls.conditions import actions as conditions
from rolls.conditions import in_force
from rolls.engine import t10 as engine
from rolls.log import export
from rolls.log.reading import entries_for
from rolls.models import Condition, Roll
from tests.web.live import panel_url
from tests.web.words_helpers import in_words

SHEET = {
    "attributes": [{"name": "Styrka", "value": 4}, {"name": "Smidighet", "value": 2}],
    "skills": [{"name": "Svärd", "value": 3}],
    "equipment": [],
}
KNOCKED_DOWN = {"preset": "knocked_down"}


pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table("t10", name="Moorcrest", characters=[("Astrid", SHEET)], players=1),
]


@pytest.fixture
def gm_client(client, table):
    client.force_login(table.gm)
    return client


def add_url(table, character=None):
    return reverse("add_condition", args=[table.campaign.pk, (character or table.hero).pk])


def clear_url(table, condition):
    return reverse("clear_condition", args=[table.campaign.pk, condition.pk])


def knock_down(table):
    return conditions.add_condition(
        character=table.hero,
        actor=table.gm,
        spec=in_force.preset_spec(table.campaign.rules, "knocked_down"),
    )


def typed(**fields):
    return {
        "name": "blinded",
        "effect": "pool",
        "amount": "-1",
        "scope": "all",
        "scope_name": "",
        "lasts": "hand",
        "ends_with": "",
    } | fields


def panel(client, hero, form):
    return client.post(panel_url(hero), form).context["panel"]


def roll_test(client, hero, form):
    return client.post(panel_url(hero, "test_roll"), {**form, "key": str(uuid.uuid4())})


def kinds(table):
    return list(Roll.objects.filter(session=table.session).values_list("kind", flat=True))


# --- Adding and clearing: each one an entry of the log ----------------------------------------


def test_the_gm_puts_the_rules_own_condition_on_a_character_in_one_click(gm_client, table):
    response = gm_client.post(add_url(table), KNOCKED_DOWN, headers={"HX-Request": "true"})
    condition = Condition.objects.get(character=table.hero)
    assert response.status_code == 200
    assert (condition.effect, condition.amount, condition.lasts) == ("pool", -2, "success")
    assert "−2 dice in the pool: knocked down (faller)" in response.content.decode()


def test_adding_a_condition_is_an_entry_of_the_session_log_with_its_modifier(gm_client, table):
    gm_client.post(add_url(table), KNOCKED_DOWN)
    entry = Roll.objects.get(session=table.session, kind="condition")
    assert entry.character_id == table.hero.pk
    assert entry.faces == []
    assert in_words(entry.label_words) == (
        "knocked down (faller) (all tests, until “stand up (resa dig)” succeeds)"
    )
    assert [in_words(s) for s in entry.sources] == [
        {"kind": "pool", "amount": -2, "source": "knocked down (faller)"}
    ]


def test_the_gm_types_a_condition_of_their_own(gm_client, table):
    gm_client.post(add_url(table), typed(scope="attribute", scope_name="Styrka"))
    condition = Condition.objects.get(character=table.hero)
    assert (condition.name, condition.scope, condition.scope_name) == (
        "blinded",
        "attribute",
        "Styrka",
    )
    assert condition.preset == ""


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"amount": "0"}, "A condition of 0 changes nothing"),
        ({"amount": "25"}, "Write a whole number from −20 to +20."),
        ({"name": "   "}, "Give the condition a name."),
        ({"scope": "skill"}, "Name the attribute, skill or target it concerns."),
        ({"lasts": "success"}, "Name the test whose success ends it."),
        ({"effect": "sanity"}, "Choose what the condition changes from the list."),
        ({"lasts": "forever"}, "Choose until when the condition lasts."),
    ],
)
def test_a_wrong_condition_is_refused_with_the_reason(gm_client, table, fields, message):
    response = gm_client.post(add_url(table), typed(**fields), headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Condition.objects.exists()


def test_a_forged_preset_is_refused_with_a_message(gm_client, table):
    response = gm_client.post(add_url(table), {"preset": "dead"}, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert "These rules have no such condition" in response.content.decode()


def test_a_player_cannot_add_or_clear_conditions(client, table):
    condition = knock_down(table)
    client.force_login(table.players[0])
    assert client.post(add_url(table), KNOCKED_DOWN).status_code == 404
    assert client.post(clear_url(table, condition)).status_code == 404
    assert Condition.objects.get().active


def test_the_gm_clears_a_condition_and_the_log_says_so(gm_client, table):
    condition = knock_down(table)
    gm_client.post(clear_url(table, condition))
    condition.refresh_from_db()
    assert not condition.active
    assert in_words(condition.cleared_entry.label_words) == (
        "knocked down (faller): cleared by the GM"
    )


def test_clearing_twice_is_refused_and_logs_nothing_more(gm_client, table):
    condition = knock_down(table)
    gm_client.post(clear_url(table, condition))
    response = gm_client.post(clear_url(table, condition), headers={"HX-Request": "true"})
    assert response.status_code == 409
    assert "already been cleared" in response.content.decode()
    assert kinds(table).count("condition_cleared") == 1


def test_no_condition_is_added_without_a_session(make_table, client):
    table = make_table("t10", characters=[("Astrid", SHEET)], players=1, session=False)
    client.force_login(table.gm)
    response = client.post(add_url(table), KNOCKED_DOWN, headers={"HX-Request": "true"})
    assert response.status_code == 409
    assert "during a session" in response.content.decode()


# --- Where it shows --------------------------------------------------------------------------


def test_the_players_sheet_shows_the_condition(client, table):
    knock_down(table)
    client.force_login(table.players[0])
    url = reverse("character_detail", args=[table.campaign.pk, table.hero.pk])
    html = client.get(url).content.decode()
    assert 'id="sheet-conditions"' in html
    assert "−2 dice in the pool: knocked down (faller)" in html


def test_the_sheets_conditions_part_answers_members_only(client, table, outsider):
    knock_down(table)
    url = reverse("character_conditions", args=[table.campaign.pk, table.hero.pk])
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    client.force_login(table.players[0])
    assert "knocked down (faller)" in client.get(url).content.decode()


def test_the_party_card_shows_each_characters_conditions(gm_client, table):
    knock_down(table)
    html = gm_client.get(reverse("dashboard_party", args=[table.campaign.pk])).content.decode()
    assert f'id="card-conditions-{table.hero.pk}"' in html
    assert "knocked down (faller)" in html


def test_adding_tells_the_characters_pages_to_refresh(
    gm_client, table, django_capture_on_commit_callbacks, monkeypatch
):
    sent = []
    monkeypatch.setattr("campaigns.live.broadcast", lambda group, event: sent.append(event))
    with django_capture_on_commit_callbacks(execute=True):
        gm_client.post(add_url(table), KNOCKED_DOWN)
    assert {"type": "table.sheet", "character": table.hero.pk} in sent
    assert any(event["type"] == "table.roll" for event in sent)


# --- Every panel applies the conditions that concern its test --------------------------------


def test_the_panel_takes_the_dice_off_the_pool_and_lists_the_condition(client, table):
    condition = knock_down(table)
    client.force_login(table.players[0])
    shown = panel(client, table.hero, {"attribute": "Styrka", "skill": "Svärd"})
    assert shown.params == {"pool": 5, "difficulty": 7}
    assert in_words(shown.sources[-1]["source"]) == (
        f"knocked down (faller) (condition, #{condition.added_entry.seq})"
    )
    expected = engine.odds(engine.parse_params({"pool": 5, "difficulty": 7}))
    assert shown.success == pytest.approx(
        sum(expected["odds"][k] for k in ("success_but", "success", "impressive"))
    )


def test_a_condition_of_an_attribute_shapes_only_its_tests(client, gm_client, table):
    gm_client.post(add_url(table), typed(scope="attribute", scope_name="Styrka"))
    client.force_login(table.players[0])
    assert panel(client, table.hero, {"attribute": "Styrka"}).params["pool"] == 3
    assert panel(client, table.hero, {"attribute": "Smidighet"}).params["pool"] == 2


def test_a_condition_against_a_target_applies_when_the_player_ticks_it(client, gm_client, table):
    gm_client.post(add_url(table), {"preset": "good_method"})
    condition = Condition.objects.get()
    client.force_login(table.players[0])
    assert panel(client, table.hero, {"attribute": "Styrka"}).params["difficulty"] == 7
    ticked = panel(client, table.hero, {"attribute": "Styrka", "use": str(condition.pk)})
    assert ticked.params["difficulty"] == 6


def test_a_difficulty_condition_keeps_the_difficulty_within_four_to_ten(client, gm_client, table):
    gm_client.post(add_url(table), typed(effect="difficulty", amount="-5"))
    client.force_login(table.players[0])
    assert (
        panel(client, table.hero, {"attribute": "Styrka", "difficulty": "5"}).params["difficulty"]
        == 4
    )


def test_a_forged_or_stale_condition_choice_is_refused_with_a_message(client, table):
    condition = knock_down(table)
    client.force_login(table.players[0])
    shown = panel(client, table.hero, {"attribute": "Styrka", "attempt": str(condition.pk + 99)})
    assert not shown.ready
    assert "That condition is no longer on the sheet" in " ".join(shown.errors["attempt"])


def test_a_success_at_the_named_test_clears_the_condition(client, table, dice):
    condition = knock_down(table)
    client.force_login(table.players[0])
    dice(8, 8, 8, 2, 2)  # Styrka 4 + Svärd 3 − 2 = 5 dice, three successes
    roll_test(
        client, table.hero, {"attribute": "Styrka", "skill": "Svärd", "attempt": str(condition.pk)}
    )
    condition.refresh_from_db()
    assert not condition.active
    assert "“stand up (resa dig)” succeeded" in in_words(condition.cleared_entry.label_words)
    assert condition.cleared_entry.parent.kind == "test"


def test_the_pages_own_refresh_after_the_ending_roll_shows_the_panel_without_the_condition(
    client, table, dice
):
    condition = knock_down(table)
    client.force_login(table.players[0])
    choices = {"attribute": "Styrka", "skill": "Svärd", "attempt": str(condition.pk)}
    dice(8, 8, 8, 2, 2)  # three successes: the player stands up
    roll_test(client, table.hero, choices)
    # The roll changed the sheet, so the page asks for its panel again with the same form.
    form = {**choices, "key": str(uuid.uuid4())}
    refreshed = client.post(panel_url(table.hero), form, headers={"X-Panel-Refresh": "1"}).context[
        "panel"
    ]
    assert refreshed.ready
    assert "attempt" not in refreshed.errors
    # A choice the player sends is still refused with the sentence that says why.
    assert "attempt" in panel(client, table.hero, choices).errors


def test_a_failure_at_the_named_test_leaves_the_condition(client, table, dice):
    condition = knock_down(table)
    client.force_login(table.players[0])
    dice(2, 2, 2, 2, 2)
    roll_test(
        client, table.hero, {"attribute": "Styrka", "skill": "Svärd", "attempt": str(condition.pk)}
    )
    condition.refresh_from_db()
    assert condition.active


def test_a_success_of_another_test_leaves_the_condition(client, table, dice):
    condition = knock_down(table)
    client.force_login(table.players[0])
    dice(8, 8, 8, 2, 2)
    roll_test(client, table.hero, {"attribute": "Styrka", "skill": "Svärd"})
    condition.refresh_from_db()
    assert condition.active


def test_a_condition_for_the_next_test_is_used_up_by_it(client, gm_client, table, dice):
    gm_client.post(add_url(table), typed(amount="1", lasts="next_test"))
    client.force_login(table.players[0])
    dice(2, 2, 2, 2, 2)
    roll_test(client, table.hero, {"attribute": "Styrka"})
    condition = Condition.objects.get()
    assert not condition.active
    assert in_words(condition.cleared_entry.label_words).startswith(
        "blinded: used up by the test #"
    )


def test_the_gm_switches_a_condition_off_for_a_called_test(gm_client, table):
    condition = knock_down(table)
    gm_client.post(
        reverse("call_test", args=[table.campaign.pk, table.hero.pk]),
        {"attribute": "Styrka", "skill": "Svärd"},
    )
    test = table.hero.pending_tests.get()
    url = reverse("change_test", args=[table.campaign.pk, test.pk])
    gm_client.post(url, {"op": "set_condition_off", "condition": condition.pk, "value": "yes"})
    test.refresh_from_db()
    assert test.modifiers["conditions_off"] == [condition.pk]
    html = gm_client.get(reverse("dashboard_pending", args=[table.campaign.pk])).content.decode()
    assert "Apply it to this test" in html


def test_a_condition_switched_off_does_not_shape_the_called_test(client, gm_client, table):
    condition = knock_down(table)
    gm_client.post(
        reverse("call_test", args=[table.campaign.pk, table.hero.pk]),
        {"attribute": "Styrka", "skill": "Svärd"},
    )
    test = table.hero.pending_tests.get()
    url = reverse("change_test", args=[table.campaign.pk, test.pk])
    gm_client.post(url, {"op": "set_condition_off", "condition": condition.pk, "value": "yes"})
    client.force_login(table.players[0])
    html = client.get(panel_url(table.hero), {"pending": test.pk}).content.decode()
    assert "switched off by the GM for this test" in html


def test_switching_off_a_condition_the_character_does_not_have_is_refused(gm_client, table):
    gm_client.post(
        reverse("call_test", args=[table.campaign.pk, table.hero.pk]), {"attribute": "Styrka"}
    )
    test = table.hero.pending_tests.get()
    url = reverse("change_test", args=[table.campaign.pk, test.pk])
    response = gm_client.post(
        url,
        {"op": "set_condition_off", "condition": "999", "value": "yes"},
        headers={"HX-Request": "true"},
    )
    assert "That condition is no longer on the character" in response.content.decode()


# --- What ends a condition by itself ---------------------------------------------------------


def test_a_new_scene_ends_the_conditions_of_the_scene_before(gm_client, table):
    gm_client.post(add_url(table), typed(lasts="scene"))
    new_scene(table.session)
    condition = Condition.objects.get()
    assert not condition.active
    assert in_words(condition.cleared_entry.label_words) == "blinded: the scene ended"


def test_the_end_of_the_session_ends_its_conditions_in_its_log(gm_client, table):
    gm_client.post(add_url(table), typed(lasts="session"))
    gm_client.post(add_url(table), typed(name="bruised"))
    end_session(table.session)
    ended = Condition.objects.get(name="blinded")
    assert ended.cleared_entry.session_id == table.session.pk
    assert Condition.objects.get(name="bruised").active


# --- The log, its exports and both languages -------------------------------------------------


def test_condition_entries_read_in_the_exports(gm_client, table):
    condition = knock_down(table)
    conditions.clear_condition(condition_id=condition.pk, actor=table.gm)
    entries = entries_for(table.session, table.gm, True, newest_first=False)
    markdown = export.as_markdown(table.session, entries)
    assert "knocked down (faller) (all tests" in markdown
    assert "knocked down (faller): cleared by the GM" in markdown
    assert "condition_cleared" in export.as_csv(entries)


def test_condition_entries_read_in_polish(gm_client, table):
    knock_down(table)
    entry = Roll.objects.get(kind="condition")
    with translation.override("pl"):
        from rolls.labels import render

        text = render(entry.label_words)
    assert "powal" in text.lower() or "przewr" in text.lower()


def test_the_log_page_shows_condition_entries_without_an_outcome(gm_client, table):
    knock_down(table)
    html = gm_client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert "note-entry condition" in html
    assert "condition added" in html


def test_the_fair_dice_checker_reads_condition_entries_as_entries_without_dice(
    gm_client, table, dice
):
    import json

    from rolls.engine.check import check_document

    gm_client.post(add_url(table), typed(lasts="session"))
    knock_down(table)
    end_session(table.session)
    table.session.refresh_from_db()
    entries = entries_for(table.session, table.gm, True, newest_first=False)
    report = check_document(json.loads(export.as_json(table.session, entries)))
    assert report.ok, report.lines()
    assert len(report.matched) == 3  # two added, one cleared at the session's end


# --- 2d6: a circumstance modifier lasting beyond one test (RULES.md 5) --------------------------

NOMAD = {
    "attributes": [{"name": "Percepcja", "value": 8}, {"name": "Zręczność", "value": 7}],
    "skills": [{"name": "Przetrwanie", "value": 5}],
    "specialisations": [],
    "advantages": [],
}


@pytest.fixture
def wastes(make_table):
    return make_table("2d6", name="Pustkowia", characters=[("Nomad", NOMAD)], players=1)


def test_a_lasting_2d6_modifier_joins_its_category_on_every_panel(client, wastes):
    client.force_login(wastes.gm)
    client.post(add_url(wastes), typed(name="dust storm", effect="circumstance", amount="-2"))
    client.force_login(wastes.players[0])
    shown = panel(client, wastes.hero, {"attribute": "Percepcja", "skill": "Przetrwanie"})
    assert shown.params["modifiers"]["circumstance"] == [-2]
    line = in_words(shown.sources[0])
    assert line["kind"] == "circumstance"
    assert "dust storm (condition, #" in line["source"]


def test_a_lasting_2d6_modifier_is_clamped_with_the_rest_of_its_category(client, wastes):
    client.force_login(wastes.gm)
    client.post(add_url(wastes), typed(name="dust storm", effect="circumstance", amount="-4"))
    client.force_login(wastes.players[0])
    shown = panel(
        client,
        wastes.hero,
        {
            "attribute": "Percepcja",
            "mod-circumstance-0-value": "-3",
            "mod-circumstance-0-source": "night",
        },
    )
    assert shown.sources[0]["amount"] == -5


def test_a_2d6_condition_can_only_change_one_of_its_four_categories(client, wastes):
    client.force_login(wastes.gm)
    response = client.post(add_url(wastes), typed(effect="pool"), headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert "Choose what the condition changes from the list." in response.content.decode()


# --- AST: a temporary state, used and cleared by the next test (RULES.md 2.7) -------------------

OLAF = {
    "attributes": [{"name": "Ciało: silny"}],
    "advantages": [],
    "equipment": [{"name": "ostry topór"}],
    "positive_states": [],
    "negative_states": [],
    "funt": 0,
}
AXE = {"item": ["attributes:Ciało: silny", "equipment:ostry topór"]}


@pytest.fixture
def saga(make_table):
    return make_table("ast", name="Sagi", characters=[("Olaf", OLAF)], players=1)


def test_an_ast_temporary_advantage_is_one_more_white_die(client, saga):
    client.force_login(saga.gm)
    client.post(add_url(saga), {"preset": "ast_advantage"})
    client.force_login(saga.players[0])
    shown = panel(client, saga.hero, AXE)
    assert shown.params == {"white": 3, "level_mod": 0}
    assert "temporary advantage (tymczasowy atut) (condition, #" in in_words(
        shown.sources[-1]["source"]
    )


def test_an_ast_temporary_hindrance_raises_the_level_and_cancels_an_advantage(client, saga):
    client.force_login(saga.gm)
    client.post(add_url(saga), {"preset": "ast_hindrance"})
    client.force_login(saga.players[0])
    assert panel(client, saga.hero, AXE).params == {"white": 2, "level_mod": 1}
    both = panel(client, saga.hero, {**AXE, "advantage": "1"})
    assert both.params == {"white": 2, "level_mod": 0}


def test_an_ast_temporary_state_is_used_up_by_the_next_test(client, saga, dice):
    client.force_login(saga.gm)
    client.post(add_url(saga), {"preset": "ast_hindrance"})
    client.force_login(saga.players[0])
    dice(4, 4, 4)
    roll_test(client, saga.hero, AXE)
    condition = Condition.objects.get()
    assert not condition.active
    assert condition.cleared_entry.parent.kind == "test"


def test_an_ast_state_below_one_is_refused(client, saga):
    client.force_login(saga.gm)
    response = client.post(
        add_url(saga), typed(effect="hindrance", amount="-1"), headers={"HX-Request": "true"}
    )
    assert response.status_code == 422
    assert "A condition of these rules is from 1 to 10." in response.content.decode()


def test_a_player_cannot_switch_a_condition_off(client, gm_client, table):
    condition = knock_down(table)
    gm_client.post(
        reverse("call_test", args=[table.campaign.pk, table.hero.pk]), {"attribute": "Styrka"}
    )
    test = table.hero.pending_tests.get()
    client.force_login(table.players[0])
    url = reverse("change_test", args=[table.campaign.pk, test.pk])
    response = client.post(
        url, {"op": "set_condition_off", "condition": condition.pk, "value": "yes"}
    )
    assert response.status_code == 404
    test.refresh_from_db()
    assert "conditions_off" not in test.modifiers


@pytest.mark.parametrize("system", [system.key for system in all_systems()])
def test_every_systems_sheet_shows_its_conditions_box(client, make_table, system):
    """Every rule system now has conditions of its own, so every sheet shows the box."""
    assert in_force.condition_rules(get_system(system)).effects
    table = make_table(system, characters=[("Hero", {})], players=1)
    client.force_login(table.players[0])
    url = reverse("character_detail", args=[table.campaign.pk, table.hero.pk])
    assert 'id="sheet-conditions"' in client.get(url).content.decode()
