"""Hostile input the table refuses with a message (issue 11, items 3, 4, 5 and 7).

One regression test per reported failure, through the web layer, on the demo table: a GM's
change of a pending test with a number that is none, an import nested thousands deep, text a
database cannot hold in every field that took it, the empty 422s, and forged panel choices.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import uuid

import pytest
from django import forms
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaigns.models import Campaign, GameSession, Scene
from campaigns.sessions import end_session, start_session
from config.text import MESSAGE, TextField, text_problem
from rolls.demo import seed_demo
from rolls.models import Award, PendingTest, RandomTable, Roll
from rolls.pending import actions as pending
from sheets.models import NPC, Character

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
UNSAFE = str(MESSAGE)


@pytest.fixture
def demo():
    seed_demo()
    campaigns = {c.system: c for c in Campaign.objects.all()}
    for campaign in campaigns.values():
        start_session(campaign)
    return campaigns


def hero_of(campaign) -> Character:
    return Character.objects.get(campaign=campaign, owner__username="ala")


@pytest.fixture
def gm_client(client, demo):
    client.force_login(demo["fasttest"].gm)
    return client


@pytest.fixture
def ala(client, demo):
    client.force_login(hero_of(demo["fasttest"]).owner)
    return client


def roll(client, character, **choices):
    url = reverse("test_roll", args=[character.campaign_id, character.pk])
    return client.post(url, {"key": str(uuid.uuid4()), **choices}, **HX)


# --- The one rule -------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["a\x00b", "\x1b[31m", "\x7f", "\x85", "\ud800", "x\udfff"])
def test_control_characters_and_lone_surrogates_break_the_rule(text):
    assert text_problem(text) == str(MESSAGE)


@pytest.mark.parametrize("text", ["Zażółć gęślą jaźń", "two\tcolumns", "two\r\nlines", "🐉", ""])
def test_letters_tabs_and_line_breaks_are_ordinary_text(text):
    assert text_problem(text) is None


APPS = ("campaigns", "rolls", "sheets", "config")


def _app_forms():
    """Every form class of the apps, each module imported first: which forms exist must not
    depend on which modules the tests run before this one happened to import."""
    for app in APPS:
        package = importlib.import_module(app)
        for module in pkgutil.walk_packages(package.__path__, f"{app}."):
            if ".migrations" not in module.name:
                importlib.import_module(module.name)
    seen, stack = [], list(forms.Form.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.split(".")[0] in APPS:
            seen.append(cls)
    assert {"campaigns.forms", "rolls.conditions.forms", "sheets.npc_forms"} <= {
        cls.__module__ for cls in seen
    }
    return seen


def _fields(cls):
    """A form's fields as built, or as declared where the form is built for one given thing (a
    stored trait) and cannot be built empty."""
    needed = [
        p
        for p in inspect.signature(cls.__init__).parameters.values()
        if p.default is p.empty
        and p.name != "self"
        and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    ]
    return cls.base_fields if needed else cls().fields


def test_every_text_field_of_the_apps_forms_follows_the_one_rule():
    lax = [
        f"{cls.__name__}.{name}"
        for cls in _app_forms()
        for name, field in _fields(cls).items()
        if isinstance(field, forms.CharField) and not isinstance(field, TextField)
    ]
    assert not lax


# --- Item 3: numbers that are none --------------------------------------------------------------


@pytest.fixture
def called(demo):
    campaign = demo["fasttest"]
    session = GameSession.objects.open().get(campaign=campaign)
    test = pending.call_test(
        session=session, character=hero_of(campaign), gm=campaign.gm, target={"attribute": "BUDOWA"}
    )
    return campaign, test


def change(client, campaign, test, **form):
    return client.post(reverse("change_test", args=[campaign.pk, test.pk]), form, **HX)


@pytest.mark.parametrize("npc", ["1.5", "1e3", "NaN", "troll", "9" * 100_000, ""])
def test_a_pending_npc_that_is_not_a_whole_number_is_refused_with_a_message(gm_client, called, npc):
    campaign, test = called
    response = change(gm_client, campaign, test, op="set_npc", npc=npc, trait="0")
    assert response.status_code == 200
    assert "Choose an NPC of this campaign." in response.content.decode()
    test.refresh_from_db()
    assert (test.revision, test.modifiers) == (1, {})


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"op": "add_dice", "kind": "penalty", "amount": "1.5", "source": "x"}, "from 1 to 20"),
        ({"op": "add_dice", "kind": "penalty", "amount": "NaN", "source": "x"}, "from 1 to 20"),
        ({"op": "remove_dice", "index": "1e3"}, "no longer there"),
        # The GM's ranges are each system's (GM_LIMITS): a FastTest test has no difficulty of
        # the GM's, and with no penalty dice left there is none to make a d10.
        ({"op": "set_difficulty", "value": "1.5"}, "Tests of this system have no such setting."),
        ({"op": "set_extra_d10", "value": "9" * 5000}, "No penalty dice are left to split"),
    ],
)
def test_every_number_of_a_pending_change_that_is_none_is_refused(gm_client, called, form, message):
    campaign, test = called
    response = change(gm_client, campaign, test, **form)
    assert message in response.content.decode()
    test.refresh_from_db()
    assert test.revision == 1


def test_npc_trait_numbers_that_are_none_tick_nothing(gm_client, called):
    campaign, test = called
    troll = NPC.objects.get(campaign=campaign, name="Troll")
    change(gm_client, campaign, test, op="set_npc", npc=str(troll.pk), trait=["1.5", "x", "0"])
    test.refresh_from_db()
    assert [t["name"] for t in test.modifiers["npc"]["traits"]] == ["wielki"]


@pytest.mark.parametrize("chance", ["1.5", "NaN", "9" * 5000])
def test_an_npc_roll_with_a_chance_that_is_no_number_is_refused(gm_client, demo, chance):
    campaign = demo["fasttest"]
    npc = NPC.objects.filter(campaign=campaign).first()
    response = gm_client.post(
        reverse("npc_roll", args=[campaign.pk, npc.pk]),
        {"key": str(uuid.uuid4()), "chance": chance, "visibility": "hidden"},
        **HX,
    )
    assert response.status_code == 422
    assert "must be a whole number from 1 to 9" in response.content.decode()
    assert not Roll.objects.exists()


# --- Item 4: an import nested thousands deep ----------------------------------------------------


def import_json(client, campaign, text):
    return client.post(reverse("character_import", args=[campaign.pk]), {"json": text})


@pytest.mark.parametrize("text", ["[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000])
def test_an_import_nested_five_thousand_deep_is_refused_with_a_message(ala, demo, text):
    campaign = demo["fasttest"]
    before = Character.objects.count()
    response = import_json(ala, campaign, text)
    assert response.status_code == 200
    assert "nested more than 20 levels deep" in response.content.decode()
    assert Character.objects.count() == before


def exported(client, character) -> dict:
    url = reverse("character_export", args=[character.campaign_id, character.pk])
    return json.loads(client.get(url).content)


def test_a_sheet_nested_deeper_than_a_character_is_refused(ala, demo):
    campaign = demo["fasttest"]
    document = exported(ala, hero_of(campaign))
    nested: list = []
    for _ in range(30):
        nested = [nested]
    document["data"]["armor"] = nested
    response = import_json(ala, campaign, json.dumps(document))
    assert "nested more than 20 levels deep" in response.content.decode()


def test_an_import_with_nan_is_not_an_exported_file(ala, demo):
    campaign = demo["fasttest"]
    document = json.dumps(exported(ala, hero_of(campaign))).replace('"armor": 1', '"armor": NaN')
    response = import_json(ala, campaign, document)
    assert "This is not a JSON file exported from a character sheet." in response.content.decode()


DEEP_ROW = {"from": 1, "to": 6, "text": json.loads("[" * 30 + "]" * 30)}


@pytest.mark.parametrize(
    "text",
    [
        "[" * 5000 + "]" * 5000,
        '{"rows":' * 5000 + "1" + "}" * 5000,
        json.dumps({"name": "Pogoda", "dice": "1d6", "rows": [DEEP_ROW]}),
    ],
    ids=["list 5000 deep", "object 5000 deep", "a row 30 deep"],
)
def test_a_random_table_file_nested_too_deep_is_refused_with_a_message(gm_client, demo, text):
    campaign = demo["fasttest"]
    before = RandomTable.objects.count()
    upload = SimpleUploadedFile("weather.json", text.encode())
    response = gm_client.post(reverse("random_table_import", args=[campaign.pk]), {"file": upload})
    assert response.status_code == 422
    assert "nested more than 20 levels deep; an exported table is not." in response.content.decode()
    assert RandomTable.objects.count() == before


# --- Item 5: text a database cannot hold --------------------------------------------------------


@pytest.mark.parametrize("name", ["Brun\x00hilda", "Brun\x1bhilda", "Brun\ud800hilda"])
def test_an_imported_name_that_cannot_be_stored_is_refused(ala, demo, name):
    campaign = demo["fasttest"]
    document = exported(ala, hero_of(campaign)) | {"name": name}
    before = Character.objects.count()
    response = import_json(ala, campaign, json.dumps(document))  # escaped, as a file holds it
    assert UNSAFE in response.content.decode()
    assert Character.objects.count() == before


@pytest.mark.parametrize("system", ["fasttest", "ast", "t10", "caerbannog", "2d6"])
def test_an_imported_sheet_with_a_nul_in_a_name_is_refused(ala, demo, system):
    campaign = demo[system]
    document = exported(ala, hero_of(campaign))
    text = json.dumps(document)
    first_name = next(n for n in _names(document["data"]))
    text = text.replace(json.dumps(first_name), json.dumps(first_name + "\x00"), 1)
    before = Character.objects.count()
    response = import_json(ala, campaign, text)
    assert UNSAFE in response.content.decode()
    assert Character.objects.count() == before


def _names(node):
    if isinstance(node, dict):
        if isinstance(node.get("name"), str):
            yield node["name"]
        for value in node.values():
            yield from _names(value)
    elif isinstance(node, list):
        for value in node:
            yield from _names(value)


def test_a_character_name_with_a_nul_is_refused_on_creation(ala, demo):
    campaign = demo["t10"]
    url = reverse("character_create", args=[campaign.pk])
    before = Character.objects.count()
    response = ala.post(url, {"name": "Astrid\x00", "attributes-0-name": "Styrka"})
    assert UNSAFE in response.content.decode()
    assert Character.objects.count() == before


def test_a_rename_with_a_nul_is_refused_and_keeps_the_old_name(ala, demo):
    hero = hero_of(demo["fasttest"])
    url = reverse("character_section", args=[hero.campaign_id, hero.pk, "name"])
    response = ala.post(url, {"name": "Brunhilda\x00"}, **HX)
    assert UNSAFE in response.content.decode()
    hero.refresh_from_db()
    assert hero.name == "Brunhilda z Gór"


@pytest.mark.parametrize("field", ["trait_0_name", "flaw"])
def test_a_trait_or_flaw_name_with_a_nul_is_refused(client, demo, field):
    campaign = demo["fasttest"]
    hero = hero_of(campaign)
    client.force_login(campaign.gm)  # traits are the GM's after creation
    form = {"trait_0_name": "Rycerz", "trait_0_level": "2", "flaw": ""} | {field: "zły\x00"}
    url = reverse("character_section", args=[campaign.pk, hero.pk, "traits"])
    response = client.post(url, form, **HX)
    assert UNSAFE in response.content.decode()
    hero.refresh_from_db()
    assert hero.data["traits"][0]["name"] == "Rycerz królestwa"


def test_a_wound_label_with_a_nul_is_refused(ala, demo):
    hero = hero_of(demo["fasttest"])
    url = reverse("character_wound_add", args=[hero.campaign_id, hero.pk])
    response = ala.post(url, {"wound_label": "cięcie\x00", "wound_severity": "light"}, **HX)
    assert UNSAFE in response.content.decode()
    hero.refresh_from_db()
    assert hero.data["wounds"] == []


def test_a_new_trait_named_with_a_nul_is_refused(ala, demo):
    hero = hero_of(demo["fasttest"])
    hero.data["xp"] = 50
    hero.save()
    url = reverse("character_develop", args=[hero.campaign_id, hero.pk])
    response = ala.post(url, {"trait": "new", "new_name": "pływanie\x00"}, **HX)
    assert UNSAFE in response.content.decode()
    hero.refresh_from_db()
    assert len(hero.data["traits"]) == 2


def test_an_npc_roll_label_with_a_nul_is_refused(gm_client, demo):
    campaign = demo["fasttest"]
    npc = NPC.objects.filter(campaign=campaign).first()
    response = gm_client.post(
        reverse("npc_roll", args=[campaign.pk, npc.pk]),
        {"key": str(uuid.uuid4()), "chance": "5", "what": "atak\x00", "visibility": "hidden"},
        **HX,
    )
    assert response.status_code == 422
    assert UNSAFE in response.content.decode()
    assert not Roll.objects.exists()


def test_a_pending_modifier_source_with_a_nul_is_refused(gm_client, called):
    campaign, test = called
    response = change(
        gm_client, campaign, test, op="add_dice", kind="penalty", amount="2", source="mrok\x00"
    )
    assert UNSAFE in response.content.decode()
    test.refresh_from_db()
    assert (test.revision, test.modifiers) == (1, {})


@pytest.mark.parametrize("view", ["scene_new", "session_start"])
def test_a_scene_or_session_title_with_a_nul_is_refused(gm_client, demo, view):
    campaign = demo["ast"]
    session = GameSession.objects.open().get(campaign=campaign)
    if view == "session_start":
        end_session(session)
        url = reverse(view, args=[campaign.pk])
    else:
        url = reverse(view, args=[campaign.pk, session.pk])
    scenes = Scene.objects.count()
    response = gm_client.post(url, {"title": "Most\x00"}, follow=True)
    assert UNSAFE in response.content.decode()
    assert Scene.objects.count() == scenes


@pytest.mark.parametrize("system", ["fasttest", "caerbannog", "t10"])
def test_a_called_test_whose_skill_holds_a_nul_is_refused(gm_client, demo, system):
    campaign = demo[system]
    hero = hero_of(campaign)
    response = gm_client.post(
        reverse("call_test", args=[campaign.pk, hero.pk]),
        {"attribute": "BUDOWA", "skill": "WALKA\x00"},
        **HX,
    )
    assert UNSAFE in response.content.decode()
    assert not PendingTest.objects.exists()


@pytest.mark.parametrize(
    ("system", "choices"),
    [
        ("ast", {"hindrance": "1", "hindrance_source": "mgła\x00"}),
        ("t10", {"attribute": "Styrka", "circumstance": "1", "circumstance_source": "mgła\x00"}),
        ("caerbannog", {"skill": "Jazda", "modifier": "1", "modifier_source": "mgła\x00"}),
        ("2d6", {"attribute": "Siła", "mod-circumstance-0-value": "1",
                 "mod-circumstance-0-source": "mgła\x00"}),
    ],
)  # fmt: skip
def test_a_roll_whose_modifier_source_holds_a_nul_is_refused(ala, demo, system, choices):
    response = roll(ala, hero_of(demo[system]), **choices)
    assert response.status_code == 422
    assert UNSAFE in response.content.decode()
    assert not Roll.objects.exists()


@pytest.mark.parametrize(
    ("view", "form"),
    [
        ("campaign_create", {"name": "Stół\x00", "system": "t10"}),
        ("award_xp", {"character": "all", "amount": "2", "reason": "most\x00"}),
        ("dashboard_quick_npc", {"text": "Troll\x00: wielki 3k"}),
        ("npc_create", {"name": "Ogr\x00", "traits-TOTAL_FORMS": "1",
                        "traits-INITIAL_FORMS": "0", "traits-0-name": "wielki"}),
    ],
)  # fmt: skip
def test_form_fields_refuse_a_nul_with_the_one_message(gm_client, demo, view, form):
    campaign = demo["fasttest"]
    args = [] if view == "campaign_create" else [campaign.pk]
    counts = (Campaign.objects.count(), Award.objects.count(), NPC.objects.count())
    response = gm_client.post(reverse(view, args=args), form, follow=True)
    assert UNSAFE in response.content.decode()
    assert (Campaign.objects.count(), Award.objects.count(), NPC.objects.count()) == counts


# --- Item 7: a message for every refusal, and forged choices refused ----------------------------


def test_a_caerbannog_roll_with_an_unknown_defence_and_no_skill_says_why(ala, demo):
    response = roll(ala, hero_of(demo["caerbannog"]), defence="Tarcza")
    assert response.status_code == 422
    assert "There is no “Tarcza” on this sheet" in response.content.decode()
    assert not Roll.objects.exists()


def test_a_roll_with_nothing_chosen_says_what_to_do(ala, demo):
    response = roll(ala, hero_of(demo["caerbannog"]))
    assert response.status_code == 422
    assert "Choose what to test on the sheet first." in response.content.decode()


@pytest.mark.parametrize("system", ["ast", "t10", "2d6"])
def test_an_experience_die_where_the_rule_is_off_says_so(client, demo, system):
    campaign = demo[system]
    client.force_login(campaign.gm)
    hero = hero_of(campaign)
    url = reverse("award_experience_die", args=[campaign.pk])
    response = client.post(url, {"character": str(hero.pk)}, **HX)
    assert response.status_code == 422
    assert "Experience dice are off in this campaign." in response.content.decode()
    assert not Award.objects.exists()


@pytest.mark.parametrize(
    ("system", "choices", "forged"),
    [
        ("fasttest", {"attribute": "BUDOWA", "skill": "LATANIE"}, "LATANIE"),
        ("t10", {"attribute": "Styrka", "skill": "Flyga"}, "Flyga"),
        ("t10", {"attribute": "Styrka", "item": "Drake"}, "Drake"),
        ("ast", {"item": "equipment:latający dywan"}, "latający dywan"),
        ("caerbannog", {"skill": "Latanie"}, "Latanie"),
    ],
)
def test_a_forged_panel_choice_is_refused_and_nothing_is_rolled(ala, demo, system, choices, forged):
    response = roll(ala, hero_of(demo[system]), **choices)
    assert response.status_code == 422
    assert f"There is no “{forged}” on this sheet" in response.content.decode()
    assert not Roll.objects.exists()


def test_the_same_choices_with_a_real_skill_still_roll(ala, demo):
    response = roll(ala, hero_of(demo["fasttest"]), attribute="BUDOWA", skill="WALKA")
    assert response.status_code == 200
    assert Roll.objects.count() == 1
