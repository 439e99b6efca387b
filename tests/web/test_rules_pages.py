"""How each system's test works: a page per system in both languages, with its worked example
held to the engine, linked from every test panel and from the README (issue 13, item 19)."""

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from campaigns.systems import BaseSystem, get_system, register, unregister
from rolls.demo import seed_demo
from rolls.rules.pages import RulesPage, rules_pages
from sheets.models import Character

#: Each registered system's page, read through the registry (``System.rules_page``).
PAGES = rules_pages()
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
PL = {"HTTP_ACCEPT_LANGUAGE": "pl"}
#: A phrase of each worked example as a Polish reader reads it.
POLISH_EXAMPLES = {
    "fasttest": "BUDOWA 8 i WALKA +2 dają 10: szansa wynosi 9",
    "ast": "Olaf zaznacza: silny, bystry, walka toporem",
    "t10": "Astrid ma Styrka 3 i Svärd 2: pięć d10 przeciw trudności 7.",
    "caerbannog": "Julio testuje Dociekliwość II, trzy d8",
    "2d6": "W bibliotece: współczynnik 4 i umiejętność 7",
}
ENGLISH_EXAMPLES = {
    "fasttest": "BUDOWA 8 and WALKA +2 make 10: the chance is 9",
    "ast": "Olaf ticks strong, clever, axe fighting",
    "t10": "Astrid has Styrka 3 and Svärd 2: five d10 against difficulty 7.",
    "caerbannog": "Julio tests Dociekliwość II, three d8",
    "2d6": "In the library: attribute 4 and skill 7",
}


def test_every_rule_system_has_its_page():
    assert set(PAGES) == {"fasttest", "ast", "t10", "caerbannog", "2d6"}


@pytest.mark.parametrize("system", list(PAGES))
def test_each_systems_page_is_the_page_of_that_system(system):
    assert isinstance(PAGES[system], RulesPage)
    assert PAGES[system].system == system


@pytest.mark.django_db
@pytest.mark.parametrize("system", list(PAGES))
def test_a_systems_page_explains_it_in_english_with_its_worked_example(client, system):
    response = client.get(reverse("rules", args=[system]), **EN)
    html = response.content.decode()
    assert response.status_code == 200
    assert "A worked example" in html
    assert ENGLISH_EXAMPLES[system] in html
    assert all(escape(str(step)) in html for step in PAGES[system].steps)


@pytest.mark.django_db
@pytest.mark.parametrize("system", list(PAGES))
def test_a_systems_page_explains_it_in_polish_with_its_worked_example(client, system):
    response = client.get(reverse("rules", args=[system]), **PL)
    html = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="pl">' in html
    assert "Przykład krok po kroku" in html
    assert POLISH_EXAMPLES[system] in html
    assert ENGLISH_EXAMPLES[system] not in html
    with translation.override("pl"):
        assert all(escape(str(line)) in html for line in PAGES[system].example)


@pytest.mark.parametrize("system", list(PAGES))
def test_each_worked_example_says_what_the_engine_answers(system):
    module = get_system(system).engine
    assert PAGES[system].checks
    for params, faces, expected in PAGES[system].checks:
        parsed = module.parse_params(params)
        answer = module.resolve(parsed, module.parse_faces(parsed, faces)).contract()
        assert {key: answer[key] for key in expected} == expected, params


@pytest.mark.django_db
def test_the_index_links_every_systems_page(client):
    html = client.get(reverse("rules_index"), **PL).content.decode()
    for system in PAGES:
        assert f'href="{reverse("rules", args=[system])}"' in html


@pytest.mark.django_db
def test_every_test_panel_links_to_its_systems_rules_page(client, settings):
    settings.DEBUG = True
    seed_demo()
    for character in Character.objects.select_related("campaign", "owner"):
        client.force_login(character.owner)
        url = reverse("test_panel", args=[character.campaign_id, character.pk])
        html = client.get(url, **EN).content.decode()
        link = reverse("rules", args=[character.campaign.system])
        assert f'href="{link}"' in html, character.campaign.system
        assert "How does this test work?" in html


def _readme_and_docs() -> dict[str, str]:
    """README.md and every file under docs/ (the README's details moved there, issue 27)."""
    root = Path(settings.BASE_DIR)
    files = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
    return {str(path.relative_to(root)): path.read_text(encoding="utf-8") for path in files}


def test_the_readme_points_at_the_apps_own_rules_pages_not_a_file_a_clone_lacks():
    texts = _readme_and_docs()
    for name in ("README.md", "docs/rules-decisions.md"):
        assert "/rules/" in texts[name], name
    for name, text in texts.items():
        assert "../shared/" not in text, name


@pytest.mark.django_db
@pytest.mark.parametrize("system", list(PAGES))
def test_the_gms_npc_test_panel_links_to_its_systems_rules_page(client, make_table, gm, system):
    from tests.web.test_npc_rolls import with_troll

    table = make_table(**with_troll(system))
    campaign, npc = table.campaign, table.npc
    client.force_login(gm)
    html = client.get(reverse("dashboard", args=[campaign.pk]), **EN).content.decode()
    panel = html[html.index(f'id="npc-roll-{npc.pk}"') :]
    assert f'href="{reverse("rules", args=[system])}"' in panel[: panel.index("</form>")]


class Pageless(BaseSystem):
    key = "pageless"


class Paged(BaseSystem):
    key = "paged"
    rules_page = RulesPage(
        system="paged", title="Paged", intro="A page of its own.", steps=(), example=()
    )


@pytest.fixture
def pageless_and_paged():
    register(Pageless())
    register(Paged())
    yield
    unregister("pageless")
    unregister("paged")


@pytest.mark.django_db
def test_a_system_without_a_page_has_none_and_the_index_leaves_it_out(client, pageless_and_paged):
    assert client.get(reverse("rules", args=["pageless"]), **EN).status_code == 404
    html = client.get(reverse("rules_index"), **EN).content.decode()
    assert reverse("rules", args=["pageless"]) not in html


@pytest.mark.django_db
def test_a_system_brings_its_page_through_the_registry(client, pageless_and_paged):
    response = client.get(reverse("rules", args=["paged"]), **EN)
    assert response.status_code == 200
    assert "A page of its own." in response.content.decode()
    html = client.get(reverse("rules_index"), **EN).content.decode()
    assert f'href="{reverse("rules", args=["paged"])}"' in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("headers", "phrases"),
    [
        (EN, ("with one helper the initiator rolls 2 dice and the helper 1",
              "a surprised side&#x27;s pool is halved (rounded down)")),
        (PL, ("z jednym pomocnikiem inicjator rzuca 2 kośćmi, a pomocnik 1",
              "pula strony zaskoczonej spada o połowę")),
    ],
)  # fmt: skip
def test_the_caerbannog_page_says_how_a_group_test_shares_its_dice_and_what_surprise_does(
    client, headers, phrases
):
    """docs/rules-decisions.md sends its reader to this page for group tests and surprise."""
    html = client.get(reverse("rules", args=["caerbannog"]), **headers).content.decode()
    for phrase in phrases:
        assert phrase in html


@pytest.mark.parametrize(
    ("headers", "phrases"),
    [
        (EN, ("heroic effort (heroiczny wysiłek) be paid with another fitting resource",
              "the price is a whole number taken off the sheet",
              "never for what acts before the roll or changes the roll itself",
              "The GM&#x27;s NPCs have no Rozmach of their own",
              "one pool shared by the whole group of opponents")),
        (PL, ("MG może pozwolić opłacić heroiczny wysiłek innym pasującym zasobem",
              "cena jest liczbą całkowitą zdejmowaną z karty",
              "nigdy to, co działa przed rzutem albo modyfikuje sam rzut",
              "NPC prowadzeni przez MG nie mają własnego Rozmachu",
              "pulę wspólną dla całej grupy wrogów")),
    ],
)  # fmt: skip
def test_the_caerbannog_page_says_what_heroic_effort_and_rozmach_may_be_paid_with(
    client, headers, phrases
):
    """Issue 37 item 11: heroic effort with another resource, what a roll's own Rozmach may pay
    for, and the NPCs' Rozmach (none, or the shared pool the GM switches on)."""
    html = client.get(reverse("rules", args=["caerbannog"]), **headers).content.decode()
    for phrase in phrases:
        assert phrase in html


def test_the_readme_and_docs_name_no_rules_file_a_clone_lacks():
    for name, text in _readme_and_docs().items():
        assert "RULES.md" not in text, name
