"""The GM calls for a 2d6 test and shapes it live: the difficulty and modifiers in any category,
each with its source; the player's panel follows, clamps them with the player's own, and rolls
exactly that."""

import uuid

import pytest
from django.urls import reverse

from rolls import actions
from rolls.models import PendingTest, Roll
from rolls.pending import actions as pending
from tests.web.test_panel_twod6 import NOMAD
from tests.web.words_helpers import in_words

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table("2d6", name="Pustkowia", characters=[("Nomad", NOMAD)]),
]

AMBUSH = {"attribute": "Percepcja", "skill": "Przetrwanie", "difficulty": "15"}


@pytest.fixture
def called(table, gm):
    """The seed's ambush: Percepcja 8 + Przetrwanie 5 vs 15, called by the GM."""
    hero, session = table.hero, table.session
    return pending.call_test(session=session, character=hero, gm=gm, target=dict(AMBUSH))


def call(client, campaign, hero, **form):
    return client.post(
        reverse("call_test", args=[campaign.pk, hero.pk]), form, HTTP_HX_REQUEST="true"
    )


def change(client, test, **form):
    url = reverse("change_test", args=[test.character.campaign_id, test.pk])
    return client.post(url, form, HTTP_HX_REQUEST="true")


def shown(client, test, **choices):
    hero = test.character
    url = reverse("test_panel", args=[hero.campaign_id, hero.pk])
    response = client.post(url, {"pending": test.pk, **choices})
    assert response.status_code == 200
    return response


def panel_for(client, test, **choices):
    return shown(client, test, **choices).context["panel"]


def roll_form(test, revision, **extra):
    return {"pending": test.pk, "revision": revision, "key": str(uuid.uuid4()), **extra}


# Calling for a test ----------------------------------------------------------------------------


class TestCalling:
    def test_the_gm_calls_for_attribute_skill_and_difficulty(self, client, table, gm):
        campaign, hero = table.campaign, table.hero
        client.force_login(gm)
        call(client, campaign, hero, attribute="Zręczność", skill="Skradanie", difficulty="20")
        test = PendingTest.objects.get()
        assert test.target == {"attribute": "Zręczność", "skill": "Skradanie", "difficulty": "20"}
        assert test.revision == 1

    def test_a_blank_difficulty_is_the_seeds_fifteen(self, client, table, gm):
        campaign, hero = table.campaign, table.hero
        client.force_login(gm)
        call(client, campaign, hero, attribute="Percepcja", skill="")
        assert PendingTest.objects.get().target["difficulty"] == "15"

    @pytest.mark.parametrize(
        ("form", "message"),
        [
            ({"attribute": "Siła", "skill": ""}, "Choose the attribute to test."),
            ({"attribute": "Percepcja", "skill": "Hakowanie"}, "Choose one of the skills"),
            ({"attribute": "Percepcja", "difficulty": "99"}, "The difficulty"),
            ({"attribute": "Percepcja", "difficulty": "trudno"}, "The difficulty"),
        ],
    )
    def test_a_forged_target_is_refused_with_a_message(self, client, table, gm, form, message):
        campaign, hero = table.campaign, table.hero
        client.force_login(gm)
        response = call(client, campaign, hero, **form)
        assert message in response.content.decode()
        assert not PendingTest.objects.exists()

    def test_the_call_form_offers_the_sheets_attributes_skills_and_difficulties(
        self, client, table, gm
    ):
        campaign, hero = table.campaign, table.hero
        client.force_login(gm)
        html = client.get(reverse("dashboard", args=[campaign.pk])).content.decode()
        assert '<option value="Percepcja">Percepcja 8</option>' in html
        assert '<option value="Przetrwanie">Przetrwanie 5</option>' in html
        difficulty = html.split(f'id="call-{hero.pk}-difficulty"')[1].split("</select>")[0]
        options = difficulty.split("<option ")[1:]
        assert options[0] == 'value="15">15 (the library, the ambush)</option>'
        assert 'value="20">20 (a crowd that wants blood)</option>' in difficulty

    def test_a_player_cannot_call_for_a_test(self, client, table, player):
        campaign, hero = table.campaign, table.hero
        client.force_login(player)
        assert call(client, campaign, hero, attribute="Percepcja").status_code == 404
        assert not PendingTest.objects.exists()


# The player's panel follows the called test ---------------------------------------------------


class TestThePlayersPanel:
    def test_attribute_skill_and_difficulty_are_fixed(self, client, called, player):
        client.force_login(player)
        panel = panel_for(client, called, attribute="Zręczność", skill="Skradanie", difficulty="5")
        assert in_words(panel.label) == "Percepcja 8 + Przetrwanie 5 vs 15"
        assert (panel.params["attribute"], panel.params["skill"]) == (8, 5)
        assert panel.params["difficulty"] == 15

    def test_a_test_called_without_a_skill_stays_without_one(self, client, table, gm, player):
        hero, session = table.hero, table.session
        target = {"attribute": "Zręczność", "skill": "", "difficulty": "12"}
        test = pending.call_test(session=session, character=hero, gm=gm, target=target)
        client.force_login(player)
        panel = panel_for(client, test, skill="Skradanie")
        assert in_words(panel.label) == "Zręczność 7 vs 12"
        assert panel.params["skill"] == 0

    def test_the_fixed_inputs_are_disabled(self, client, called, player):
        client.force_login(player)
        html = shown(client, called).content.decode()
        assert 'name="attribute" value="Percepcja" checked disabled' in html
        assert 'name="skill" value="Przetrwanie" checked disabled' in html
        assert "aria-invalid" not in html
        assert "Fixed for this called test; it follows the GM's changes." in html
        difficulty = html.split('<input id="twod6-difficulty"')[1].split(">")[0]
        assert 'value="15"' in difficulty
        assert difficulty.endswith(" disabled")

    def test_the_player_keeps_their_advantages_but_typed_modifiers_are_the_gms(
        self, client, called, player
    ):
        client.force_login(player)
        panel = panel_for(client, called, advantage="Lornetka", helpers="3", cap_raise="4", **{
            "mod-personal-0-value": "-1", "mod-personal-0-source": "zmęczony",
        })  # fmt: skip
        assert panel.params["modifiers"]["equipment"] == [2]
        assert panel.params["modifiers"]["personal"] == []
        assert (panel.params["helpers"], panel.params["cap_bonus"]) == (0, 0)


# Each GM control -------------------------------------------------------------------------------


class TestTheGMsControls:
    def test_the_gm_changes_the_difficulty(self, client, called, gm, player):
        client.force_login(gm)
        change(client, called, op="set_difficulty", value="20")
        client.force_login(player)
        response = shown(client, called)
        assert response.context["panel"].params["difficulty"] == 20
        assert in_words(response.context["panel"].label).endswith("vs 20")
        assert 'value="20"' in response.content.decode()

    def test_a_circumstance_modifier_carries_its_source(self, client, called, gm, player):
        # RULES.md's ambush: −2 circumstance, dice 3 + 3 → 17 vs 15 → 3 success points.
        client.force_login(gm)
        change(client, called, op="add_category_modifier", category="circumstance",
               amount="-2", source="otwarty teren")  # fmt: skip
        client.force_login(player)
        panel = panel_for(client, called)
        assert panel.params["modifiers"]["circumstance"] == [-2]
        assert {"kind": "circumstance", "amount": -2, "source": "otwarty teren −2"} in (
            in_words(panel.sources)
        )
        answer = actions.roll_from_panel(
            session=called.session, actor=player, character=called.character, panel=panel,
            key=uuid.uuid4(), visibility="public",
            resolver=lambda module, params, rng: module.resolve(params, (3, 3)),
        )[0].result["answer"]  # fmt: skip
        assert (answer["total"], answer["success_points"]) == (17, 3)

    def test_a_circumstance_entry_added_as_dice_counts_too(self, client, called, gm, player):
        pending.change_test(called.pk, gm, "add_dice", kind="circumstance", amount=-1,
                            source="deszcz")  # fmt: skip
        client.force_login(player)
        assert panel_for(client, called).params["modifiers"]["circumstance"] == [-1]

    def test_the_gms_modifier_is_clamped_with_the_players_in_its_category(
        self, client, called, gm, player
    ):
        pending.change_test(called.pk, gm, "add_category_modifier", category="circumstance",
                            amount=4, source="wzgórze")  # fmt: skip
        pending.change_test(called.pk, gm, "add_category_modifier", category="circumstance",
                            amount=3, source="osłona")  # fmt: skip
        client.force_login(player)
        panel = panel_for(client, called, **{
            "mod-circumstance-0-value": "-5", "mod-circumstance-0-source": "ignored",
        })  # fmt: skip
        assert panel.context["modifier"] == 5
        text = "wzgórze +4, osłona +3 (adds up to +7, held at +5)"
        assert {"kind": "circumstance", "amount": 5, "source": text} in in_words(panel.sources)

    def test_each_category_the_gm_uses_is_clamped_on_its_own(self, client, called, gm, player):
        for category, amount, text in (
            ("circumstance", -3, "błoto"),
            ("circumstance", -4, "ciemność"),
            ("supernatural", -3, "anomalia"),
            ("personal", -2, "rana"),
            ("equipment", 1, "latarka"),
        ):
            pending.change_test(called.pk, gm, "add_category_modifier", category=category,
                                amount=amount, source=text)  # fmt: skip
        client.force_login(player)
        panel = panel_for(client, called)
        assert panel.params["modifiers"] == {
            "circumstance": [-3, -4], "personal": [-2], "equipment": [1], "supernatural": [-3],
        }  # fmt: skip
        # circumstance −7 is held at −5; the others count in full: −5 − 2 + 1 − 3 = −9.
        assert panel.context["modifier"] == -9
        assert {"kind": "supernatural", "amount": -3, "source": "anomalia −3"} in in_words(
            panel.sources
        )

    def test_the_panel_shows_the_gms_modifiers_in_their_category(self, client, called, gm, player):
        pending.change_test(called.pk, gm, "add_category_modifier", category="supernatural",
                            amount=-3, source="anomalia")  # fmt: skip
        client.force_login(player)
        html = shown(client, called).content.decode()
        assert 'aria-label="Set by the GM: Nadnaturalne (supernatural)"' in html
        assert "<b>−3</b> anomalia" in html

    def test_a_removed_modifier_no_longer_counts(self, client, called, gm, player):
        pending.change_test(called.pk, gm, "add_category_modifier", category="personal",
                            amount=-2, source="rana")  # fmt: skip
        client.force_login(gm)
        change(client, called, op="remove_dice", index="0")
        client.force_login(player)
        assert panel_for(client, called).params["modifiers"]["personal"] == []

    @pytest.mark.parametrize(
        ("form", "message"),
        [
            ({"category": "psychic", "amount": "-2", "source": "x"}, "Choose the category"),
            ({"category": "personal", "amount": "6", "source": "x"}, "from −5 to +5"),
            ({"category": "personal", "amount": "dużo", "source": "x"}, "from −5 to +5"),
            ({"category": "personal", "amount": "0", "source": "x"}, "changes nothing"),
            ({"category": "personal", "amount": "-1", "source": ""}, "Say where"),
            ({"category": "personal", "amount": "-1"}, "Say where"),
        ],
    )
    def test_a_forged_modifier_is_refused_with_a_message(self, client, called, gm, form, message):
        client.force_login(gm)
        response = change(client, called, op="add_category_modifier", **form)
        assert message in response.content.decode()
        called.refresh_from_db()
        assert (called.revision, called.modifiers) == (1, {})

    def test_a_test_holds_at_most_twenty_modifiers(self, called, gm):
        for n in range(pending.MAX_DICE_ENTRIES):
            pending.change_test(called.pk, gm, "add_category_modifier", category="personal",
                                amount=-1, source=f"rana {n}")  # fmt: skip
        with pytest.raises(actions.ActionRefused, match="as many modifiers"):
            pending.change_test(called.pk, gm, "add_category_modifier", category="personal",
                                amount=-1, source="jeszcze jedna")  # fmt: skip

    def test_a_player_cannot_add_a_modifier(self, client, called, player):
        client.force_login(player)
        form = {
            "op": "add_category_modifier",
            "category": "personal",
            "amount": "5",
            "source": "ja",
        }
        assert change(client, called, **form).status_code == 404
        called.refresh_from_db()
        assert called.modifiers == {}


# The race between the GM's change and the player's click ---------------------------------------


class TestTheRace:
    def test_a_change_between_view_and_click_refuses_the_roll(self, client, called, gm, player):
        hero = called.character
        client.force_login(player)
        seen = panel_for(client, called)
        pending.change_test(called.pk, gm, "add_category_modifier", category="circumstance",
                            amount=-2, source="ciemność")  # fmt: skip
        url = reverse("test_roll", args=[hero.campaign_id, hero.pk])
        response = client.post(url, roll_form(called, revision=1))
        assert response.status_code == 409
        assert "The GM just changed this test — look again" in response.content.decode()
        assert not Roll.objects.exists()
        assert seen.params["modifiers"]["circumstance"] == []

    def test_the_second_click_rolls_with_the_new_modifiers(self, client, called, gm, player, dice):
        hero = called.character
        pending.change_test(called.pk, gm, "add_category_modifier", category="circumstance",
                            amount=-2, source="ciemność")  # fmt: skip
        pending.change_test(called.pk, gm, "set_difficulty", value=16)
        client.force_login(player)
        url = reverse("test_roll", args=[hero.campaign_id, hero.pk])
        refused = client.post(url, roll_form(called, revision=1))
        fresh = refused.context["pending"].revision
        dice(3, 3)
        client.post(url, roll_form(called, revision=fresh))
        roll = Roll.objects.get()
        assert roll.params["difficulty"] == 16
        assert {"kind": "circumstance", "amount": -2, "source": "ciemność −2"} in in_words(
            roll.sources
        )
        # 8 + 5 − 2 + 3 + 3 = 17 vs 16 → 2 success points.
        assert (roll.result["answer"]["total"], roll.result["answer"]["success_points"]) == (17, 2)
        called.refresh_from_db()
        assert (called.status, called.roll) == (PendingTest.Status.ROLLED, roll)


# The GM's dashboard ----------------------------------------------------------------------------


class TestTheDashboardCard:
    def test_the_card_shows_the_test_and_the_controls(self, client, called, gm):
        client.force_login(gm)
        html = client.get(reverse("dashboard", args=[called.character.campaign_id])).content
        html = html.decode()
        assert "Nomad: Percepcja 8 + Przetrwanie 5 vs 15" in html
        assert 'name="op" value="set_difficulty"' in html
        assert 'name="op" value="add_category_modifier"' in html
        for category in ("circumstance", "personal", "equipment", "supernatural"):
            assert f'<option value="{category}">' in html
        assert "penalty dice" not in html

    def test_the_card_lists_the_gms_modifiers_with_a_remove_button(self, client, called, gm):
        pending.change_test(called.pk, gm, "add_category_modifier", category="supernatural",
                            amount=-3, source="anomalia")  # fmt: skip
        client.force_login(gm)
        url = reverse("dashboard_pending", args=[called.character.campaign_id])
        html = client.get(url).content.decode()
        assert "−3 supernatural modifier: anomalia" in html
        assert 'name="op" value="remove_dice"' in html
