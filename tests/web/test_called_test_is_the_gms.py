"""On a test the GM called, the player controls only what the rules give the player; every field
the GM owns (circumstances, difficulty, factors, typed modifiers) keeps the GM's value, whatever
a page posts, and the panel shows it fixed. In every system."""

import uuid

import pytest
from django.urls import reverse

from rolls.models import Roll
from rolls.pending import actions as pending
from tests.web import test_panel_ast, test_panel_caerbannog, test_panel_t10, test_panel_twod6
from tests.web.test_panel_fasttest import SHEET as FASTTEST
from tests.web.test_pending_twod6 import AMBUSH

pytestmark = pytest.mark.django_db


@pytest.fixture
def called_test(make_table, gm):
    """``called_test(system, sheet, target)``: the GM calls ``target`` on Bohater's sheet."""

    def call(system, sheet, target, settings=None):
        table = make_table(system, settings=settings or {}, characters=[("Bohater", sheet)])
        return pending.call_test(session=table.session, character=table.hero, gm=gm, target=target)

    return call


def shown(client, test, **choices):
    hero = test.character
    url = reverse("test_panel", args=[hero.campaign_id, hero.pk])
    response = client.post(url, {"pending": test.pk, **choices})
    assert response.status_code == 200
    return response


def roll(client, test, **choices):
    hero = test.character
    url = reverse("test_roll", args=[hero.campaign_id, hero.pk])
    form = {"pending": test.pk, "revision": test.revision, "key": str(uuid.uuid4()), **choices}
    return client.post(url, form)


# --- FastTest: the issue's own case -------------------------------------------------------------


@pytest.fixture
def ice(called_test, gm):
    """ZRĘCZNOŚĆ + SPRAWNOŚĆ, called; the GM adds 4 penalty dice for slippery ice."""
    test = called_test(
        "fasttest", FASTTEST, {"attribute": "ZRĘCZNOŚĆ", "skill": ["SPRAWNOŚĆ"]},
        settings={"fasttest": {"experience_dice": True}},
    )  # fmt: skip
    return pending.change_test(
        test.pk, gm, "add_dice", kind="penalty", amount=4, source="slippery ice"
    )


def test_fasttest_bonus_dice_a_player_types_on_a_called_test_do_not_count(client, ice, player):
    client.force_login(player)
    response = roll(client, ice, bonus_other="12", penalty_other="0")
    rolled = Roll.objects.get()
    assert response.status_code == 200
    assert (rolled.params["bonus"], rolled.params["penalty"]) == (0, 4)
    assert [s for s in rolled.sources if s["source"] == "circumstances"] == []


def test_fasttest_penalty_dice_a_player_posts_cannot_cancel_the_gms(client, ice, player):
    client.force_login(player)
    panel = shown(client, ice, penalty_other="0", bonus_other="4").context["panel"]
    assert (panel.params["bonus"], panel.params["penalty"]) == (0, 4)


def test_fasttest_the_called_panel_shows_the_gms_dice_fixed(client, ice, player):
    client.force_login(player)
    html = shown(client, ice, bonus_other="12").content.decode()
    assert 'id="bonus_other" name="bonus_other" type="number" min="0" max="20" ' \
           'inputmode="numeric" value="0" disabled' in html  # fmt: skip
    assert 'inputmode="numeric" value="4" disabled' in html
    assert "set by the GM" in html


def test_fasttest_the_player_still_ticks_traits_and_spends_experience(client, ice, player):
    client.force_login(player)
    roll(client, ice, trait=["0", "1"], experience="1")
    rolled = Roll.objects.get()
    assert rolled.params["bonus"] == 3 + 1
    ice.character.refresh_from_db()
    assert ice.character.data["experience_dice"] == 1


def test_fasttest_a_free_test_still_takes_the_players_circumstances(client, ice, player):
    hero = ice.character
    pending.cancel_test(ice.pk, hero.campaign.gm)
    client.force_login(player)
    url = reverse("test_panel", args=[hero.campaign_id, hero.pk])
    panel = client.post(url, {"attribute": "BUDOWA", "bonus_other": "2"}).context["panel"]
    assert panel.params["bonus"] == 2


# --- AST --------------------------------------------------------------------------------------


@pytest.fixture
def ast_called(called_test):
    return called_test("ast", test_panel_ast.SHEET, {})


def test_ast_hindrances_a_player_posts_on_a_called_test_do_not_count(client, ast_called, player):
    client.force_login(player)
    choices = {**test_panel_ast.FIVE, "hindrance": "6", "hindrance_source": "own"}
    panel = shown(client, ast_called, **choices).context["panel"]
    assert panel.params == {"white": 5, "level_mod": 0}


def test_ast_the_called_panel_shows_the_hindrances_fixed(client, ast_called, player):
    client.force_login(player)
    html = shown(client, ast_called, hindrance="6").content.decode()
    assert 'name="hindrance" type="number" min="0" max="20" inputmode="numeric" value="0" ' \
           "disabled" in html  # fmt: skip


def test_ast_the_player_still_ticks_items_and_spends_funt(client, ast_called, player):
    client.force_login(player)
    panel = shown(client, ast_called, **test_panel_ast.FIVE, funt="2").context["panel"]
    assert panel.params["white"] == 7


# --- T10 --------------------------------------------------------------------------------------


@pytest.fixture
def t10_called(called_test):
    target = {"attribute": "Styrka", "skill": "Svärd"}
    return called_test("t10", test_panel_t10.SHEET, target)


def test_t10_circumstance_dice_and_difficulty_a_player_posts_do_not_count(
    client, t10_called, player
):
    client.force_login(player)
    panel = shown(client, t10_called, circumstance="9", difficulty="4").context["panel"]
    assert panel.params == {"pool": 4 + 3, "difficulty": 7}


def test_t10_the_gms_difficulty_stands_against_a_posted_one(client, t10_called, gm, player):
    pending.change_test(t10_called.pk, gm, "set_difficulty", value=9)
    client.force_login(player)
    assert shown(client, t10_called, difficulty="4").context["panel"].params["difficulty"] == 9


def test_t10_the_called_panel_shows_circumstances_and_difficulty_fixed(client, t10_called, player):
    client.force_login(player)
    html = shown(client, t10_called, circumstance="9").content.decode()
    assert 'name="circumstance" type="number" min="-20" max="20" value="0" disabled' in html
    assert 'id="t10-difficulty" name="difficulty" disabled' in html


def test_t10_the_player_still_ticks_items(client, t10_called, player):
    client.force_login(player)
    panel = shown(client, t10_called, item="Långsvärd").context["panel"]
    assert panel.params["pool"] == 4 + 3 + 1


# --- Caerbannog and 2d6 -------------------------------------------------------------------------


@pytest.fixture
def caerbannog_called(called_test):
    target = {"skill": ["Dociekliwość"], "defence": [], "form": "combined", "difficulty": "3"}
    return called_test("caerbannog", test_panel_caerbannog.SHEET, target)


def test_caerbannog_a_roll_uses_the_gms_factors_not_the_posted_ones(
    client, caerbannog_called, gm, player
):
    pending.change_test(caerbannog_called.pk, gm, "set_hindering", value=1)
    client.force_login(player)
    roll(client, caerbannog_called.__class__.objects.get(pk=caerbannog_called.pk),
         easing="5", modifier="20", difficulty="0")  # fmt: skip
    rolled = Roll.objects.get()
    assert (rolled.params["ease"], rolled.params["modifier"]) == (-1, 0)
    assert rolled.params["difficulty"] == 3


def test_caerbannog_the_called_panel_shows_the_gms_modifier_fixed(
    client, caerbannog_called, gm, player
):
    pending.change_test(caerbannog_called.pk, gm, "add_dice", kind="modifier", amount=-2,
                        source="mgła")  # fmt: skip
    client.force_login(player)
    html = shown(client, caerbannog_called, modifier="7").content.decode()
    assert 'inputmode="numeric" value="-2" disabled' in html


@pytest.fixture
def twod6_called(called_test):
    return called_test("2d6", test_panel_twod6.NOMAD, dict(AMBUSH))


def test_twod6_the_called_panel_offers_no_typed_modifiers(client, twod6_called, player):
    client.force_login(player)
    html = shown(client, twod6_called).content.decode()
    assert 'name="mod-circumstance-0-value"' not in html
    assert 'name="helpers" type="number" min="0" max="4" step="1" inputmode="numeric" ' \
           'value="0" disabled' in html  # fmt: skip


def test_twod6_a_roll_ignores_posted_modifiers_and_difficulty(client, twod6_called, player):
    client.force_login(player)
    roll(client, twod6_called, difficulty="2", helpers="4",
         **{"mod-circumstance-0-value": "5"})  # fmt: skip
    rolled = Roll.objects.get()
    assert rolled.params["difficulty"] == 15
    assert (rolled.params["helpers"], rolled.params["modifiers"]["circumstance"]) == (0, [])
