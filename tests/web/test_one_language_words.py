"""One language per reader (issue 25, item 9; issue 37, item 8), in plain English and plain
Polish: the words the issues name, the entries stored before they were read in each reader's
language, and the pseudo-locale check itself (tests/web/pseudo_locale.py)."""

from __future__ import annotations

import re
import uuid

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from campaigns.systems import all_systems, get_system
from rolls import actions
from rolls.conditions import actions as conditions
from rolls.conditions import in_force
from rolls.engine import note
from rolls.labels import render, words
from rolls.models import Condition, RandomTable, Roll
from rolls.templatetags.roll_log import die_words
from tests.web.dice import deal
from tests.web.live import panel_url
from tests.web.pseudo_locale import (
    GAME_TERMS,
    OPEN,
    Marked,
    bare_terms,
    marked,
    unmarked_words_of,
)

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
HX = {"HTTP_HX_REQUEST": "true"}
PL = {"HTTP_ACCEPT_LANGUAGE": "pl"}
T10_SHEET = {
    "attributes": [{"name": "Styrka", "value": 4}],
    "skills": [{"name": "Svärd", "value": 3}],
    "equipment": [],
}
FASTTEST_SHEET = {
    "attributes": {"BUDOWA": 6, "ZRĘCZNOŚĆ": 5, "UMYSŁ": 5, "DUCH": 4},
    "skills": {"WALKA": 2, "SPRAWNOŚĆ": 1, "KULTURA": -1, "TECHNIKA": -2, "PRZYRODA": 0,
               "EKWIPUNEK": 0},
    "traits": [{"name": "Rycerz", "level": 2, "magic": False},
               {"name": "szermierka", "level": 1, "magic": False}],
    "flaw": None,
    "wounds": [{"label": "pchnięcie", "severity": "heavy", "bandaged": False}],
    "armor": 0, "magic_die": None, "xp": 0, "experience_dice": 0,
}  # fmt: skip


def page(client, name, *args, headers) -> str:
    response = client.get(reverse(name, args=args), **headers)
    assert response.status_code == 200
    return response.content.decode()


def log(client, table, headers) -> str:
    return page(client, "session_detail", table.campaign.pk, table.session.pk, headers=headers)


def sheet(client, character, headers) -> str:
    return page(client, "character_detail", character.campaign_id, character.pk, headers=headers)


@pytest.fixture
def t10(make_table):
    with translation.override("en"):  # the rules' tables come in the language of its GM
        return make_table("t10", name="Moorcrest", characters=[("Astrid", T10_SHEET)])


@pytest.fixture
def fasttest(make_table):
    return make_table("fasttest", name="Zarith", characters=[("Brunhilda", FASTTEST_SHEET)])


# --- The words the issue names, written in English, read in Polish ------------------------------


def test_a_polish_reader_reads_the_waking_test_of_a_state_put_on_in_english(
    client, fasttest, gm, player
):
    client.force_login(gm)
    url = reverse("add_condition", args=[fasttest.campaign.pk, fasttest.hero.pk])
    client.post(url, {"preset": "ft_unconscious"}, **EN)
    client.force_login(player)
    polish = sheet(client, fasttest.hero, PL)
    assert "do udanego testu „odzyskanie przytomności”" in polish
    assert "waking test" not in polish.lower()
    assert "Odzyskanie przytomności: DUCH + SPRAWNOŚĆ" in polish


def test_a_wound_the_app_labels_in_english_reads_in_polish_on_the_sheet(
    client, fasttest, player, monkeypatch
):
    client.force_login(player)
    deal(monkeypatch, *[3] * 10)
    url = panel_url(fasttest.hero, "test_roll")
    client.post(url, {"attribute": "BUDOWA", "ignore_wounds": "on", "key": str(uuid.uuid4())}, **EN)
    fasttest.hero.refresh_from_db()
    assert fasttest.hero.data["wounds"][-1]["label"] == "wounds ignored, #1"  # as written
    polish = sheet(client, fasttest.hero, PL)
    assert "zignorowane rany, #1" in polish
    assert "wounds ignored" not in polish
    assert "wounds ignored, #1" in sheet(client, fasttest.hero, EN)


def test_a_polish_reader_reads_the_magic_die_in_polish():
    die = {"sides": 10, "face": 3, "kept": True, "group": "magic", "why": "read"}
    with translation.override("pl"):
        assert die_words(die) == "d10, kość magii, odczytana"
    with translation.override("en"):
        assert die_words(die) == "d10, magic die (Kość magii), read"


def test_stand_up_reads_wstanie_beside_resa_dig_for_a_polish_reader(client, t10, gm):
    client.force_login(gm)
    url = reverse("add_condition", args=[t10.campaign.pk, t10.hero.pk])
    client.post(url, {"preset": "knocked_down"}, **EN)
    polish = log(client, t10, PL)
    assert "do udanego testu „wstanie (resa dig)”" in polish
    assert "stand up" not in polish
    assert "until “stand up (resa dig)” succeeds" in log(client, t10, EN)


def test_the_rules_tables_added_in_english_are_named_in_polish(client, t10, gm):
    assert RandomTable.objects.filter(campaign=t10.campaign, name="Bad options (Katastrof)")
    client.force_login(gm)
    polish = page(client, "random_tables", t10.campaign.pk, headers=PL)
    assert "Złe opcje (Katastrof)" in polish
    assert "Bad options" not in polish
    assert "Extra options" not in polish


def test_a_rules_table_roll_written_in_polish_reads_in_english(client, make_table, gm, monkeypatch):
    with translation.override("pl"):
        table = make_table("t10", name="Moorcrest", characters=[("Astrid", T10_SHEET)])
    extra = RandomTable.objects.get(campaign=table.campaign, purpose="impressive")
    assert extra.name == "Dodatkowe opcje (Imponerande)"
    client.force_login(gm)
    deal(monkeypatch, 1)
    url = reverse("random_table_roll", args=[table.campaign.pk, extra.pk])
    client.post(url, {"key": str(uuid.uuid4()), "visibility": "public"}, **PL, **HX)
    english = log(client, table, EN)
    assert "Table: Extra options (Imponerande) (1d9)" in english
    assert "The target is disarmed." in english
    assert "Cel zostaje rozbrojony" not in english


def test_the_hidden_table_roll_is_rzuc_jako_ukryty_beside_ukryty(client, t10, gm):
    client.force_login(gm)
    polish = page(client, "dashboard", t10.campaign.pk, headers=PL)
    assert "Rzuć jako ukryty</button>" in polish
    assert "Rzuć ukrycie" not in polish


def test_an_english_reader_sees_the_rules_words_beside_their_translation_on_condition_buttons(
    client, fasttest, t10, gm
):
    client.force_login(gm)
    english = page(client, "dashboard", fasttest.campaign.pk, headers=EN)
    assert 'title="a flaw (Wada)"' in english
    assert 'title="heavily wounded, tests consciousness (ciężko ranny testuje przytomność)"' in (
        english
    )
    assert 'title="Wada"' in page(client, "dashboard", fasttest.campaign.pk, headers=PL)
    swedish = page(client, "dashboard", t10.campaign.pk, headers=PL)
    assert "podniesiesz (-2 tärningar på alla handlingar tills du lyckats resa dig igen)" in swedish


def test_a_caerbannog_difficulty_keeps_its_polish_name_beside_the_english(
    client, make_table, player
):
    from tests.web.test_panel_caerbannog import SHEET

    table = make_table("caerbannog", characters=[("Morgana", SHEET)])
    client.force_login(player)
    form = {"skill": "Jazda", "difficulty": "przeciętny"}
    english = client.post(panel_url(table.hero), form, **EN).content.decode()
    assert '<option value="przeciętny" selected>przeciętny (average, 3)</option>' in english
    assert "+3 difficulty: przeciętny (average)" in english
    polish = client.post(panel_url(table.hero), form, **PL).content.decode()
    assert '<option value="przeciętny" selected>przeciętny (3)</option>' in polish
    assert "+3 trudność: przeciętny" in polish


def test_an_award_the_app_gives_its_reason_reads_in_the_readers_language(client, make_table, gm):
    from rolls.dashboard import awards

    table = make_table("fasttest", settings={"fasttest": {"experience_dice": True}},
                       characters=[("Brunhilda", FASTTEST_SHEET)])  # fmt: skip
    with translation.override("en"):
        awards.give_experience_die(campaign=table.campaign, gm=gm, character_id=table.hero.pk)
    client.force_login(gm)
    polish = page(client, "awards_panel", table.campaign.pk, headers=PL)
    assert "— kość doświadczenia" in polish
    assert "— experience die" in page(client, "awards_panel", table.campaign.pk, headers=EN)


# --- Issue 37, item 8: the words each reader still met in the other language ---------------------


@pytest.fixture
def caerbannog(make_table):
    from tests.web.test_caerbannog_consequences import SHEET

    return make_table(
        "caerbannog", name="Caerbannog", characters=[("Julio", SHEET), ("Morgana", SHEET)],
        npcs=[("Tristan", [{"name": "szybki", "dice": 1}])],
    )  # fmt: skip


def medicine(client, table, monkeypatch) -> Roll:
    """Julio's Medycyna II (3d8) 7, 5, 2 against przeciętny (3): the middle 5, 2 successes."""
    client.force_login(table.players[0])
    deal(monkeypatch, 7, 5, 2)
    form = {"skill": "Medycyna", "difficulty": "przeciętny", "key": str(uuid.uuid4())}
    client.post(panel_url(table.hero, "test_roll"), form, **EN)
    return Roll.objects.filter(session=table.session, kind="test").latest("seq")


def test_a_caerbannog_entry_names_przebicia_and_rozmach_beside_their_english(
    client, caerbannog, monkeypatch
):
    medicine(client, caerbannog, monkeypatch)
    english = log(client, caerbannog, EN)
    assert "<dt>przebicia (breakthroughs)</dt>" in english
    assert "<dt>Rozmach (momentum) gained</dt>" in english
    assert "<dt>Rozmach (momentum) now</dt>" in english
    assert "<dt>przebicia</dt>" in log(client, caerbannog, PL)


def test_the_heal_button_names_vitality_and_endurance_beside_the_polish(
    client, caerbannog, monkeypatch
):
    medicine(client, caerbannog, monkeypatch)
    client.force_login(caerbannog.gm)
    english = page(client, "dashboard", caerbannog.campaign.pk, headers=EN)
    assert "Heal: 2 Żywotność (vitality) → Wytrzymałość (endurance)" in english
    polish = page(client, "dashboard", caerbannog.campaign.pk, headers=PL)
    assert "Lecz: 2 punkty Żywotności → Wytrzymałość" in polish


def test_a_healing_entry_turns_vitality_into_endurance_in_each_readers_words(
    client, caerbannog, monkeypatch
):
    roll = medicine(client, caerbannog, monkeypatch)
    client.force_login(caerbannog.gm)
    url = reverse("caerbannog_apply_result", args=[caerbannog.campaign.pk, roll.pk])
    morgana = caerbannog.characters[1]
    client.post(url, {"target": morgana.pk, "apply": "healing"}, **EN, **HX)
    english = log(client, caerbannog, EN)
    assert "Morgana turns 2 Żywotność (vitality) into Wytrzymałość (endurance) after #1" in english
    assert "Morgana zamienia 2 punkty Żywotności w Wytrzymałość po #1" in log(
        client, caerbannog, PL
    )


def test_caerbannogs_awards_box_gives_pd_as_its_title_names_them(client, caerbannog, fasttest, gm):
    client.force_login(gm)
    english = page(client, "dashboard", caerbannog.campaign.pk, headers=EN)
    assert 'hx-disabled-elt="this">Give PD</button>' in english
    assert "Give XP" not in english
    assert 'hx-disabled-elt="this">Give XP</button>' in page(
        client, "dashboard", fasttest.campaign.pk, headers=EN
    )


@pytest.mark.parametrize("system", ["t10", "ast", "caerbannog"])
def test_the_turn_order_box_is_headed_turn_order_in_every_system(client, make_table, gm, system):
    table = make_table(system, characters=[("Astrid", {})])
    client.force_login(gm)
    english = page(client, "dashboard", table.campaign.pk, headers=EN)
    assert '<h2 id="turn-order-title">Turn order</h2>' in english
    assert "Inicjatywa" not in english


def test_a_caerbannog_states_tooltip_reads_english_first_with_the_polish_beside(
    client, caerbannog, gm
):
    client.force_login(gm)
    english = page(client, "dashboard", caerbannog.campaign.pk, headers=EN)
    assert 'title="the state: stunned (stan oszołomiony)"' in english
    assert 'title="stan oszołomiony"' in page(
        client, "dashboard", caerbannog.campaign.pk, headers=PL
    )


#: Every condition the rules bring with a tooltip quoting the rules' own words.
QUOTED = [
    (system.key, preset["key"])
    for system in all_systems()
    for preset in in_force.condition_rules(system).presets
    if preset.get("original")
]


@pytest.mark.parametrize(("system", "key"), QUOTED)
def test_a_conditions_tooltip_reads_in_the_readers_words_first_the_rules_own_beside(system, key):
    [preset] = [p for p in in_force.condition_rules(get_system(system)).presets if p["key"] == key]
    with translation.override("pl"):
        polish = str(preset["original"])
    with translation.override("en"):
        english = str(preset["original"])
    # A Polish original is all a Polish reader reads; a Swedish one stands in its brackets.
    swedish = re.search(r"\(([^()]+)\)$", polish)
    assert english.endswith(f"({swedish.group(1) if swedish else polish})")


def test_caerbannogs_npc_roll_levels_read_in_each_readers_dice(client, caerbannog, gm):
    client.force_login(gm)
    english = page(client, "dashboard", caerbannog.campaign.pk, headers=EN)
    assert ">0 (3d4)</option>" in english
    assert ">IV (3d12)</option>" in english
    assert ">IV (3k12)</option>" in page(client, "dashboard", caerbannog.campaign.pk, headers=PL)


def test_the_caerbannog_npc_page_explains_no_fasttest_trait_levels(
    client, caerbannog, fasttest, gm
):
    client.force_login(gm)
    english = page(client, "npc_list", caerbannog.campaign.pk, headers=EN)
    assert "e.g. “Bandit: quick, cruel”" in english
    assert not re.search(r"\b\dk\b", english)
    assert "A level is a number with k" in page(
        client, "npc_list", fasttest.campaign.pk, headers=EN
    )


def test_the_demos_t10_table_is_typed_in_polish_like_the_rest_of_the_demo(client):
    from campaigns.models import Campaign
    from rolls.demo import seed_demo

    seed_demo()
    campaign = Campaign.objects.get(system="t10")
    client.force_login(campaign.gm)
    polish = page(client, "random_tables", campaign.pk, headers=PL)
    assert "Pogoda w Moorcrest" in polish
    assert "weather" not in polish.lower()


def test_the_t10_character_form_says_once_that_t10_keeps_its_swedish_terms(client, t10, player):
    client.force_login(player)
    english = page(client, "character_create", t10.campaign.pk, headers=EN)
    assert english.count("T10 keeps the Swedish terms of its rules") == 1
    assert "such as Attributes (Grundegenskaper)" in english
    polish = page(client, "character_create", t10.campaign.pk, headers=PL)
    assert "T10 zachowuje szwedzkie terminy swoich zasad" in polish


# --- Entries stored before their words were read in each reader's language ------------------------


def _old_entry(table, label, sources=()):
    """An entry as the code before this change logged it: the words typed out in English."""
    roll, _created = actions.record_roll(
        actions.RollSpec(
            session=table.session,
            actor=table.gm,
            system=table.campaign.system,
            params={"note": "condition"},
            key=uuid.uuid4(),
            label=label,
            sources=list(sources),
            character=table.hero,
            kind="condition",
            engine=note,
        )
    )
    return roll


def test_an_older_entry_with_the_ending_test_in_english_reads_in_polish(client, t10, gm):
    label = words(
        "condition_added", name=words("condition:knocked_down"), concerns=words("concerns_all"),
        until=words("until_success", test="stand up (resa dig)"),
    )  # fmt: skip
    _old_entry(t10, label)
    client.force_login(gm)
    assert "do udanego testu „wstanie (resa dig)”" in log(client, t10, PL)
    assert "until “stand up (resa dig)” succeeds" in log(client, t10, EN)


def test_an_older_condition_typed_by_its_target_in_english_reads_in_polish(t10, gm):
    condition = conditions.add_condition(
        character=t10.hero, actor=gm,
        spec=in_force.preset_spec(t10.campaign.rules, "good_method"),
    )  # fmt: skip
    Condition.objects.filter(pk=condition.pk).update(scope_name="the same target or case")
    condition.refresh_from_db()
    with translation.override("pl"):
        assert "testy przeciw: ten sam cel lub przypadek" in conditions.line(condition)


def test_an_older_caerbannog_difficulty_stored_by_name_reads_in_the_readers_words(make_table):
    table = make_table("caerbannog", characters=[("Morgana", {})])
    roll = _old_entry(table, "Jazda II (3d8) vs 3", [{"kind": "difficulty", "amount": 3,
                                                       "source": "przeciętny"}])  # fmt: skip
    with translation.override("en"):
        assert render(roll.sources[0]["source"]) == "przeciętny (average)"
    with translation.override("pl"):
        assert render(roll.sources[0]["source"]) == "przeciętny"


def test_a_text_someone_typed_stays_as_typed_in_every_language(make_table):
    table = make_table("fasttest", characters=[("Brunhilda", FASTTEST_SHEET)])
    roll = _old_entry(table, "moja własna notatka: stand up later")
    for language in ("en", "pl"):
        with translation.override(language):
            assert render(Roll.objects.get(pk=roll.pk).label_words) == (
                "moja własna notatka: stand up later"
            )


# --- The pseudo-locale check itself --------------------------------------------------------------


def test_the_pseudo_locale_marks_a_translated_message_with_its_arguments_outside():
    with marked("pl"), translation.override("pl"):
        text = Template(
            "{% load i18n %}{% blocktranslate with name='Zarith' %}Edit {{ name }}"
            "{% endblocktranslate %} {% translate 'Roll hidden' %}"
        ).render(Context())
    assert text == "⟦Edytuj: ⟧Zarith ⟦Rzuć jako ukryty⟧"


def test_the_pseudo_locale_leaves_no_marked_language_behind():
    with marked("pl"):
        pass
    with translation.override("pl"):
        assert translation.gettext("Roll hidden") == "Rzuć jako ukryty"
    with translation.override("en"):
        assert OPEN not in str(render(words("condition:knocked_down")))


def test_the_check_finds_a_word_no_message_holds():
    html = '<p>⟦Rzuć⟧ hidden <button title="Roll">⟦Zapisz⟧</button></p>'
    found = unmarked_words_of(html, set())
    assert [word.split(":")[0] for word in found] == ["hidden", "Roll"]


def test_the_check_leaves_names_numbers_terms_code_and_quoted_originals_alone():
    html = (
        '<html lang="pl"><p>⟦Rzut⟧ Brunhilda z Gór 3d8+2 = 14 (#3) II</p>'
        "<p><code>python3 -m rolls.engine check export.json</code></p>"
        '<p>⟦Udaje się⟧ <small lang="sv">Du lyckas men tar lite skada</small></p></html>'
    )
    assert unmarked_words_of(html, {"Brunhilda z Gór"}) == []
    assert unmarked_words_of(html, set())[0].startswith("Brunhilda")


def test_the_game_terms_allowed_outside_messages_are_few():
    assert len(GAME_TERMS) <= 12


def test_the_check_finds_a_game_term_a_message_leaves_bare():
    terms = frozenset({"Rozmach", "przebicia", "oszołomiony"})
    assert bare_terms("Rozmach gained", "zdobyty Rozmach", terms) == ("Rozmach",)
    assert bare_terms("przebicia", "przebicia", terms) == ("przebicia",)
    assert bare_terms("Rozmach (momentum) gained", "zdobyty Rozmach", terms) == ()
    assert bare_terms("stunned (oszołomiony)", "oszołomiony", terms) == ()


def test_a_game_term_the_page_explains_once_may_stand_alone_on_it():
    explained = "<p>⟦Rozmach (momentum)⟧ ⟦Set ⟧⟪Rozmach⟫⟦ to⟧ 3</p>"
    assert unmarked_words_of(explained, set()) == []
    bare = "<p>⟪Rozmach⟫⟦ gained⟧ 2 ⟪przebicia⟫ 0</p>"
    assert [word.split(":")[0] for word in unmarked_words_of(bare, set())] == [
        "Rozmach",
        "przebicia",
    ]


def test_the_rules_terms_are_those_the_catalogue_keeps_beside_their_translation():
    assert {"Rozmach", "przebicia", "Wytrzymałość", "PD", "FUNT", "resa"} <= Marked("en").terms
    assert not {"NPC", "Test", "test"} & Marked("en").terms


def test_the_check_finds_polish_dice_for_an_english_reader_only():
    html = "<p>⟦Skill level⟧ IV (3k12)</p>"
    assert [word.split(":")[0] for word in unmarked_words_of(html, set(), "en")] == ["k"]
    assert unmarked_words_of(html, set(), "pl") == []
