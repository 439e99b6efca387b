"""Every test panel reads its choices through a form: a field the GM fixed on a called test is
disabled (a posted value cannot override it), a forged choice gets its message, and text in
any field follows the one text rule."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign
from campaigns.systems import get_system
from config.text import MESSAGE
from rolls.demo import seed_demo
from rolls.panels import Name, Names, PanelForm, WholeNumber
from sheets.models import Character

UNSAFE = str(MESSAGE)

#: Per system, what the GM owns on a called test and a value a page (or a forger) posts for it.
GM_FIELDS = {
    "t10": {"difficulty": "4", "circumstance": "5", "circumstance_source": "fog"},
    "ast": {"hindrance": "5", "hindrance_source": "fog"},
    "fasttest": {"bonus_other": "5", "penalty_other": "3"},
    "2d6": {
        "mod-circumstance-0-value": "3",
        "mod-personal-1-value": "-2",
        "helpers": "2",
        "cap_raise": "2",
        "cap_source": "rope",
        "difficulty": "8",
    },
    "caerbannog": {
        "easing": "3",
        "hindering": "1",
        "modifier": "5",
        "modifier_source": "armour",
        "form": "added",
        "difficulty": "trudny",
    },
}
FIXED = [(system, name) for system, fields in GM_FIELDS.items() for name in fields]


class Sample(PanelForm):
    number = WholeNumber(0, 9, "From 0 to %(max)s.", max=9)
    name = Name()
    names = Names()


def test_a_fixed_field_cleans_the_given_value_whatever_is_posted():
    posted = {"number": ["7"], "name": ["forged"], "names": ["a", "b"]}
    form = Sample(posted, fixed={"number": 2, "name": "Styrka", "names": ["c"]})
    assert form.cleaned == {"number": 2, "name": "Styrka", "names": ["c"]}


def test_a_field_nobody_fixed_cleans_what_was_posted():
    form = Sample({"number": ["7"], "name": ["Styrka"], "names": ["a", "b"]})
    assert form.cleaned == {"number": 7, "name": "Styrka", "names": ["a", "b"]}


@pytest.mark.parametrize("typed", ["10", "-1", "seven", "7.0", "9" * 5000])
def test_a_number_out_of_its_range_or_not_whole_gets_the_rules_sentence(typed):
    assert Sample({"number": [typed]}).messages == {"number": ["From 0 to 9."]}


def test_a_blank_number_is_its_default():
    assert Sample({"number": [""]}).cleaned["number"] == 0


@pytest.fixture
def demo(db):
    seed_demo()
    return {campaign.system: campaign for campaign in Campaign.objects.all()}


def _hero(campaign) -> Character:
    return Character.objects.get(campaign=campaign, owner__username="ala")


def _called(campaign, hero, **extra) -> dict:
    """A called test on the first of each target choice, as the GM's call form would send it."""
    panel = get_system(campaign.system).panel
    target = {}
    for field in panel.target_fields(hero, campaign):
        first = field["choices"][0][0]
        target[field["name"]] = [first] if field["type"] == "multiselect" else first
    return {"target": target | extra, "modifiers": {}}


def _build(campaign, hero, posted, pending):
    return get_system(campaign.system).panel.build(hero, campaign, posted, pending=pending)


def _rolled(panel) -> tuple:
    assert panel.ready, panel.errors
    return panel.params, panel.sources, panel.label


@pytest.mark.parametrize(("system", "name"), FIXED)
def test_a_value_posted_for_a_field_the_gm_fixed_is_ignored(demo, system, name):
    campaign = demo[system]
    hero = _hero(campaign)
    called = _called(campaign, hero)
    forged = {name: [GM_FIELDS[system][name]]}
    assert _rolled(_build(campaign, hero, forged, called)) == _rolled(
        _build(campaign, hero, {}, called)
    )


@pytest.mark.parametrize("system", GM_FIELDS)
def test_the_same_values_count_on_a_test_nobody_called(demo, system):
    campaign = demo[system]
    hero = _hero(campaign)
    target = _called(campaign, hero)["target"]
    free = {name: value if isinstance(value, list) else [value] for name, value in target.items()}
    forged = {name: [value] for name, value in GM_FIELDS[system].items()}
    assert _rolled(_build(campaign, hero, free | forged, None)) != _rolled(
        _build(campaign, hero, free, None)
    )


def test_a_called_test_keeps_the_gms_target_whatever_is_posted(demo):
    campaign = demo["t10"]
    hero = _hero(campaign)
    called = _called(campaign, hero)
    others = [row["name"] for row in hero.data["attributes"]]
    other = next(name for name in others if name != called["target"]["attribute"])
    panel = _build(campaign, hero, {"attribute": [other]}, called)
    assert panel.context["chosen_attribute"] == called["target"]["attribute"]


def test_a_wound_test_ignores_every_die_the_player_would_add(demo):
    campaign = demo["fasttest"]
    hero = _hero(campaign)
    hero.data["traits"] = [{"name": "Silny", "level": 2}]
    called = _called(campaign, hero, wound_test=True)
    forged = {"trait": ["0", "Silny"], "experience": ["1"], "ignore_wounds": ["on"]}
    assert _rolled(_build(campaign, hero, forged, called)) == _rolled(
        _build(campaign, hero, {}, called)
    )


@pytest.mark.parametrize(
    ("system", "posted", "field", "message"),
    [
        ("t10", {"skill": ["Nope"]}, "skill", "There is no “Nope” on this sheet"),
        ("t10", {"item": ["Nope"]}, "item", "There is no “Nope” on this sheet"),
        ("ast", {"item": ["items:Nope"]}, "item", "There is no “Nope” on this sheet"),
        ("fasttest", {"skill": ["Nope"]}, "skill", "There is no “Nope” on this sheet"),
        ("caerbannog", {"defence": ["Nope"]}, "defence", "There is no “Nope” on this sheet"),
        ("caerbannog", {"skill": ["Nope"]}, "skill", "There is no “Nope” on this sheet"),
        ("2d6", {"skill": ["Nope"]}, "skill", "Choose one of the skills on this sheet."),
    ],
)
def test_a_forged_choice_gets_its_message(demo, system, posted, field, message):
    campaign = demo[system]
    hero = _hero(campaign)
    target = _called(campaign, hero)["target"]
    free = {name: value if isinstance(value, list) else [value] for name, value in target.items()}
    panel = _build(campaign, hero, free | posted, None)
    assert not panel.ready
    assert any(message in text for text in panel.errors[field])


@pytest.mark.parametrize("system", ["t10", "fasttest", "2d6"])
def test_a_control_character_in_a_name_gets_the_one_text_rules_message(demo, system):
    campaign = demo[system]
    panel = _build(campaign, _hero(campaign), {"attribute": ["Sty\x00rka"]}, None)
    assert panel.errors["attribute"] == [UNSAFE]


def test_a_control_character_in_the_2d6_cap_raise_source_is_refused(demo):
    campaign = demo["2d6"]
    hero = _hero(campaign)
    target = _called(campaign, hero)["target"]
    posted = {name: [value] for name, value in target.items()}
    panel = _build(campaign, hero, posted | {"cap_source": ["rope\x1b[31m"]}, None)
    assert panel.errors["cap_source"] == [UNSAFE]


@pytest.mark.parametrize(
    ("system", "field"),
    [("2d6", "specialisation"), ("caerbannog", "main"), ("caerbannog", "form")],
)
def test_a_control_character_in_a_choice_the_panel_shows_again_is_refused_not_a_crash(
    demo, system, field
):
    campaign = demo[system]
    panel = _build(campaign, _hero(campaign), {field: ["a\x00b"]}, None)
    assert panel.errors[field] == [UNSAFE]
