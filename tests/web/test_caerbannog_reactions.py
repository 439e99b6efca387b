"""Caerbannog's reaction limits (RULES.md 4.12, "Reactions"; issue 25, item 6): only outside the
character's own turn, at most once per round, where the GM's "Turn starts" and "New round"
on the dashboard say whose turn it is and which round (rolls.turns.fight). Outside combat
reactions stay as they were."""

import copy
import html
import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from rolls import actions
from rolls.actions import ActionRefused
from rolls.models import Roll, Turn
from rolls.pending import actions as pending
from rolls.systems.caerbannog import panel as caerbannog_panel
from rolls.turns import fight as turns
from rolls.turns import order
from tests.web.live import panel_url

pytestmark = pytest.mark.django_db

SHEET = {
    "skills": [{"name": "Atletyka", "category": "physical", "level": 2}],
    "category_bonuses": {"physical": 2, "practical": 3, "social": 3, "combat": 1,
                         "knowledge": 0, "specialist": 0, "mystic": 0},
    "defences": {"Blok": 1, "Odporność": 1, "Unik": 2, "Intuicja": 1, "Koncentracja": 1,
                 "Opanowanie": 1},
    "resources": {"wytrzymalosc": 8, "determinacja": 3, "zywotnosc": 10, "zdrowie": 10,
                  "kapital_spoleczny": 2, "pd": 0, "rozmach": 6},
}  # fmt: skip
DODGE = "Unik w ostatniej chwili"
REACTIONS = [{"reaction": DODGE, "cost": 2}]
OWN_TURN = "Reactions only outside your own turn: it is Morgana's turn (round 1)."
AGAIN = "Already reacted this round (round 1): Morgana may react once per round."


@pytest.fixture
def fight(make_table, client, player):
    """Morgana (the player's, 6 Rozmach) and Julio (the other player's); a dodge costs 2."""
    table = make_table(
        "caerbannog",
        settings={"caerbannog": {"reaction_costs": REACTIONS}},
        characters=[("Morgana", copy.deepcopy(SHEET)), ("Julio", copy.deepcopy(SHEET))],
        session="first",
    )
    client.force_login(player)
    return table


def turn_of(table, character):
    return turns.start_turn(table.session, character)


def react(client, character, dice=None):
    if dice is not None:
        dice(5, 4, 1)  # no 8 among them: the roll gains no Rozmach
    form = {"defence": "Unik", "reaction": DODGE, "key": str(uuid.uuid4())}
    return client.post(panel_url(character, "test_roll"), form)


def rozmach(character):
    character.refresh_from_db()
    return character.data["resources"]["rozmach"]


def text(response):
    return html.unescape(response.content.decode())


# --- Only outside the character's own turn ------------------------------------------------------


def test_a_reaction_on_the_characters_own_turn_is_refused_with_the_reason(client, fight):
    morgana, _julio = fight.characters
    turn_of(fight, morgana)
    response = react(client, morgana)
    assert response.status_code == 409
    assert OWN_TURN in text(response)
    assert not Roll.objects.exists()
    assert rozmach(morgana) == 6


def test_a_reaction_on_another_characters_turn_is_paid_and_logged(client, fight, dice):
    morgana, julio = fight.characters
    turn_of(fight, julio)
    response = react(client, morgana, dice)
    assert response.status_code == 200
    assert Roll.objects.filter(character=morgana).count() == 1
    assert rozmach(morgana) == 4


def test_a_called_test_taken_as_a_reaction_on_the_own_turn_is_refused(client, fight, dice):
    morgana, _julio = fight.characters
    target = {"skill": [], "defence": ["Unik"], "form": "combined", "difficulty": "3"}
    test = pending.call_test(session=fight.session, character=morgana, gm=fight.gm, target=target)
    turn_of(fight, morgana)
    dice(5, 4, 1)
    form = {"pending": test.pk, "revision": test.revision, "key": str(uuid.uuid4())}
    response = client.post(panel_url(morgana, "test_roll"), {**form, "reaction": DODGE})
    assert response.status_code == 409
    assert OWN_TURN in text(response)
    assert not Roll.objects.exists()


# --- At most once per round ---------------------------------------------------------------------


def test_a_second_reaction_in_the_same_round_is_refused(client, fight, dice):
    morgana, julio = fight.characters
    turn_of(fight, julio)
    react(client, morgana, dice)
    response = react(client, morgana, dice)
    assert response.status_code == 409
    assert AGAIN in text(response)
    assert Roll.objects.filter(character=morgana).count() == 1
    assert rozmach(morgana) == 4  # the first dodge alone was paid


def test_a_reaction_is_allowed_again_once_the_turns_come_round(client, fight, dice):
    morgana, julio = fight.characters
    turn_of(fight, julio)
    react(client, morgana, dice)
    turn_of(fight, morgana)
    assert turn_of(fight, julio).round == 2  # Julio's second turn starts the next round
    response = react(client, morgana, dice)
    assert response.status_code == 200
    assert Roll.objects.filter(character=morgana).count() == 2


def test_the_gms_new_round_allows_a_reaction_again(client, fight, dice):
    morgana, julio = fight.characters
    turn_of(fight, julio)
    react(client, morgana, dice)
    client.force_login(fight.gm)
    answer = client.post(reverse("new_round", args=[fight.campaign.pk]), HTTP_HX_REQUEST="true")
    assert "Round 2" in text(answer)
    client.force_login(fight.players[0])
    assert react(client, morgana, dice).status_code == 200


def test_a_boost_of_last_rounds_reaction_is_not_a_reaction_of_this_round(client, fight, dice):
    """What follows a reaction's test is that same reaction, in the round it was made."""
    morgana, julio = fight.characters
    turn_of(fight, julio)
    dice(5, 4, 1)
    form = {"skill": "Atletyka", "reaction": DODGE, "key": str(uuid.uuid4())}
    client.post(panel_url(morgana, "test_roll"), form)
    turns.new_round(fight.session)
    dodge = Roll.objects.get()
    url = reverse("test_follow_up", args=[fight.campaign.pk, morgana.pk, dodge.pk, "boost"])
    assert client.post(url, {"key": str(uuid.uuid4())}).status_code == 200
    assert react(client, morgana, dice).status_code == 200


def test_a_reaction_the_turn_overtook_after_its_panel_was_shown_is_refused(fight, dice):
    """Asked again as the roll is saved, under the session's lock: the panel's offer is not
    enough."""
    morgana, julio = fight.characters
    turn_of(fight, julio)
    shown = caerbannog_panel.build(
        morgana, fight.campaign, {"defence": ["Unik"], "reaction": [DODGE]}
    )
    assert shown.ready
    turn_of(fight, morgana)
    dice(5, 4, 1)
    with pytest.raises(ActionRefused, match="Reactions only outside your own turn"):
        actions.roll_from_panel(
            session=fight.session, actor=fight.players[0], character=morgana, panel=shown,
            key=uuid.uuid4(), visibility="public",
        )  # fmt: skip
    assert not Roll.objects.exists()
    assert rozmach(morgana) == 6


# --- The turn order every system has (rolls.turns.order) ----------------------------------------


@pytest.fixture
def ordered(make_table, client, player):
    """Morgana and Julio as in ``fight``, and a Goblin, in the scene's turn order: Morgana 15,
    the Goblin 12, Julio 8; no turn started on a party card."""
    table = make_table(
        "caerbannog",
        settings={"caerbannog": {"reaction_costs": REACTIONS}},
        characters=[("Morgana", copy.deepcopy(SHEET)), ("Julio", copy.deepcopy(SHEET))],
        npcs=[("Goblin", [])],
        session="first",
    )
    morgana, julio = table.characters
    order.set_order(table.session, {morgana: 15, table.npcs[0]: 12, julio: 8})
    client.force_login(player)
    return table


def test_in_the_turn_orders_own_turn_a_reaction_is_refused(client, ordered):
    morgana, _julio = ordered.characters
    assert order.next_turn(ordered.session)[1].character == morgana
    response = react(client, morgana)
    assert response.status_code == 409
    assert OWN_TURN in text(response)
    assert rozmach(morgana) == 6


def test_in_the_turn_order_a_reaction_is_once_per_round(client, ordered, dice):
    morgana, _julio = ordered.characters
    order.next_turn(ordered.session)  # Morgana's
    order.next_turn(ordered.session)  # the Goblin's: an opponent's turn
    assert react(client, morgana, dice).status_code == 200
    order.next_turn(ordered.session)  # Julio's, still round 1
    response = react(client, morgana, dice)
    assert response.status_code == 409
    assert AGAIN in text(response)
    assert rozmach(morgana) == 4


def test_the_turn_orders_next_round_allows_a_reaction_again(client, ordered, dice):
    morgana, _julio = ordered.characters
    order.next_turn(ordered.session)
    order.next_turn(ordered.session)
    react(client, morgana, dice)
    order.next_round(ordered.session)  # round 2 starts with Morgana
    order.next_turn(ordered.session)  # the Goblin's
    assert react(client, morgana, dice).status_code == 200
    assert rozmach(morgana) == 2


# --- Outside combat ----------------------------------------------------------------------------


def test_outside_combat_reactions_are_not_limited(client, fight, dice):
    morgana, _julio = fight.characters
    assert react(client, morgana, dice).status_code == 200
    assert react(client, morgana, dice).status_code == 200
    assert rozmach(morgana) == 2


def test_a_new_scene_ends_the_fight_and_its_limits(client, fight, dice):
    morgana, _julio = fight.characters
    turn_of(fight, morgana)
    client.force_login(fight.gm)
    client.post(reverse("scene_new", args=[fight.campaign.pk, fight.session.pk]), {"title": "Las"})
    morgana.data["resources"]["rozmach"] = 6  # the new scene emptied the pool
    morgana.save()
    client.force_login(fight.players[0])
    assert turns.current(fight.campaign.pk) is None
    assert react(client, morgana, dice).status_code == 200


# --- Rounds ------------------------------------------------------------------------------------


def test_a_characters_second_turn_starts_the_next_round(fight):
    morgana, julio = fight.characters
    rounds = [turn_of(fight, c).round for c in (morgana, julio, morgana, julio)]
    assert rounds == [1, 1, 2, 2]


def test_the_gms_new_round_leaves_it_nobodys_turn(fight):
    morgana, _julio = fight.characters
    turn_of(fight, morgana)
    after = turns.new_round(fight.session)
    assert (after.round, after.character_id) == (2, None)
    assert turn_of(fight, morgana).round == 2  # Morgana's first turn of round 2


def test_a_turn_start_is_kept_in_the_database(client, fight):
    morgana, _julio = fight.characters
    client.force_login(fight.gm)
    url = reverse("turn_start", args=[fight.campaign.pk, morgana.pk])
    assert client.post(url, HTTP_HX_REQUEST="true").status_code == 200
    assert list(Turn.objects.values_list("round", "character")) == [(1, morgana.pk)]


def test_a_turn_start_tells_the_table(
    client, fight, monkeypatch, django_capture_on_commit_callbacks
):
    morgana, _julio = fight.characters
    sent = []
    monkeypatch.setattr("campaigns.live.broadcast", lambda group, event: sent.append(event))
    client.force_login(fight.gm)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("turn_start", args=[fight.campaign.pk, morgana.pk]))
    assert {"type": "table.turn", "session": fight.session.pk, "scene": 1, "round": 1,
            "character": morgana.pk, "npc": False} in sent  # fmt: skip


# --- The dashboard shows the round and whose turn it is -----------------------------------------


def dashboard(client, table, **headers):
    client.force_login(table.gm)
    return text(client.get(reverse("dashboard", args=[table.campaign.pk]), **headers))


def test_the_dashboard_shows_the_round_and_whose_turn_it_is(client, fight):
    morgana, julio = fight.characters
    turn_of(fight, julio)
    page = dashboard(client, fight)
    assert "<b>Round 1</b> · Julio's turn" in page
    assert f'id="party-{julio.pk}"' in page
    assert f'class="party-card card is-turn" id="party-{julio.pk}"' in page
    assert f'class="party-card card" id="party-{morgana.pk}"' in page


def test_the_dashboard_offers_a_new_round_beside_the_turns(client, fight):
    page = dashboard(client, fight)
    assert "No fight in this scene: no turn started." in page
    assert f'action="{reverse("new_round", args=[fight.campaign.pk])}"' in page
    assert 'aria-describedby="turn-now">New round</button>' in page


def test_after_a_new_round_the_dashboard_says_nobodys_turn_yet(client, fight):
    turn_of(fight, fight.characters[0])
    turns.new_round(fight.session)
    assert "<b>Round 2</b> · no turn started yet" in dashboard(client, fight)


def test_a_turn_event_refreshes_the_party_with_the_round(client, fight):
    turn_of(fight, fight.characters[1])
    client.force_login(fight.gm)
    url = reverse("dashboard_live", args=[fight.campaign.pk])
    answer = text(client.get(url, {"event": "table:turn"}))
    assert '<section hx-swap-oob="morph" id="party"' in answer
    assert "Julio's turn" in answer


def test_a_system_without_turns_shows_no_round(client, make_table):
    table = make_table("fasttest")
    page = dashboard(client, table)
    assert "New round" not in page


# --- The panel says why no reaction is offered -------------------------------------------------


def panel(client, character, **headers):
    return text(client.post(panel_url(character), {"defence": "Unik"}, **headers))


def test_on_the_own_turn_the_panel_says_why_it_offers_no_reaction(client, fight):
    morgana, _julio = fight.characters
    turn_of(fight, morgana)
    page = panel(client, morgana)
    assert f"No reaction now:</b> {OWN_TURN}" in page
    assert 'name="reaction"' not in page


def test_after_a_reaction_the_panel_says_it_was_this_rounds(client, fight, dice):
    morgana, julio = fight.characters
    turn_of(fight, julio)
    react(client, morgana, dice)
    page = panel(client, morgana)
    assert f"No reaction now:</b> {AGAIN}" in page
    assert 'name="reaction"' not in page


def test_in_combat_the_panel_offers_the_reaction_with_the_round(client, fight):
    morgana, julio = fight.characters
    turn_of(fight, julio)
    page = panel(client, morgana)
    assert "Round 1, Julio's turn: one reaction this round." in page
    assert 'name="reaction"' in page


def test_a_reaction_posted_when_none_is_offered_is_not_in_the_odds_shown(client, fight):
    morgana, _julio = fight.characters
    turn_of(fight, morgana)
    shown = client.post(panel_url(morgana), {"defence": "Unik", "reaction": DODGE})
    assert shown.context["panel"].params["rozmach"] == 6  # nothing paid for it


def test_the_round_and_the_refusal_speak_polish(client, fight):
    morgana, _julio = fight.characters
    turn_of(fight, morgana)
    with translation.override("pl"):
        page = panel(client, morgana, HTTP_ACCEPT_LANGUAGE="pl")
        board = dashboard(client, fight, HTTP_ACCEPT_LANGUAGE="pl")
    assert "Reakcje tylko poza własną turą: teraz jest tura postaci Morgana (runda 1)." in page
    assert "<b>Runda 1</b> · Tura postaci Morgana" in board
    assert "Nowa runda" in board
    assert "jej tura" in board


# --- Forged requests ---------------------------------------------------------------------------


def test_another_player_cannot_react_for_a_character_not_theirs(client, fight, other_player):
    morgana, julio = fight.characters
    turn_of(fight, julio)
    client.force_login(other_player)
    assert react(client, morgana).status_code == 404
    assert not Roll.objects.exists()
    assert rozmach(morgana) == 6


def test_an_outsider_cannot_react_for_a_character(client, fight, outsider):
    morgana, julio = fight.characters
    turn_of(fight, julio)
    client.force_login(outsider)
    assert react(client, morgana).status_code == 404
    assert rozmach(morgana) == 6


def test_a_removed_member_cannot_react_for_their_old_character(client, fight, player):
    morgana, julio = fight.characters
    turn_of(fight, julio)
    client.force_login(fight.gm)
    client.post(reverse("member_remove", args=[fight.campaign.pk, player.pk]))
    client.force_login(player)
    assert react(client, morgana).status_code == 404
    assert not Roll.objects.exists()


@pytest.mark.parametrize("who", ["player", "outsider", "removed"])
def test_only_the_gm_starts_a_new_round(client, fight, player, outsider, who):
    if who == "removed":
        client.force_login(fight.gm)
        client.post(reverse("member_remove", args=[fight.campaign.pk, player.pk]))
    client.force_login(outsider if who == "outsider" else player)
    assert client.post(reverse("new_round", args=[fight.campaign.pk])).status_code == 404
    assert not Turn.objects.exists()


def test_a_new_round_is_only_a_post(client, fight):
    client.force_login(fight.gm)
    assert client.get(reverse("new_round", args=[fight.campaign.pk])).status_code == 405
    assert not Turn.objects.exists()


def test_a_new_round_without_a_session_is_refused(client, make_table):
    table = make_table("caerbannog", session=False)
    client.force_login(table.gm)
    url = reverse("new_round", args=[table.campaign.pk])
    answer = client.post(url, HTTP_HX_REQUEST="true")
    assert answer.status_code == 409
    assert "No game session is running; the GM starts one." in text(answer)


def test_a_system_without_turns_refuses_a_new_round(client, make_table):
    table = make_table("fasttest")
    client.force_login(table.gm)
    answer = client.post(reverse("new_round", args=[table.campaign.pk]), HTTP_HX_REQUEST="true")
    assert answer.status_code == 409
    assert not Turn.objects.exists()
