"""Caerbannog combined tests with defences (RULES.md section 4, rule 8): a defence may join, the
first named skill or defence is the main one, the player orders them on the panel and a GM's
call fixes the order. Played through the panel as a browser submits it: what the page shows,
ticked and pressed, is what is posted next."""

import uuid
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from rolls.labels import source_line
from rolls.models import PendingTest, Roll
from rolls.systems.caerbannog import follow_ups, gm_call
from tests.web.live import panel_url
from tests.web.words_helpers import in_words

#: Julio of RULES.md's worked example: Opanowanie I (d6), Ukrycie II (d8), Percepcja III (d10).
JULIO = {
    "skills": [
        {"name": "Dociekliwość", "category": "practical", "level": 2},
        {"name": "Percepcja", "category": "practical", "level": 3},
        {"name": "Ukrycie", "category": "physical", "level": 2},
    ],
    "category_bonuses": {"physical": 2, "practical": 3, "social": 1, "combat": 1,
                         "knowledge": 1, "specialist": 0, "mystic": 0},
    "defences": {"Blok": 1, "Odporność": 1, "Unik": 2, "Intuicja": 1, "Koncentracja": 1,
                 "Opanowanie": 1},
    "resources": {"wytrzymalosc": 8, "determinacja": 6, "zywotnosc": 10, "zdrowie": 10,
                  "kapital_spoleczny": 2, "pd": 0, "rozmach": 0},
}  # fmt: skip


pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table("caerbannog", name="Caerbannog", characters=[("Julio", JULIO)]),
]


class _Page(HTMLParser):
    """The panel's form as a browser submits it: checked boxes, hidden and typed fields and the
    chosen options; disabled fields are not sent. ``buttons`` are its submit buttons."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.fields: list[tuple[str, str]] = []
        self.buttons: dict[tuple[str, str], dict] = {}
        self._select: str | None = None
        self._inside = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and "panel-choices" in (a.get("class") or ""):
            self._inside = True
        if not self._inside or "disabled" in a:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind not in ("checkbox", "radio") or "checked" in a:
                self.fields.append((name, a.get("value", "")))
        elif tag == "button" and name:
            self.buttons[(name, a.get("value", ""))] = a
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self.fields.append((self._select, a.get("value", "")))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        if tag == "form":
            self._inside = False

    def post(self, *extra: tuple[str, str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for name, value in [*self.fields, *extra]:
            out.setdefault(name, []).append(value)
        return out


def opened(client, hero, **query):
    """The panel a click on the sheet opens."""
    response = client.get(panel_url(hero), query)
    assert response.status_code == 200
    return response


def then(client, hero, response, *extra):
    """The panel after the player ticks or presses ``extra`` on the page ``response`` shows."""
    page = _Page(response.content.decode())
    response = client.post(panel_url(hero), page.post(*extra))
    assert response.status_code == 200
    return response


def rolled(client, hero, response):
    """Roll what the page shows; the log entry."""
    posted = _Page(response.content.decode()).post(("key", str(uuid.uuid4())))
    answer = client.post(panel_url(hero, "test_roll"), posted)
    assert answer.status_code == 200
    return Roll.objects.order_by("-seq").first()


def order_of(response) -> list[str]:
    return [row["token"] for row in response.context["panel"].context["tested"]]


def julio_orders_his_combined_test(client, hero):
    """Opanowanie from the sheet, then Ukrycie and Percepcja ticked on the panel."""
    response = opened(client, hero, defence="Opanowanie", difficulty="5")
    response = then(client, hero, response, ("skill", "Ukrycie"))
    return then(client, hero, response, ("skill", "Percepcja"))


# --- Julio's combined test, RULES.md's worked example ---------------------------------------


def test_julios_opanowanie_ukrycie_percepcja_rolls_d6_d8_d10_the_defence_first(
    client, table, player
):
    client.force_login(player)
    response = julio_orders_his_combined_test(client, table.hero)
    shown = response.context["panel"]
    assert shown.ready, shown.errors
    assert order_of(response) == ["defence:Opanowanie", "skill:Ukrycie", "skill:Percepcja"]
    assert shown.params["dice"] == [6, 8, 10]
    assert in_words(shown.label) == "Opanowanie I + Ukrycie II + Percepcja III (1d6+1d8+1d10) vs 5"


def test_julios_combined_6_4_8_against_5_is_1_success_in_the_log(client, table, player, dice):
    hero = table.hero
    client.force_login(player)
    response = julio_orders_his_combined_test(client, hero)
    dice(6, 4, 8)
    entry = rolled(client, hero, response)
    answer = entry.result["answer"]
    assert entry.faces == [6, 4, 8]
    assert entry.params["dice"] == [6, 8, 10]
    assert (answer["kept"], answer["result"]) == (6, 1)
    # The d6 shows its maximum: +1 Rozmach (RULES.md: "d6,d8,d10 all showing 6 → +1").
    assert answer["rozmach_gained"] == 1
    assert in_words(entry.label) == "Opanowanie I + Ukrycie II + Percepcja III (1d6+1d8+1d10) vs 5"
    assert [source_line(s) for s in entry.sources] == [
        "+5 difficulty: trudny (hard)",
        "3 dice rolled: Opanowanie 1d6 + Ukrycie 1d8 + Percepcja 1d10 (combined test)",
    ]


def test_a_combined_test_led_by_a_defence_offers_no_boost(client, table, player, dice):
    hero = table.hero
    client.force_login(player)
    response = julio_orders_his_combined_test(client, hero)
    assert response.context["panel"].params["bonus"] == 0
    assert "No boost: a defence has no category bonus." in response.content.decode()
    dice(6, 4, 8)
    entry = rolled(client, hero, response)
    hero.refresh_from_db()
    assert "boost" not in [f.kind for f in follow_ups.follow_ups(entry, hero, hero.campaign)]


# --- The player orders them -----------------------------------------------------------------


def test_the_panel_lists_what_is_tested_in_order_the_first_marked_main(client, table, player):
    client.force_login(player)
    html = julio_orders_his_combined_test(client, table.hero).content.decode()
    rows = html.split('class="cb-tested-item')[1:]
    assert [row.split('data-token="')[1].split('"')[0] for row in rows] == [
        "defence:Opanowanie", "skill:Ukrycie", "skill:Percepcja",
    ]  # fmt: skip
    assert 'class="cb-main-badge"' in rows[0]
    assert "cb-main-badge" not in rows[1] + rows[2]
    assert "The first is the main one; move them to change the order." in html


def test_each_row_has_buttons_named_for_it_the_ends_off(client, table, player):
    client.force_login(player)
    page = _Page(julio_orders_his_combined_test(client, table.hero).content.decode())
    assert set(page.buttons) >= {
        ("down", "defence:Opanowanie"), ("up", "skill:Ukrycie"), ("down", "skill:Ukrycie"),
        ("up", "skill:Percepcja"),
    }  # fmt: skip
    # Disabled, so not in the page's buttons: the first cannot go up, the last down.
    assert ("up", "defence:Opanowanie") not in page.buttons
    assert ("down", "skill:Percepcja") not in page.buttons
    assert page.buttons[("up", "skill:Ukrycie")]["aria-label"] == "Move Ukrycie up"


def test_moving_one_up_makes_it_the_main_one_and_its_category_bonus_the_boosts(
    client, table, player
):
    hero = table.hero
    client.force_login(player)
    response = julio_orders_his_combined_test(client, hero)
    response = then(client, hero, response, ("up", "skill:Ukrycie"))
    assert order_of(response) == ["skill:Ukrycie", "defence:Opanowanie", "skill:Percepcja"]
    shown = response.context["panel"]
    assert shown.params["dice"] == [8, 6, 10]
    assert shown.params["bonus"] == 2  # Ukrycie is physical
    assert "After the roll a boost adds <b>+2</b>" in response.content.decode()


def test_moving_one_down_and_the_order_stays_on_the_next_change(client, table, player):
    hero = table.hero
    client.force_login(player)
    response = julio_orders_his_combined_test(client, hero)
    response = then(client, hero, response, ("down", "defence:Opanowanie"))
    assert order_of(response) == ["skill:Ukrycie", "defence:Opanowanie", "skill:Percepcja"]
    response = then(client, hero, response, ("difficulty", "4"))
    assert order_of(response) == ["skill:Ukrycie", "defence:Opanowanie", "skill:Percepcja"]


def test_an_unticked_one_leaves_the_order_and_a_new_one_joins_last(client, table, player):
    hero = table.hero
    client.force_login(player)
    response = julio_orders_his_combined_test(client, hero)
    page = _Page(response.content.decode())
    page.fields.remove(("skill", "Ukrycie"))
    response = client.post(panel_url(hero), page.post(("defence", "Unik")))
    assert order_of(response) == ["defence:Opanowanie", "skill:Percepcja", "defence:Unik"]


def test_a_forged_order_naming_what_is_not_tested_changes_nothing(client, table, player):
    client.force_login(player)
    response = client.post(
        panel_url(table.hero),
        {"skill": ["Ukrycie"], "defence": ["Blok"],
         "order": ["skill:Latanie", "defence:Blok", "skill:Ukrycie"], "up": "skill:Latanie"},
    )  # fmt: skip
    assert order_of(response) == ["defence:Blok", "skill:Ukrycie"]


# --- The GM calls a combined test in an order -----------------------------------------------


def call(client, table, **form):
    url = reverse("call_test", args=[table.campaign.pk, table.hero.pk])
    return client.post(url, form, HTTP_HX_REQUEST="true")


def test_the_gms_call_form_calls_julios_combined_test_in_that_order(client, table, gm):
    client.force_login(gm)
    call(client, table, tested="defence:Opanowanie", tested_2="skill:Ukrycie",
         tested_3="skill:Percepcja", tested_4="", difficulty="trudny")  # fmt: skip
    target = PendingTest.objects.get().target
    assert target["order"] == ["defence:Opanowanie", "skill:Ukrycie", "skill:Percepcja"]
    assert (target["skill"], target["defence"]) == (["Ukrycie", "Percepcja"], ["Opanowanie"])


def test_the_call_form_offers_every_skill_and_defence_in_each_place(table):
    fields = gm_call.target_fields(table.hero, table.campaign)
    places = [field for field in fields if field["name"].startswith("tested")]
    assert [field["name"] for field in places] == ["tested", "tested_2", "tested_3", "tested_4"]
    first = [value for value, _text in places[0]["choices"]]
    assert first[0].startswith("skill:")  # a single skill is the default call
    assert "defence:Opanowanie" in first
    assert "skill:Percepcja" in first
    assert [value for value, _text in places[1]["choices"]][0] == ""


def test_the_same_name_twice_in_the_call_counts_once(client, table, gm):
    client.force_login(gm)
    call(client, table, tested="skill:Ukrycie", tested_2="skill:Ukrycie")
    assert PendingTest.objects.get().target["order"] == ["skill:Ukrycie"]


def test_the_players_panel_keeps_the_gms_order_whatever_is_posted(client, table, gm, player):
    hero = table.hero
    client.force_login(gm)
    call(client, table, tested="defence:Opanowanie", tested_2="skill:Ukrycie",
         tested_3="skill:Percepcja", difficulty="trudny")  # fmt: skip
    test = PendingTest.objects.get()
    client.force_login(player)
    response = client.post(
        panel_url(hero),
        {"pending": test.pk, "up": "skill:Percepcja", "main": "Ukrycie",
         "order": ["skill:Percepcja"], "tested": "skill:Dociekliwość", "skill": "Dociekliwość"},
    )  # fmt: skip
    assert order_of(response) == ["defence:Opanowanie", "skill:Ukrycie", "skill:Percepcja"]
    html = response.content.decode()
    assert 'name="order" value="defence:Opanowanie" disabled' in html
    assert 'name="defence" value="Opanowanie" checked disabled' in html
    assert 'name="up"' not in html
    assert 'name="down"' not in html
    assert "order: the first is the main one." in html


def test_julios_called_combined_test_rolled_is_one_log_entry_with_its_sources(
    client, table, gm, player, dice
):
    hero = table.hero
    client.force_login(gm)
    call(client, table, tested="defence:Opanowanie", tested_2="skill:Ukrycie",
         tested_3="skill:Percepcja", difficulty="trudny")  # fmt: skip
    test = PendingTest.objects.get()
    client.force_login(player)
    response = client.get(panel_url(hero), {"pending": test.pk})
    dice(6, 4, 8)
    entry = rolled(client, hero, response)
    assert (entry.result["answer"]["kept"], entry.result["answer"]["result"]) == (6, 1)
    assert entry.params["dice"] == [6, 8, 10]
    assert "Opanowanie 1d6 + Ukrycie 1d8 + Percepcja 1d10" in source_line(entry.sources[1])
    test.refresh_from_db()
    assert test.status != PendingTest.Status.OPEN
