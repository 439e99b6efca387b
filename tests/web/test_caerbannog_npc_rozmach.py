"""Caerbannog's NPCs and Rozmach (RULES.md 4.12, "NPCs and Rozmach"; issue 37, item 10): by
default the GM's NPCs have no Rozmach (their rolls gain none and say so, they neither boost nor
react); the campaign's setting gives all of them one shared pool, shown on the GM's dashboard,
gained from their dice, spent on boosts and reactions like a character's, at most 10, emptied
when a scene starts."""

import html
import uuid

import pytest
from django.urls import reverse

from campaigns.system_settings import system_settings
from rolls.actions import ActionRefused
from rolls.dashboard import npc_rolls
from rolls.labels import source_line
from rolls.log.payload import roll_payload
from rolls.models import OpposedTest, Roll
from rolls.opposed import actions as opposed_actions
from rolls.systems.caerbannog import npc_rozmach
from rolls.turns import order
from tests.web.test_caerbannog_rozmach import SHEET

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
DODGE = "Unik w ostatniej chwili"
REACTIONS = [{"reaction": DODGE, "cost": 2}, {"reaction": "Kontra", "cost": 4}]
NONE_LINE = "0 Rozmach (momentum): the GM's NPCs have none in this campaign: its dice gain none"


@pytest.fixture
def table(make_table):
    """The default: NPCs without Rozmach. A Goblin and a Troll; Morgana of the party."""

    def make(shared=False, pool=0):
        settings = {"reaction_costs": REACTIONS, "npc_rozmach": shared}
        made = make_table(
            "caerbannog",
            settings={"caerbannog": settings},
            characters=[("Morgana", SHEET)],
            npcs=[("Goblin", []), ("Troll", [])],
            session="first",
        )
        if pool:  # after the session's first scene emptied it
            made.campaign.settings["caerbannog"]["npc_rozmach_pool"] = pool
            made.campaign.save()
        return made

    return make


def npc_roll(client, table, npc=None, dice=None, faces=(5, 4, 1), **form):
    """The GM rolls the NPC's test: skill level II (3d8) against 3 unless ``form`` says else."""
    if dice is not None:
        dice(*faces)
    client.force_login(table.gm)
    npc = npc or table.npcs[0]
    data = {"level": "2", "difficulty": "3", "ease": "0", "visibility": "public",
            "key": str(uuid.uuid4()), **form}  # fmt: skip
    return client.post(reverse("npc_roll", args=[table.campaign.pk, npc.pk]), data, **HX)


def boost(client, table, roll, bonus="3", user=None):
    client.force_login(user or table.gm)
    url = reverse("caerbannog_npc_boost", args=[table.campaign.pk, roll.pk])
    return client.post(url, {"bonus": bonus, "key": str(uuid.uuid4())}, **HX)


def pool(table) -> int:
    table.campaign.refresh_from_db()
    return npc_rozmach.pool(table.campaign)


def lines(roll) -> list[str]:
    return [source_line(s) for s in roll.sources]


def facts(roll) -> dict:
    return dict(roll_payload(roll)["facts"])


def text(response) -> str:
    return html.unescape(response.content.decode())


def dashboard(client, table) -> str:
    client.force_login(table.gm)
    return text(client.get(reverse("dashboard", args=[table.campaign.pk])))


# --- By default: no Rozmach --------------------------------------------------------------------


def test_the_setting_is_off_by_default(make_table):
    campaign = make_table("caerbannog").campaign
    assert system_settings(campaign)["npc_rozmach"] is False


def test_by_default_an_npcs_roll_gains_no_rozmach_and_its_entry_says_none(client, table, dice):
    made = table()
    assert npc_roll(client, made, dice=dice, faces=(8, 8, 3)).status_code == 200
    entry = Roll.objects.get()
    assert NONE_LINE in lines(entry)
    assert "rozmach_gained" not in facts(entry)
    assert "rozmach" not in facts(entry)
    assert pool(made) == 0


def test_by_default_the_log_shows_no_rozmach_gained_beside_an_npcs_dice(client, table, dice):
    made = table()
    npc_roll(client, made, dice=dice, faces=(8, 8, 3))
    page = text(client.get(reverse("session_log", args=[made.campaign.pk])))
    assert "Rozmach (momentum) gained" not in page
    assert "the GM's NPCs have none in this campaign" in page


def test_by_default_the_npcs_form_offers_no_reaction(client, table):
    assert 'name="reaction"' not in dashboard(client, table())


def test_by_default_a_reaction_posted_for_an_npc_is_ignored_and_costs_nothing(client, table, dice):
    made = table()
    npc_roll(client, made, dice=dice, reaction="1")
    assert not any("reaction" in line for line in lines(Roll.objects.get()))
    assert pool(made) == 0


def test_by_default_an_npcs_test_cannot_be_boosted(client, table, dice):
    made = table()
    npc_roll(client, made, dice=dice, faces=(8, 2, 1))
    response = boost(client, made, Roll.objects.get())
    assert response.status_code == 409
    assert "The GM's NPCs have no Rozmach (momentum) in this campaign" in text(response)
    assert Roll.objects.count() == 1


def test_by_default_the_dashboard_says_the_npcs_have_no_rozmach(client, table):
    page = dashboard(client, table())
    assert "Your NPCs have no Rozmach (momentum) in this campaign" in page


def test_by_default_an_npcs_side_of_an_opposed_test_gains_none_either(client, table, dice):
    made = table()
    opposed = opposed_actions.start_opposed(
        session=made.session, gm=made.gm, initiator=made.hero,
        initiator_target={"skill": [], "defence": ["Unik"], "form": "combined",
                          "difficulty": "3"},
        npc=made.npcs[0], npc_params={"dice": [8, 8, 8], "difficulty": 3}, npc_initiates=True,
    )  # fmt: skip
    dice(8, 8, 3)
    opposed_actions.roll_npc_side(
        opposed_id=opposed.pk, gm=made.gm, key=uuid.uuid4(), shape=npc_rolls.at_roll
    )
    side = OpposedTest.objects.get().npc_roll
    assert NONE_LINE in lines(side)
    assert "rozmach_gained" not in facts(side)


# --- The setting ------------------------------------------------------------------------------


def settings_post(shared: bool) -> dict:
    data = {"name": "Caerbannog"}
    for prefix in ("pd", "reaction"):
        data |= {f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"}
    return data | ({"npc_rozmach": "on"} if shared else {})


def test_the_gm_switches_the_shared_pool_on_in_the_campaigns_settings(client, table):
    made = table()
    client.force_login(made.gm)
    url = reverse("campaign_settings", args=[made.campaign.pk])
    assert "All my NPCs share one pool of Rozmach (momentum)" in text(client.get(url))
    assert client.post(url, settings_post(True)).status_code == 302
    made.campaign.refresh_from_db()
    assert npc_rozmach.shared(made.campaign)


def test_switching_the_setting_empties_the_pool(client, table):
    made = table(shared=True, pool=5)
    client.force_login(made.gm)
    client.post(reverse("campaign_settings", args=[made.campaign.pk]), settings_post(False))
    made.campaign.refresh_from_db()
    assert not npc_rozmach.shared(made.campaign)
    assert pool(made) == 0


def test_saving_the_settings_unchanged_keeps_the_pool(client, table):
    made = table(shared=True, pool=5)
    client.force_login(made.gm)
    client.post(reverse("campaign_settings", args=[made.campaign.pk]), settings_post(True))
    assert pool(made) == 5


def test_a_player_cannot_switch_it(client, table, player):
    made = table()
    client.force_login(player)
    url = reverse("campaign_settings", args=[made.campaign.pk])
    assert client.post(url, settings_post(True)).status_code == 404
    made.campaign.refresh_from_db()
    assert not npc_rozmach.shared(made.campaign)


# --- One pool shared by all the GM's NPCs -----------------------------------------------------


def test_an_npcs_dice_gain_the_shared_pool(client, table, dice):
    made = table(shared=True)
    npc_roll(client, made, dice=dice, faces=(8, 8, 3))
    entry = Roll.objects.get()
    assert pool(made) == 2
    assert (facts(entry)["rozmach_gained"], facts(entry)["rozmach"]) == (2, 2)
    assert "0 Rozmach (momentum) in the NPCs' shared pool: before the dice" in lines(entry)


def test_every_npc_rolls_from_and_into_the_same_pool(client, table, dice):
    made = table(shared=True)
    goblin, troll = made.npcs
    npc_roll(client, made, goblin, dice=dice, faces=(8, 8, 3))
    npc_roll(client, made, troll, dice=dice, faces=(8, 2, 1))
    trolls = Roll.objects.get(npc=troll)
    assert trolls.params["rozmach"] == 2
    assert pool(made) == 3


def test_the_pool_never_holds_more_than_10(client, table, dice):
    made = table(shared=True, pool=9)
    npc_roll(client, made, dice=dice, faces=(8, 8, 8))
    assert pool(made) == 10


def test_a_new_scene_empties_the_pool(client, table):
    made = table(shared=True, pool=6)
    client.force_login(made.gm)
    client.post(reverse("scene_new", args=[made.campaign.pk, made.session.pk]), {"title": "Las"})
    assert pool(made) == 0


def test_the_gms_dashboard_shows_the_pool(client, table):
    page = dashboard(client, table(shared=True, pool=4))
    assert "<b>4</b> of 10 in the pool all your NPCs share" in page


def test_an_npcs_roll_refreshes_the_box_of_the_pool_live(client, table, dice):
    made = table(shared=True)
    npc_roll(client, made, dice=dice, faces=(8, 2, 1))
    url = reverse("dashboard_live", args=[made.campaign.pk])
    answer = text(client.get(url, {"event": "table:entry"}))
    assert '<section hx-swap-oob="morph" class="npc-box" id="npc-box"' in answer
    assert "<b>1</b> of 10 in the pool" in answer


def test_a_roll_made_meanwhile_is_not_overwritten(client, table, dice):
    """The pool the roll started from is checked again under the campaign's lock."""
    made = table(shared=True, pool=3)
    _params, _sources, on_result = npc_rolls.at_roll(
        made.campaign, made.npcs[0], {}, {"dice": [8, 8, 8], "difficulty": 3}, []
    )
    npc_roll(client, made, made.npcs[1], dice=dice, faces=(8, 2, 1))  # 3 -> 4 meanwhile
    with pytest.raises(ActionRefused, match="changed meanwhile"):
        on_result(type("Result", (), {"rozmach": 5})(), Roll.objects.get())
    assert pool(made) == 4


# --- The boost ---------------------------------------------------------------------------------


def test_the_gm_boosts_an_npcs_test_with_the_rozmach_its_own_roll_gained(client, table, dice):
    """RULES.md 4.5: the boost acts on the result, so this very roll's Rozmach may pay it."""
    made = table(shared=True)
    npc_roll(client, made, dice=dice, faces=(8, 3, 2), difficulty="5")  # reads 3: -2, +1 Rozmach
    assert pool(made) == 1
    response = boost(client, made, Roll.objects.get(), bonus="3")
    assert response.status_code == 200
    boosted = Roll.objects.get(kind="boost")
    assert boosted.result["answer"]["result"] == 1
    assert boosted.npc_id == made.npcs[0].pk
    assert pool(made) == 0


def test_the_dashboard_offers_the_boost_of_the_latest_npc_roll(client, table, dice):
    made = table(shared=True)
    npc_roll(client, made, dice=dice, faces=(8, 3, 2))
    entry = Roll.objects.get()
    page = dashboard(client, made)
    assert reverse("caerbannog_npc_boost", args=[made.campaign.pk, entry.pk]) in page
    assert "Boost: spend 1 Rozmach (momentum) of the pool for the bonus" in page


def test_a_boost_with_an_empty_pool_is_refused(client, table, dice):
    made = table(shared=True)
    npc_roll(client, made, dice=dice, faces=(5, 3, 2))
    response = boost(client, made, Roll.objects.get())
    assert response.status_code == 409
    assert "A boost costs 1 Rozmach (momentum), and the NPCs' pool is empty." in text(response)
    assert Roll.objects.count() == 1


def test_a_test_is_boosted_once(client, table, dice):
    made = table(shared=True, pool=4)
    npc_roll(client, made, dice=dice, faces=(5, 3, 2))
    first = Roll.objects.get()
    boost(client, made, first)
    assert boost(client, made, first).status_code == 409
    assert Roll.objects.filter(kind="boost").count() == 1
    assert pool(made) == 3


def test_a_critical_failure_cannot_be_boosted(client, table, dice):
    made = table(shared=True, pool=4)
    npc_roll(client, made, dice=dice, faces=(1, 1, 1))
    response = boost(client, made, Roll.objects.get())
    assert response.status_code == 409
    assert "A critical failure cannot be boosted with Rozmach (momentum)." in text(response)


def test_once_another_npcs_roll_changed_the_pool_the_earlier_one_is_not_boosted(
    client, table, dice
):
    made = table(shared=True, pool=4)
    goblin, troll = made.npcs
    npc_roll(client, made, goblin, dice=dice, faces=(5, 3, 2))
    npc_roll(client, made, troll, dice=dice, faces=(8, 3, 2))
    response = boost(client, made, Roll.objects.get(npc=goblin))
    assert response.status_code == 409
    assert "The NPCs' pool of Rozmach (momentum) has changed since #1" in text(response)
    assert pool(made) == 5


@pytest.mark.parametrize("bonus", ["0", "11", "three", ""])
def test_a_bonus_out_of_range_is_refused_with_the_rule(client, table, dice, bonus):
    made = table(shared=True, pool=4)
    npc_roll(client, made, dice=dice, faces=(5, 3, 2))
    response = boost(client, made, Roll.objects.get(), bonus=bonus)
    assert response.status_code == 422
    assert "a whole number from 1 to 10" in text(response)
    assert pool(made) == 4


def test_a_characters_test_is_not_boosted_from_the_npcs_pool(client, table, dice, player):
    made = table(shared=True, pool=4)
    client.force_login(player)
    dice(5, 3, 2)
    url = reverse("test_roll", args=[made.campaign.pk, made.hero.pk])
    client.post(url, {"skill": "Atletyka", "key": str(uuid.uuid4())})
    response = boost(client, made, Roll.objects.get())
    assert response.status_code == 409
    assert pool(made) == 4


@pytest.mark.parametrize("who", ["player", "outsider"])
def test_only_the_gm_boosts_an_npcs_test(client, table, dice, request, who):
    made = table(shared=True, pool=4)
    npc_roll(client, made, dice=dice, faces=(5, 3, 2))
    response = boost(client, made, Roll.objects.get(), user=request.getfixturevalue(who))
    assert response.status_code == 404
    assert pool(made) == 4


def test_without_javascript_a_boost_returns_to_the_dashboard(client, table, dice):
    made = table(shared=True, pool=4)
    npc_roll(client, made, dice=dice)
    url = reverse("caerbannog_npc_boost", args=[made.campaign.pk, Roll.objects.get().pk])
    response = client.post(url, {"bonus": "2", "key": str(uuid.uuid4())})
    assert response.status_code == 302
    assert response["Location"].endswith("#npc-box")
    assert Roll.objects.filter(kind="boost").exists()


# --- Reactions ----------------------------------------------------------------------------------


def test_the_npcs_form_offers_the_gms_reactions_with_their_costs(client, table):
    page = dashboard(client, table(shared=True))
    assert 'name="reaction"' in page
    assert f"{DODGE} — 2 Rozmach" in page


def test_an_npcs_reaction_is_paid_from_the_pool_before_its_dice(client, table, dice):
    made = table(shared=True, pool=3)
    response = npc_roll(client, made, dice=dice, faces=(8, 2, 1), reaction="2")  # the dodge
    assert response.status_code == 200
    entry = Roll.objects.get()
    assert entry.params["rozmach"] == 1
    assert "2 Rozmach spent: reaction: Unik w ostatniej chwili" in lines(entry)
    assert pool(made) == 2  # 3 - 2, then the 8's +1


def test_a_reaction_the_pool_cannot_pay_is_refused_whatever_its_dice_would_gain(
    client, table, dice
):
    """RULES.md 4.5: a reaction acts before the roll, so the roll's own Rozmach cannot pay it."""
    made = table(shared=True, pool=1)
    response = npc_roll(client, made, dice=dice, faces=(8, 8, 8), reaction="2")
    assert response.status_code == 409
    assert "costs 2 Rozmach (momentum) and the NPCs' pool holds 1" in text(response)
    assert not Roll.objects.exists()
    assert pool(made) == 1


@pytest.fixture
def in_order(table):
    """The shared pool at 6, and the scene's turn order: Morgana 15, the Goblin 12."""
    made = table(shared=True, pool=6)
    order.set_order(made.session, {made.hero: 15, made.npcs[0]: 12})
    return made


def test_an_npcs_reaction_on_its_own_turn_is_refused(client, in_order, dice):
    order.next_turn(in_order.session)
    order.next_turn(in_order.session)  # the Goblin's turn
    response = npc_roll(client, in_order, dice=dice, reaction="2")
    assert response.status_code == 409
    assert "Reactions only outside your own turn: it is Goblin's turn (round 1)." in text(response)
    assert pool(in_order) == 6


def test_an_npc_reacts_once_per_round(client, in_order, dice):
    order.next_turn(in_order.session)  # Morgana's turn
    assert npc_roll(client, in_order, dice=dice, reaction="2").status_code == 200
    response = npc_roll(client, in_order, dice=dice, reaction="2")
    assert response.status_code == 409
    assert "Already reacted this round (round 1): Goblin may react once per round." in text(
        response
    )
    assert pool(in_order) == 4
    order.next_round(in_order.session)
    assert npc_roll(client, in_order, dice=dice, reaction="2").status_code == 200


def test_another_npcs_reaction_in_the_same_round_is_its_own(client, in_order, dice):
    order.next_turn(in_order.session)
    npc_roll(client, in_order, in_order.npcs[0], dice=dice, reaction="2")
    assert npc_roll(client, in_order, in_order.npcs[1], dice=dice, reaction="2").status_code == 200
    assert pool(in_order) == 2
