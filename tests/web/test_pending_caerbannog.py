"""The GM calls for a Caerbannog test and shapes it live: the difficulty, easing and hindering
factors, fixed modifiers with their sources; the player's panel follows and rolls exactly that."""

import uuid

import pytest
from django.urls import reverse

from rolls.actions import ActionRefused
from rolls.models import PendingTest, Roll
from rolls.pending import actions as pending
from tests.web.test_panel_caerbannog import SHEET
from tests.web.words_helpers import in_words

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table("caerbannog", name="Caerbannog", characters=[("Morgana", SHEET)]),
]

DOCIEKLIWOSC = {"skill": ["Dociekliwość"], "defence": [], "form": "combined", "difficulty": "3"}


@pytest.fixture
def called(table, gm):
    """Dociekliwość II (3d8) vs przeciętny 3, called by the GM."""
    hero, session = table.hero, table.session
    return pending.call_test(session=session, character=hero, gm=gm, target=dict(DOCIEKLIWOSC))


def call(client, campaign, hero, **form):
    return client.post(
        reverse("call_test", args=[campaign.pk, hero.pk]), form, HTTP_HX_REQUEST="true"
    )


def change(client, campaign, test, **form):
    return client.post(
        reverse("change_test", args=[campaign.pk, test.pk]), form, HTTP_HX_REQUEST="true"
    )


def shown(client, hero, test, **choices):
    """The player's panel for the called test, with the player's own choices posted."""
    url = reverse("test_panel", args=[hero.campaign_id, hero.pk])
    response = client.post(url, {"pending": test.pk, **choices})
    assert response.status_code == 200
    return response


def panel_for(client, hero, test, **choices):
    return shown(client, hero, test, **choices).context["panel"]


def roll_form(test, revision, **extra):
    return {"pending": test.pk, "revision": revision, "key": str(uuid.uuid4()), **extra}


# Calling for a test ----------------------------------------------------------------------------


class TestCalling:
    def test_the_gm_calls_for_a_combined_test_at_a_named_difficulty(self, client, table, gm):
        campaign, hero = table.campaign, table.hero
        client.force_login(gm)
        call(client, campaign, hero, skill=["Jazda", "Dociekliwość"], form="added",
             difficulty="wymagający")  # fmt: skip
        test = PendingTest.objects.get()
        assert test.target == {
            "skill": ["Jazda", "Dociekliwość"], "defence": [],
            "order": ["skill:Jazda", "skill:Dociekliwość"], "form": "added",
            "difficulty": "wymagający",
        }  # fmt: skip
        assert test.revision == 1

    def test_the_gm_calls_for_a_defence(self, client, table, gm, player):
        campaign, hero = table.campaign, table.hero
        client.force_login(gm)
        call(client, campaign, hero, defence="Unik", difficulty="trudny")
        test = PendingTest.objects.get()
        client.force_login(player)
        assert in_words(panel_for(client, hero, test).label) == "Unik II (3d8) vs 5"

    def test_a_blank_difficulty_is_przecietny_and_a_blank_form_combined(self, client, table, gm):
        campaign, hero = table.campaign, table.hero
        client.force_login(gm)
        call(client, campaign, hero, skill="Percepcja")
        target = PendingTest.objects.get().target
        assert (target["difficulty"], target["form"]) == ("przeciętny", "combined")

    @pytest.mark.parametrize(
        ("form", "message"),
        [
            ({"skill": "Nekromancja"}, "Not a skill on this sheet: Nekromancja."),
            ({"defence": "Tarcza"}, "Not a defence on this sheet: Tarcza."),
            ({"tested": "skill:Nekromancja"}, "Not a skill on this sheet: Nekromancja."),
            (
                {"tested": "skill:Jazda", "tested_2": "defence:Tarcza"},
                "Not a defence on this sheet: Tarcza.",
            ),
            ({"skill": "Jazda", "difficulty": "koszmarny"}, "Choose a difficulty"),
            ({"skill": "Jazda", "difficulty": "21"}, "Choose a difficulty"),
            ({"skill": "Jazda", "form": "doubled"}, "Choose the form of the test"),
            ({"difficulty": "łatwy"}, "Choose a skill (several for a combined test) or a defence"),
        ],
    )
    def test_a_forged_target_is_refused_with_a_message(self, client, table, gm, form, message):
        campaign, hero = table.campaign, table.hero
        client.force_login(gm)
        response = call(client, campaign, hero, **form)
        assert message in response.content.decode()
        assert not PendingTest.objects.exists()

    def test_the_call_form_offers_skills_and_defences_in_order_the_form_and_the_difficulty(
        self, client, table, gm
    ):
        campaign, hero = table.campaign, table.hero
        client.force_login(gm)
        html = client.get(reverse("dashboard", args=[campaign.pk])).content.decode()
        assert f'id="call-{hero.pk}-tested" name="tested">' in html
        for place in ("tested_2", "tested_3", "tested_4"):
            assert f'id="call-{hero.pk}-{place}" name="{place}">' in html
        assert '<option value="skill:Dociekliwość">Dociekliwość II (d8)</option>' in html
        assert '<option value="defence:Unik">Unik II (d8, defence)</option>' in html
        assert f'id="call-{hero.pk}-form"' in html
        # przeciętny comes first: the select's default is the panel's default.
        difficulty = html.split(f'id="call-{hero.pk}-difficulty"')[1]
        assert difficulty.index("przeciętny (average, 3)") < difficulty.index("łatwy (easy, 2)")

    def test_a_player_cannot_call_for_a_test(self, client, table, player):
        campaign, hero = table.campaign, table.hero
        client.force_login(player)
        assert call(client, campaign, hero, skill="Jazda").status_code == 404
        assert not PendingTest.objects.exists()


# The player's panel follows the called test ---------------------------------------------------


class TestThePlayersPanel:
    def test_what_is_tested_and_the_difficulty_are_fixed(self, client, called, player):
        hero = called.character
        client.force_login(player)
        panel = panel_for(
            client, hero, called, skill="Atletyka", defence="Unik", difficulty="łatwy"
        )
        assert in_words(panel.label) == "Dociekliwość II (3d8) vs 3"
        assert (panel.params["dice"], panel.params["difficulty"]) == ([8, 8, 8], 3)

    def test_the_fixed_inputs_are_disabled_and_the_catalogue_hidden(self, client, called, player):
        client.force_login(player)
        html = shown(client, called.character, called).content.decode()
        assert 'name="skill" value="Dociekliwość" checked disabled' in html
        assert 'id="cb-difficulty" name="difficulty" disabled' in html
        assert "Called by the GM: what is tested is fixed." in html
        assert 'class="cb-more"' not in html
        easing = 'id="cb-easing" name="easing" type="number" min="0" max="20" inputmode="numeric"'
        assert f'{easing} value="0" disabled' in html  # the GM's factors, fixed

    def test_the_gms_order_fixes_the_main_skill_of_a_combined_test(self, client, table, gm, player):
        hero, session = table.hero, table.session
        target = {"skill": ["Jazda", "Percepcja"], "form": "combined", "difficulty": "3"}
        test = pending.call_test(session=session, character=hero, gm=gm, target=target)
        client.force_login(player)
        assert panel_for(client, hero, test).params["dice"] == [8, 8, 6]
        reordered = {"main": "Percepcja", "up": "skill:Percepcja",
                     "order": ["skill:Percepcja", "skill:Jazda"]}  # fmt: skip
        assert panel_for(client, hero, test, **reordered).params["dice"] == [8, 8, 6]

    def test_the_gm_allows_the_added_form_and_the_player_cannot_undo_it(
        self, client, table, gm, player
    ):
        hero, session = table.hero, table.session
        target = {"skill": ["Jazda", "Dociekliwość"], "form": "added", "difficulty": "3"}
        test = pending.call_test(session=session, character=hero, gm=gm, target=target)
        client.force_login(player)
        panel = panel_for(client, hero, test, main="Jazda", form="combined")
        assert panel.params["dice"] == [8, 8, 8, 8]
        assert (
            'id="cb-form" name="form" aria-describedby="cb-form-hint" disabled'
            in shown(client, hero, test).content.decode()
        )


# Each GM control -------------------------------------------------------------------------------


class TestTheGMsControls:
    def test_the_gm_changes_the_difficulty(self, client, called, gm, player):
        client.force_login(gm)
        change(client, called.character.campaign, called, op="set_difficulty", value="5")
        client.force_login(player)
        panel = panel_for(client, called.character, called)
        assert panel.params["difficulty"] == 5
        assert {"kind": "difficulty", "amount": 5, "source": "trudny (hard)"} in in_words(
            panel.sources
        )
        assert in_words(panel.label).endswith("vs 5")

    def test_a_difficulty_above_the_call_forms_list_is_refused_with_the_rule(self, called, gm):
        with pytest.raises(ActionRefused, match="difficulty is a whole number from 0 to 20"):
            pending.change_test(called.pk, gm, "set_difficulty", value=25)
        called.refresh_from_db()
        assert (called.revision, called.modifiers) == (1, {})

    def test_a_difficulty_stored_above_the_list_is_still_shown_and_used(
        self, client, called, player
    ):
        PendingTest.objects.filter(pk=called.pk).update(modifiers={"difficulty": 25})
        client.force_login(player)
        response = shown(client, called.character, called)
        panel = response.context["panel"]
        assert panel.params["difficulty"] == 25
        assert {"kind": "difficulty", "amount": 25, "source": "set by number"} in in_words(
            panel.sources
        )
        assert '<option value="25" selected>25</option>' in response.content.decode()

    def test_the_gms_hindering_factors_hinder_the_test(self, client, called, gm, player):
        client.force_login(gm)
        change(client, called.character.campaign, called, op="set_hindering", value="2")
        client.force_login(player)
        panel = panel_for(client, called.character, called)
        assert panel.params["ease"] == -1
        assert {
            "kind": "hinder", "amount": 1, "source": "GM: eased ×0, hindered ×2 → hindered",
        } in in_words(panel.sources)  # fmt: skip

    def test_the_gms_easing_factors_ease_the_test(self, client, called, gm, player):
        pending.change_test(called.pk, gm, "set_easing", value=1)
        client.force_login(player)
        eased = panel_for(client, called.character, called)
        assert eased.params["ease"] == 1
        # 3d8 eased reads the highest: it fails only when every die shows 3 or less.
        assert eased.success == pytest.approx(1 - (3 / 8) ** 3)

    def test_factors_the_player_posts_on_a_called_test_are_ignored(
        self, client, called, gm, player
    ):
        pending.change_test(called.pk, gm, "set_easing", value=1)
        client.force_login(player)
        panel = panel_for(client, called.character, called, hindering="2")
        assert panel.params["ease"] == 1
        text = "GM: eased ×1, hindered ×0 → eased"
        assert {"kind": "ease", "amount": 1, "source": text} in in_words(panel.sources)

    def test_equal_counts_from_the_gm_cancel_out(self, client, called, gm, player):
        pending.change_test(called.pk, gm, "set_hindering", value=1)
        pending.change_test(called.pk, gm, "set_easing", value=1)
        client.force_login(player)
        panel = panel_for(client, called.character, called, easing="3")
        assert panel.params["ease"] == 0
        assert in_words(panel.sources)[-1]["source"].endswith("→ they cancel out")

    def test_the_gms_fixed_modifier_carries_its_source(self, client, called, gm, player):
        client.force_login(gm)
        change(client, called.character.campaign, called, op="add_dice", kind="modifier",
               amount="-2", source="mgła")  # fmt: skip
        client.force_login(player)
        panel = panel_for(client, called.character, called)
        assert panel.params["modifier"] == -2
        assert {"kind": "modifier", "amount": -2, "source": "mgła"} in panel.sources

    def test_a_modifier_the_player_posts_on_a_called_test_is_ignored(
        self, client, called, gm, player
    ):
        pending.change_test(called.pk, gm, "add_dice", kind="modifier", amount=-2, source="mgła")
        pending.change_test(called.pk, gm, "add_dice", kind="modifier", amount=1, source="lampa")
        client.force_login(player)
        panel = panel_for(client, called.character, called, modifier="3", modifier_source="amulet")
        assert panel.params["modifier"] == -1
        assert [s for s in panel.sources if s["kind"] == "modifier"] == [
            {"kind": "modifier", "amount": -2, "source": "mgła"},
            {"kind": "modifier", "amount": 1, "source": "lampa"},
        ]

    def test_the_panel_lists_what_the_gm_set(self, client, called, gm, player):
        pending.change_test(called.pk, gm, "set_hindering", value=2)
        pending.change_test(called.pk, gm, "add_dice", kind="modifier", amount=-2, source="mgła")
        client.force_login(player)
        html = shown(client, called.character, called).content.decode()
        assert "Easing factors ×0, hindering factors ×2: the side with more factors wins." in html
        assert "Fixed modifier −2: mgła" in html
        assert "version 3" in html

    def test_a_removed_modifier_no_longer_counts(self, client, called, gm, player):
        pending.change_test(called.pk, gm, "add_dice", kind="modifier", amount=-2, source="mgła")
        client.force_login(gm)
        change(client, called.character.campaign, called, op="remove_dice", index="0")
        client.force_login(player)
        assert panel_for(client, called.character, called).params["modifier"] == 0

    @pytest.mark.parametrize(
        ("form", "message"),
        [
            ({"op": "set_easing", "value": "11"}, "from 0 to 10"),
            ({"op": "set_hindering", "value": "lots"}, "from 0 to 10"),
            ({"op": "set_difficulty", "value": "-1"}, "from 0 to 20"),
            ({"op": "add_dice", "kind": "modifier", "amount": "21", "source": "x"}, "-20 to 20"),
            ({"op": "add_dice", "kind": "modifier", "amount": "2", "source": " "}, "Say where"),
        ],
    )
    def test_a_forged_change_is_refused_with_a_message(self, client, called, gm, form, message):
        client.force_login(gm)
        response = change(client, called.character.campaign, called, **form)
        assert message in response.content.decode()
        called.refresh_from_db()
        assert (called.revision, called.modifiers) == (1, {})

    def test_a_player_cannot_change_the_test(self, client, called, player):
        client.force_login(player)
        form = {"op": "set_easing", "value": "3"}
        assert change(client, called.character.campaign, called, **form).status_code == 404
        called.refresh_from_db()
        assert called.modifiers == {}


# The race between the GM's change and the player's click ---------------------------------------


class TestTheRace:
    def test_a_change_between_view_and_click_refuses_the_roll(self, client, called, gm, player):
        hero = called.character
        client.force_login(player)
        seen = panel_for(client, hero, called)
        pending.change_test(called.pk, gm, "set_hindering", value=1)
        url = reverse("test_roll", args=[hero.campaign_id, hero.pk])
        response = client.post(url, roll_form(called, revision=1))
        assert response.status_code == 409
        assert "The GM just changed this test — look again" in response.content.decode()
        assert not Roll.objects.exists()
        assert seen.params["ease"] == 0

    def test_the_second_click_rolls_with_the_new_modifiers(self, client, called, gm, player, dice):
        hero = called.character
        pending.change_test(called.pk, gm, "set_hindering", value=1)
        pending.change_test(called.pk, gm, "add_dice", kind="modifier", amount=-1, source="mgła")
        client.force_login(player)
        url = reverse("test_roll", args=[hero.campaign_id, hero.pk])
        refused = client.post(url, roll_form(called, revision=1))
        fresh = refused.context["pending"].revision
        dice(5, 7, 4)
        client.post(url, roll_form(called, revision=fresh))
        roll = Roll.objects.get()
        assert (roll.params["ease"], roll.params["modifier"]) == (-1, -1)
        assert {"kind": "modifier", "amount": -1, "source": "mgła"} in roll.sources
        # Hindered reads the lowest die: 4 − 1 − 3 = 0, a failure.
        assert (roll.result["answer"]["kept"], roll.result["answer"]["result"]) == (4, 0)
        called.refresh_from_db()
        assert (called.status, called.roll) == (PendingTest.Status.ROLLED, roll)

    def test_a_called_test_keeps_the_rozmach_pool_right(self, client, called, player, dice):
        # RULES.md's Julio: 8, 8, 3 reads 8 and two dice at their maximum give +2 Rozmach.
        hero = called.character
        client.force_login(player)
        dice(8, 8, 3)
        url = reverse("test_roll", args=[hero.campaign_id, hero.pk])
        client.post(url, roll_form(called, revision=1))
        hero.refresh_from_db()
        assert Roll.objects.get().result["answer"]["result"] == 5
        assert hero.data["resources"]["rozmach"] == 2


# The GM's dashboard ----------------------------------------------------------------------------


class TestTheDashboardCard:
    def test_the_card_shows_the_test_its_odds_and_the_controls(self, client, called, gm):
        campaign = called.character.campaign
        client.force_login(gm)
        html = client.get(reverse("dashboard", args=[campaign.pk])).content.decode()
        assert "Morgana: Dociekliwość II (3d8) vs 3" in html
        for control in ("difficulty", "easing", "hindering"):
            assert f'name="op" value="set_{control}"' in html
        assert '<input type="hidden" name="kind" value="modifier">' in html
        assert "penalty dice" not in html

    def test_the_card_lists_the_gms_modifiers_with_a_remove_button(self, client, called, gm):
        pending.change_test(called.pk, gm, "add_dice", kind="modifier", amount=-2, source="mgła")
        pending.change_test(called.pk, gm, "set_hindering", value=2)
        client.force_login(gm)
        url = reverse("dashboard_pending", args=[called.character.campaign_id])
        html = client.get(url).content.decode()
        assert "−2 modifier: mgła" in html
        assert 'name="op" value="remove_dice"' in html
        hindering = f'id="hindering-{called.pk}" name="value" type="number" min="0" max="10"'
        assert f'{hindering} value="2"' in html
