"""Caerbannog's heroic effort paid with another resource (RULES.md 4.12, "Heroic effort with
another resource"): on a called test the GM names the resource and its price, the player may
choose it after a failure, nothing is taken from the sheet and the log says what was paid."""

import copy
import html
import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.live import user_group
from config.text import has_unsafe_text
from rolls.actions import ActionRefused
from rolls.engine import caerbannog as engine
from rolls.labels import source_line
from rolls.models import Roll
from rolls.pending import actions as pending
from rolls.systems.caerbannog import follow_ups
from tests.web.hostile import encode
from tests.web.test_caerbannog_rozmach import SHEET  # Morgana: the Rozmach tests' sheet

pytestmark = pytest.mark.django_db

# Not a number on the sheet: nothing is taken off it.
NAME, PRICE = "the duke's favour", "lost for the rest of the story"


@pytest.fixture
def called(make_table):
    """Morgana (Wytrzymałość 8, Determinacja 3, no Rozmach); the GM calls for Unik vs 3."""
    table = make_table(
        "caerbannog", characters=[("Morgana", copy.deepcopy(SHEET))], session="first"
    )
    target = {"skill": [], "defence": ["Unik"], "form": "combined", "difficulty": "3"}
    test = pending.call_test(
        session=table.session, character=table.hero, gm=table.gm, target=target
    )
    return table, test


def allow(client, table, test, **fields):
    client.force_login(table.gm)
    url = reverse("change_test", args=[table.campaign.pk, test.pk])
    return client.post(url, {"op": "set_heroic_other", **fields}, HTTP_HX_REQUEST="true")


def text(response):
    return html.unescape(response.content.decode())


def roll_failed(client, table, test, dice, answer=None):
    """Unik II (3d8) reading 2 against 3: a failure by 1, heroic effort costs 2."""
    test.refresh_from_db()
    client.force_login(table.players[0])
    dice(2, 2, 1)
    url = reverse("test_roll", args=[table.campaign.pk, table.hero.pk])
    form = {"pending": test.pk, "revision": test.revision, "key": str(uuid.uuid4())}
    response = client.post(url, form)
    assert response.status_code == 200
    if answer is not None:
        answer.append(text(response))
    return Roll.objects.get()


def heroic(client, table, parent, **choices):
    client.force_login(table.players[0])
    url = reverse("test_follow_up", args=[table.campaign.pk, table.hero.pk, parent.pk, "heroic"])
    return client.post(url, {**choices, "key": str(uuid.uuid4())})


def offer(table, parent):
    table.hero.refresh_from_db()
    offers = follow_ups.follow_ups(parent, table.hero, table.campaign)
    return next(o for o in offers if o.kind == "heroic")


def resources(character):
    character.refresh_from_db()
    return character.data["resources"]


# --- The GM's control -------------------------------------------------------------------------


def test_the_gms_card_offers_another_resource_for_heroic_effort(client, called):
    table, _test = called
    client.force_login(table.gm)
    page = text(client.get(reverse("dashboard", args=[table.campaign.pk])))
    assert 'value="set_heroic_other"' in page
    assert "Allow heroic effort with another resource" in page


def test_the_gm_allows_another_resource_with_its_price(client, called):
    table, test = called
    response = allow(client, table, test, name=f"  {NAME} ", price=PRICE)
    assert response.status_code == 200
    test.refresh_from_db()
    assert test.modifiers["heroic_other"] == {"name": NAME, "price": PRICE}
    assert test.revision == 2
    assert f"Heroic effort may be paid with {NAME} ({PRICE})." in text(response)


def test_allowing_it_tells_the_players_page(called, monkeypatch):
    table, test = called
    sent = []
    monkeypatch.setattr(pending, "broadcast_on_commit", lambda group, event: sent.append(group))
    pending.change_test(test.pk, table.gm, "set_heroic_other", name=NAME, price=PRICE)
    assert user_group(table.hero.owner_id) in sent


def test_the_gm_takes_it_back(client, called):
    table, test = called
    allow(client, table, test, name=NAME, price=PRICE)
    response = allow(client, table, test)
    test.refresh_from_db()
    assert "heroic_other" not in test.modifiers
    assert test.revision == 3
    assert "Heroic effort may be paid with" not in text(response)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": NAME, "price": ""}, "Say what paying with it costs"),
        ({"name": " ", "price": PRICE}, "Name the resource heroic effort may be paid with"),
        ({"name": "x" * 61, "price": PRICE}, "to 60 characters each"),
        ({"name": NAME, "price": "lost\x1b[2J"}, "a control character"),
        ({"name": "kapitał\nspołeczny", "price": PRICE}, "to one line each"),
    ],
)
def test_bad_input_is_refused_with_its_message(client, called, fields, message):
    table, test = called
    response = allow(client, table, test, **fields)
    assert message in text(response)
    test.refresh_from_db()
    assert "heroic_other" not in test.modifiers
    assert test.revision == 1


def test_a_player_cannot_allow_another_resource_only_the_gm_can(client, called):
    table, test = called
    client.force_login(table.players[0])
    url = reverse("change_test", args=[table.campaign.pk, test.pk])
    fields = {"op": "set_heroic_other", "name": NAME, "price": PRICE}
    assert client.post(url, fields).status_code == 404
    test.refresh_from_db()
    assert "heroic_other" not in test.modifiers
    allow(client, table, test, name=NAME, price=PRICE)
    test.refresh_from_db()
    assert "heroic_other" in test.modifiers


def test_a_system_without_it_refuses_the_control(make_table):
    table = make_table("fasttest", session="first")
    target = {"attribute": "BUDOWA", "skills": ["WALKA"]}
    test = pending.call_test(
        session=table.session, character=table.hero, gm=table.gm, target=target
    )
    with pytest.raises(ActionRefused, match="no such setting"):
        pending.change_test(test.pk, table.gm, "set_heroic_other", name=NAME, price=PRICE)


# --- Heroic effort paid with it ---------------------------------------------------------------


def test_the_heroic_offer_lists_the_gms_resource_with_its_price(client, called, dice):
    table, test = called
    allow(client, table, test, name=NAME, price=PRICE)
    page = []
    parent = roll_failed(client, table, test, dice, answer=page)
    choices = dict(offer(table, parent).fields[0]["choices"])
    assert choices["other"] == f"{NAME}, allowed by the GM: {PRICE}"
    assert {"wytrzymalosc", "determinacja"} <= set(choices)
    assert 'name="resource" value="other"' in page[0]
    assert f"{NAME}, allowed by the GM: {PRICE}" in page[0]


def test_paying_with_it_gives_1_success_and_takes_nothing_from_the_sheet(client, called, dice):
    table, test = called
    allow(client, table, test, name=NAME, price=PRICE)
    parent = roll_failed(client, table, test, dice)
    assert heroic(client, table, parent, resource="other").status_code == 200
    entry = Roll.objects.get(kind="heroic")
    assert entry.result["answer"]["result"] == 1
    have = resources(table.hero)
    assert (have["wytrzymalosc"], have["determinacja"], have["rozmach"]) == (8, 3, 0)


def test_the_log_names_the_resource_and_its_price(client, called, dice):
    table, test = called
    allow(client, table, test, name=NAME, price=PRICE)
    heroic(client, table, roll_failed(client, table, test, dice), resource="other")
    sources = Roll.objects.get(kind="heroic").sources
    assert f"+2 heroic effort cost: paid with {NAME}, allowed by the GM: {PRICE}" in [
        source_line(s) for s in sources
    ]
    with translation.override("pl"):
        lines = [source_line(s) for s in sources]
    assert any(f"opłacony: {NAME}, za zgodą MG: {PRICE}" in line for line in lines)


def test_a_forged_other_resource_without_the_gms_allowance_is_refused(client, called, dice):
    table, test = called
    parent = roll_failed(client, table, test, dice)
    assert "other" not in dict(offer(table, parent).fields[0]["choices"])
    response = heroic(client, table, parent, resource="other")
    assert response.status_code == 409
    assert "The GM has not allowed heroic effort with another resource on this test." in text(
        response
    )
    assert not Roll.objects.filter(kind="heroic").exists()


def test_an_allowance_taken_back_before_the_roll_is_refused_after_it(client, called, dice):
    table, test = called
    allow(client, table, test, name=NAME, price=PRICE)
    allow(client, table, test, name="", price="")
    parent = roll_failed(client, table, test, dice)
    response = heroic(client, table, parent, resource="other")
    assert response.status_code == 409
    assert "The GM has not allowed heroic effort" in text(response)
    assert resources(table.hero)["wytrzymalosc"] == 8


# --- A number on the sheet (Kapitał Społeczny): that much is taken off ------------------------


def test_kapital_spoleczny_the_gm_names_is_taken_off_the_sheet(client, called, dice):
    table, test = called
    allow(client, table, test, name="Kapitał Społeczny", price="2")
    parent = roll_failed(client, table, test, dice)
    assert heroic(client, table, parent, resource="other").status_code == 200
    entry = Roll.objects.get(kind="heroic")
    assert entry.result["answer"]["result"] == 1
    have = resources(table.hero)
    assert (have["kapital_spoleczny"], have["wytrzymalosc"], have["determinacja"]) == (0, 8, 3)
    paid = "+2 heroic effort cost: paid with 2 Kapitał Społeczny taken off the sheet, allowed by"
    assert f"{paid} the GM" in [source_line(s) for s in entry.sources]


def test_the_offer_says_how_much_of_the_sheets_number_it_takes(client, called, dice):
    table, test = called
    allow(client, table, test, name="kapital spoleczny", price="2")
    choices = dict(offer(table, roll_failed(client, table, test, dice)).fields[0]["choices"])
    assert choices["other"] == "2 kapital spoleczny off the sheet, allowed by the GM (you have 2)"


def test_more_of_the_sheets_number_than_it_holds_is_refused_not_paid_in_part(client, called, dice):
    table, test = called
    allow(client, table, test, name="Kapitał Społeczny (social capital)", price="3")
    response = heroic(client, table, roll_failed(client, table, test, dice), resource="other")
    assert response.status_code == 409
    assert (
        "Heroic effort paid with Kapitał Społeczny (social capital) costs 3; the sheet has 2."
        in text(response)
    )
    assert not Roll.objects.filter(kind="heroic").exists()
    assert resources(table.hero)["kapital_spoleczny"] == 2


def test_the_sheet_changed_under_the_offer_is_refused_as_the_roll_is_saved(client, called, dice):
    table, test = called
    allow(client, table, test, name="Kapitał Społeczny", price="2")
    parent = roll_failed(client, table, test, dice)
    built = follow_ups.build_follow_up("heroic", parent, table.hero, table.campaign,
                                       {"resource": "other"})  # fmt: skip
    assert built.ready
    table.hero.data["resources"]["kapital_spoleczny"] = 1  # spent meanwhile
    table.hero.save()
    with pytest.raises(ActionRefused, match="costs 2; the sheet has 1"):
        built.on_result(
            table.hero.data, engine.resolve(engine.parse_params(built.params), parent.faces)
        )
    assert resources(table.hero)["kapital_spoleczny"] == 1


def test_a_number_on_the_sheet_with_a_price_in_words_is_refused_at_the_card(client, called):
    table, test = called
    response = allow(client, table, test, name="kapitał społeczny", price="the duke's favour")
    assert "kapitał społeczny is a number on the sheet: give its price as a whole number" in text(
        response
    )
    test.refresh_from_db()
    assert "heroic_other" not in test.modifiers
    assert test.revision == 1


@pytest.mark.parametrize("hostile", ["\x00", "\ud800", "\u202ekapitał", "ż" * 5000, "<b>x</b>"])
@pytest.mark.parametrize("field", ["name", "price"])
def test_hostile_text_in_either_field_answers_with_a_page_not_a_500(client, called, hostile, field):
    """The demo crawled by test_hostile_input.py has no Caerbannog table: probed here."""
    table, test = called
    client.force_login(table.gm)
    url = reverse("change_test", args=[table.campaign.pk, test.pk])
    fields = {"op": "set_heroic_other", "name": NAME, "price": PRICE, field: hostile}
    body = encode(list(fields.items()))
    response = client.post(
        url, body, content_type="application/x-www-form-urlencoded", HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "Allow heroic effort with another resource" in text(response)  # the card, answered
    test.refresh_from_db()
    stored = test.modifiers.get("heroic_other") or {}
    assert not has_unsafe_text(stored)
    assert all(len(value) <= 60 for value in stored.values())
