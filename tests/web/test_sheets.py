"""Character sheets, whatever the system: who creates, reads and edits them, inline editing, and
a constant number of queries per page."""

from __future__ import annotations

import html
import json
import re
import types

import pytest

from sheets.models import Character
from tests.web.browser import demo_table, log_in, slow_network
from tests.web.sheet_helpers import JAGA, SHEET_PAGE_QUERIES, client_for, url
from tests.web.test_sheet_fasttest import creation_post

pytestmark = pytest.mark.django_db
pytest_plugins = ["tests.web.sheet_fixtures"]

HX = {"HTTP_HX_REQUEST": "true"}


def text(response) -> str:
    return re.sub(r"\s+", " ", html.unescape(response.content.decode()))


# Who creates characters ------------------------------------------------------------------------


def test_a_player_may_have_several_characters_in_one_campaign(fasttest, player):
    client = client_for(player)
    client.post(url("character_create", campaign=fasttest), creation_post(name="Jaga"))
    client.post(url("character_create", campaign=fasttest), creation_post(name="Baba"))
    assert Character.objects.filter(campaign=fasttest, owner=player).count() == 2


def test_the_gm_creates_a_character_for_a_player(fasttest, gm, player):
    post = creation_post() | {"owner": str(player.pk)}
    client_for(gm).post(url("character_create", campaign=fasttest), post)
    assert Character.objects.get(campaign=fasttest).owner == player


def test_the_gm_creates_a_character_of_their_own(fasttest, gm):
    client_for(gm).post(url("character_create", campaign=fasttest), creation_post())
    assert Character.objects.get(campaign=fasttest).owner == gm


def test_the_gm_is_offered_every_member_as_owner(fasttest, gm, player, other_player):
    page = text(client_for(gm).get(url("character_create", campaign=fasttest)))
    assert f'<option value="{player.pk}"' in page
    assert f'<option value="{other_player.pk}"' in page


def test_a_player_cannot_create_a_character_for_another_player(fasttest, player, other_player):
    post = creation_post() | {"owner": str(other_player.pk)}
    response = client_for(player).post(url("character_create", campaign=fasttest), post)
    assert "Choose a member of this campaign." in text(response)
    assert not Character.objects.exists()


def test_the_gm_cannot_give_a_character_to_an_outsider(fasttest, gm, outsider):
    post = creation_post() | {"owner": str(outsider.pk)}
    response = client_for(gm).post(url("character_create", campaign=fasttest), post)
    assert "Choose a member of this campaign." in text(response)
    assert not Character.objects.exists()


def test_a_player_is_not_offered_an_owner_choice(fasttest, player):
    page = text(client_for(player).get(url("character_create", campaign=fasttest)))
    assert 'name="owner"' not in page


def test_a_forged_owner_that_is_not_a_number_is_a_form_error(fasttest, gm):
    post = creation_post() | {"owner": "'; drop table"}
    response = client_for(gm).post(url("character_create", campaign=fasttest), post)
    assert response.status_code == 200
    assert "Choose a member of this campaign." in text(response)


# Outsiders see nothing --------------------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_log_in(jaga, client):
    response = client.get(url("character_detail", jaga))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_a_forged_edit_through_another_campaign_changes_nothing(jaga, make_campaign, gm):
    other = make_campaign("fasttest", name="Other table")
    path = url("character_section", campaign=other, pk=jaga.pk, section="armor")
    response = client_for(gm).post(path, {"armor": "9"})
    jaga.refresh_from_db()
    assert response.status_code == 404
    assert jaga.data["armor"] == 1


# Reading and editing ---------------------------------------------------------------------------


def test_another_player_reads_the_sheet_without_edit_links_or_roll_buttons(jaga, other_player):
    page = text(client_for(other_player).get(url("character_detail", jaga)))
    assert "Wiedźma Jaga" in page
    assert "You are viewing another player's sheet: read only." in page
    assert 'class="edit-link"' not in page
    assert "roll-target" not in page
    assert 'name="wound_label"' not in page


def test_another_players_forged_edit_is_404_and_changes_nothing(jaga, other_player):
    client = client_for(other_player)
    responses = [
        client.post(url("character_section", jaga, section="armor"), {"armor": "9"}),
        client.post(url("character_section", jaga, section="name"), {"name": "Stolen"}),
        client.post(url("character_wound_add", jaga), {"wound_severity": "deadly"}),
        client.post(url("character_delete", jaga)),
    ]
    jaga.refresh_from_db()
    assert {response.status_code for response in responses} == {404}
    assert (jaga.name, jaga.data) == ("Wiedźma Jaga", JAGA)


def test_the_owner_sees_edit_links_only_for_what_they_may_change(jaga, player):
    page = text(client_for(player).get(url("character_detail", jaga)))
    assert "?edit=armor#section-armor" in page
    assert "?edit=magic#section-magic" in page
    assert "?edit=attributes" not in page


def test_the_gm_sees_edit_links_for_every_box(jaga, gm):
    page = text(client_for(gm).get(url("character_detail", jaga)))
    for key in ("name", "attributes", "skills", "traits", "armor", "magic", "experience"):
        assert f"?edit={key}#section-{key}" in page


def test_edit_opens_one_box_as_a_form_through_htmx(jaga, player):
    response = client_for(player).get(url("character_section", jaga, section="armor"), **HX)
    page = text(response)
    assert page.startswith('<section class="sheet-box sheet-box--armor is-editing"')
    assert 'name="armor"' in page


def test_edit_without_javascript_opens_the_box_on_the_full_page(jaga, player):
    client = client_for(player)
    response = client.get(url("character_section", jaga, section="armor"))
    page = text(client.get(response["Location"]))
    assert response["Location"].endswith("?edit=armor#section-armor")
    assert "sheet-box--armor is-editing" in page


def test_the_page_ignores_an_edit_request_the_viewer_may_not_make(jaga, player):
    page = text(client_for(player).get(url("character_detail", jaga) + "?edit=attributes"))
    assert "is-editing" not in page


def test_saving_a_box_through_htmx_renders_it_again_in_place(jaga, player):
    response = client_for(player).post(
        url("character_section", jaga, section="armor"), {"armor": "4"}, **HX
    )
    assert "is-editing" not in text(response)
    assert '<span class="big-number__value">4</span>' in text(response)


def test_saving_traits_asks_the_boxes_computed_from_them_to_refresh(jaga, gm):
    post = {"trait_0_name": "czarodziejka", "trait_0_level": "3", "trait_0_magic": "on"}
    response = client_for(gm).post(url("character_section", jaga, section="traits"), post, **HX)
    assert json.loads(response["HX-Trigger"]) == {
        "sheet-changed": {"boxes": ["magic", "experience"]}
    }


def test_adding_a_wound_refreshes_the_attributes_with_their_wound_dice(jaga, player):
    response = client_for(player).post(
        url("character_wound_add", jaga), {"wound_severity": "light"}, **HX
    )
    assert json.loads(response["HX-Trigger"]) == {"sheet-changed": {"boxes": ["attributes"]}}


def test_saving_without_javascript_redirects_to_the_box(jaga, player):
    response = client_for(player).post(
        url("character_section", jaga, section="armor"), {"armor": "4"}
    )
    assert response.status_code == 302
    assert response["Location"].endswith("#section-armor")


def test_a_refused_save_without_javascript_shows_the_page_with_the_error(jaga, player):
    response = client_for(player).post(
        url("character_section", jaga, section="armor"), {"armor": "eleven"}
    )
    page = text(response)
    assert response.status_code == 200
    assert "Armor: enter a whole number." in page
    assert 'value="eleven"' in page


def test_a_read_only_box_refreshes_when_a_box_it_depends_on_is_saved(jaga, player):
    page = text(client_for(player).get(url("character_detail", jaga)))
    assert "hx-trigger=\"sheet-changed[detail.boxes.includes('magic')] from:body\"" in page


def test_the_owner_renames_a_character(jaga, player):
    client_for(player).post(
        url("character_section", jaga, section="name"), {"name": " Baba "}, **HX
    )
    jaga.refresh_from_db()
    assert jaga.name == "Baba"


def test_an_empty_name_is_refused_and_nothing_is_renamed(jaga, player):
    response = client_for(player).post(
        url("character_section", jaga, section="name"), {"name": ""}, **HX
    )
    jaga.refresh_from_db()
    assert "Give the character a name." in text(response)
    assert jaga.name == "Wiedźma Jaga"


def test_the_owner_deletes_a_character_after_confirming(jaga, player):
    client = client_for(player)
    confirm = client.get(url("character_delete", jaga))
    response = client.post(url("character_delete", jaga))
    assert "Delete Wiedźma Jaga?" in text(confirm)
    assert response.status_code == 302
    assert not Character.objects.filter(pk=jaga.pk).exists()


def test_the_gm_deletes_a_players_character(jaga, gm):
    client_for(gm).post(url("character_delete", jaga))
    assert not Character.objects.filter(pk=jaga.pk).exists()


def test_forged_values_of_the_wrong_type_are_form_errors_not_server_errors(jaga, gm):
    client = client_for(gm)
    posts = {
        "attributes": {"attr_BUDOWA": "1e9", "attr_DUCH": "[]"},
        "skills": {"skill_0": "9999999999999999999999", "skill_1": "-"},
        "traits": {"trait_0_name": "x" * 500, "trait_0_level": "0", "trait_999999_name": "y"},
        "experience": {"xp": "-5", "experience_dice": "∞"},
        "magic": {"magic_die": "d100"},
    }
    codes = {
        section: client.post(url("character_section", jaga, section=section), post, **HX)
        for section, post in posts.items()
    }
    jaga.refresh_from_db()
    assert {response.status_code for response in codes.values()} == {200}
    assert all("is-editing" in text(response) for response in codes.values())
    assert jaga.data == JAGA


# Queries ---------------------------------------------------------------------------------------


def test_the_fasttest_sheet_runs_the_same_queries_for_few_or_many_rows(
    jaga, player, django_assert_num_queries
):
    client = client_for(player)
    path = url("character_detail", jaga)
    client.get(path)  # warm the session
    with django_assert_num_queries(SHEET_PAGE_QUERIES):
        client.get(path)
    jaga.data["traits"] += [{"name": f"t{i}", "level": 1, "magic": False} for i in range(25)]
    jaga.data["wounds"] = [
        {"label": f"w{i}", "severity": "light", "bandaged": False} for i in range(20)
    ]
    jaga.save()
    with django_assert_num_queries(SHEET_PAGE_QUERIES):
        client.get(path)


def test_the_caerbannog_sheet_runs_the_same_queries_for_few_or_many_skills(
    julio, player, django_assert_num_queries
):
    client = client_for(player)
    path = url("character_detail", julio)
    client.get(path)
    with django_assert_num_queries(SHEET_PAGE_QUERIES):
        client.get(path)
    julio.data["skills"] += [
        {"name": f"Krąg {i}", "category": "mystic", "level": 1} for i in range(20)
    ]
    julio.save()
    with django_assert_num_queries(SHEET_PAGE_QUERIES):
        client.get(path)


# In a real browser -----------------------------------------------------------------------------


@pytest.mark.browser
def test_in_a_browser_totals_follow_typing_and_boxes_save_in_place(browser, tmp_path):
    # On the demo table's FastTest campaign (magic on), as its player ala on a phone.
    with demo_table(tmp_path) as base:
        page = log_in(browser, base, "ala", width=360, height=800, locale="en-US")
        page.click("text=Królestwo Zarith (FastTest)")
        page.click("text=New character")
        page.fill("#id_attr_BUDOWA", "4")
        page.wait_for_function(
            "document.querySelector('#sheet-totals').textContent.includes('19 / 20')"
        )
        page.go_back()
        page.click("text=Brunhilda z Gór")
        page.click("#section-armor .edit-link")
        page.fill("#id_armor", "4")
        page.click("#section-armor button[type=submit]")
        page.wait_for_selector("#section-armor .big-number__value >> text=4")
        page.fill("#id_wound_label", "ugryzienie")
        page.select_option("#id_wound_severity", "heavy")
        page.click("text=Add wound")
        page.wait_for_selector(".wound--heavy >> text=ugryzienie")
        page.reload()  # what the server saved
        assert page.inner_text("#section-armor .big-number__value").strip() == "4"
        assert page.locator(".wound--heavy:has-text('ugryzienie')").count() == 1


@pytest.mark.browser
def test_a_number_typed_before_the_pages_scripts_arrive_still_updates_the_totals(browser, tmp_path):
    """CI once typed into the new sheet before htmx had run: the keystroke's request was never
    sent and the totals stayed as they were. A phone on a slow connection does the same; the
    totals follow what the fields hold once the scripts are there."""
    with demo_table(tmp_path) as base:
        page = log_in(browser, base, "ala", width=360, height=800, locale="en-US")
        page.click("text=Królestwo Zarith (FastTest)")
        slow_network(page, 800)
        page.click("text=New character")
        page.fill("#id_attr_BUDOWA", "4")
        assert page.evaluate("typeof htmx") == "undefined"  # typed before the scripts
        page.wait_for_function(
            "document.querySelector('#sheet-totals').textContent.includes('19 / 20')"
        )


# A system module without SECTIONS: the whole sheet is one box --------------------------------


@pytest.fixture
def sectionless_fasttest(monkeypatch):
    """FastTest's module as a system whose SECTIONS are empty would offer it."""
    from campaigns.systems import get_system
    from sheets.systems import fasttest as real

    fake = types.ModuleType("sheets.systems.fasttest")
    for name in dir(real):
        if not name.startswith("_") and name != "SECTIONS":
            setattr(fake, name, getattr(real, name))
    fake.SECTIONS = ()
    fake.SHEET_TEMPLATE = "sheets/fasttest/_armor.html"
    monkeypatch.setattr(get_system("fasttest"), "sheet", fake)
    return fake


def test_without_sections_the_sheet_is_one_box_edited_with_the_creation_form(
    sectionless_fasttest, jaga, gm
):
    client = client_for(gm)
    page = text(client.get(url("character_detail", jaga)))
    form = text(client.get(url("character_section", jaga, section="sheet"), **HX))
    assert 'id="section-sheet"' in page
    assert 'name="attr_BUDOWA"' in form


def test_without_sections_saving_the_box_validates_the_whole_sheet_as_an_edit(
    sectionless_fasttest, jaga, gm
):
    post = creation_post(attrs=(8, 4, 6, 7), armor=2)
    client_for(gm).post(url("character_section", jaga, section="sheet"), post, **HX)
    jaga.refresh_from_db()
    assert (jaga.data["attributes"]["BUDOWA"], jaga.data["armor"]) == (8, 2)
