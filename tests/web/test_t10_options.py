"""T10's options after a roll are the player's (RULES.md 3.6, issue 25 item 3): the menu is on the
roller's own panel right after the roll; the GM's dashboard shows the pick and takes the GM's
counter-move; only a catastrophe's bad options are the GM's to pick, and after 0 successes the
GM has a counter-move alone."""

import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from campaigns.models import Campaign, Membership
from campaigns.sessions import end_session, start_session
from rolls.dashboard import live_parts
from rolls.models import Condition, RandomTable, Roll
from rolls.panels import FollowUps
from sheets.models import Character
from tests.web.live import panel_url, seat
from tests.web.words_helpers import in_words

ASTRID = {
    "attributes": [{"name": "Styrka", "value": 4}, {"name": "Smidighet", "value": 2}],
    "skills": [{"name": "Svärd", "value": 3}],
    "equipment": [],
}
ERIK = {"attributes": [{"name": "Styrka", "value": 3}], "skills": [], "equipment": []}
HX = {"HX-Request": "true"}
FALL = "t10_option:fail_but:3"
FALL_TEXT = "Half an effect, and you fall: −2 dice on everything until you are up again."
CAUGHT = "t10_option:fail_but:4"
TITLE = "Du får chansen att vrida din handling"
#: Four dice of Styrka against 7: the faces of each result.
FAIL_BUT, FAIL, CATASTROPHE = (8, 2, 3, 4), (2, 3, 4, 5), (1, 2, 3, 4)


TABLE = pytest.mark.table("t10", name="Moorcrest", characters=[("Astrid", ASTRID), ("Erik", ERIK)])
pytestmark = [pytest.mark.django_db, TABLE]


@pytest.fixture
def player_client(client, table):
    client.force_login(table.players[0])
    return client


def roll(client, table, dice, faces, form=None):
    """Astrid's test through her panel (as htmx rolls it): the answer and the roll."""
    dice(*faces)
    response = client.post(
        panel_url(table.hero, "test_roll"),
        {"attribute": "Styrka", "key": str(uuid.uuid4()), **(form or {})},
        headers=HX,
    )
    return response, Roll.objects.filter(kind="test").latest("seq")


def pick_url(table, rolled, character=None):
    character = character or table.hero
    return reverse("test_options", args=[table.campaign.pk, character.pk, rolled.pk])


def pick(client, table, rolled, chosen=(FALL,), own="", key=None):
    form = {"chosen": list(chosen), "own": own, "key": str(key or uuid.uuid4())}
    return client.post(pick_url(table, rolled), form, headers=HX)


def gm_pick(client, table, rolled, chosen=(FALL,), own=""):
    client.force_login(table.gm)
    url = reverse("choose_options", args=[table.campaign.pk, rolled.pk])
    form = {"chosen": list(chosen), "own": own, "key": str(uuid.uuid4())}
    return client.post(url, form, headers=HX)


def counter(client, table, rolled, text="The guards hear the noise."):
    client.force_login(table.gm)
    url = reverse("counter_move", args=[table.campaign.pk, rolled.pk])
    return client.post(url, {"text": text, "key": str(uuid.uuid4())}, headers=HX)


def options_box(client, table):
    client.force_login(table.gm)
    return client.get(reverse("roll_options_box", args=[table.campaign.pk])).content.decode()


def sheet_html(client, character):
    url = reverse("character_detail", args=[character.campaign_id, character.pk])
    return client.get(url).content.decode()


def picks():
    return Roll.objects.filter(kind="options")


# --- The menu on the roller's own panel ----------------------------------------------------------


def test_the_rolls_answer_shows_the_menu_under_the_result(player_client, table, dice):
    response, rolled = roll(player_client, table, dice, FAIL_BUT)
    html = response.content.decode()
    assert TITLE in html
    assert f'action="{pick_url(table, rolled)}"' in html
    assert f'value="{FALL}"> <span>{FALL_TEXT}' in html
    assert 'name="own"' in html


def test_the_menu_says_how_many_to_pick(player_client, table, dice):
    response, _rolled = roll(player_client, table, dice, FAIL_BUT)
    assert "after a Misslyckande, men… (1 success) — choose 1</legend>" in response.content.decode()


def test_a_reload_of_the_sheet_shows_the_menu_while_the_pick_waits(player_client, table, dice):
    _response, rolled = roll(player_client, table, dice, FAIL_BUT)
    html = sheet_html(player_client, table.hero)
    assert f'action="{pick_url(table, rolled)}"' in html
    assert FALL_TEXT in html


def test_the_table_page_shows_the_menu_to_the_roller(player_client, table, dice):
    _response, rolled = roll(player_client, table, dice, FAIL_BUT)
    url = reverse("session_detail", args=[table.campaign.pk, table.session.pk])
    assert f'action="{pick_url(table, rolled)}"' in player_client.get(url).content.decode()


def test_the_menu_is_on_the_rollers_pages_only(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL_BUT)
    assert f'action="{pick_url(table, rolled)}"' in sheet_html(client, table.hero)
    client.force_login(table.players[1])
    table_page = reverse("session_detail", args=[table.campaign.pk, table.session.pk])
    for html in (sheet_html(client, table.hero), client.get(table_page).content.decode()):
        assert "roll-menu" not in html
        assert FALL_TEXT not in html


def test_the_sheet_opens_without_the_menu_once_the_options_are_picked(player_client, table, dice):
    _response, rolled = roll(player_client, table, dice, FAIL_BUT)
    pick(player_client, table, rolled)
    assert "roll-menu" not in sheet_html(player_client, table.hero)


# --- The player's pick ---------------------------------------------------------------------------


def test_the_players_pick_is_an_entry_that_follows_the_roll(player_client, table, dice):
    _response, rolled = roll(player_client, table, dice, FAIL_BUT)
    pick(player_client, table, rolled, chosen=[CAUGHT])
    entry = picks().get()
    assert (entry.parent_id, entry.actor) == (rolled.pk, table.players[0])
    assert in_words(entry.label_words) == "Chosen: It works, but you are caught in the act."
    assert entry.params["by"] == "player"


def test_the_pick_answers_with_the_panel_showing_what_was_picked(player_client, table, dice):
    _response, rolled = roll(player_client, table, dice, FAIL_BUT)
    html = pick(player_client, table, rolled, chosen=[], own="I grab the rope").content.decode()
    assert 'class="menu-picked"' in html
    assert "Chosen: I grab the rope" in html
    assert "roll-menu-form" not in html


def test_a_lasting_option_becomes_the_sheet_condition_with_the_roll_as_its_source(
    player_client, table, dice
):
    _response, rolled = roll(player_client, table, dice, FAIL_BUT)
    pick(player_client, table, rolled)
    condition = Condition.objects.get(character=table.hero)
    assert (condition.preset, condition.source_id) == ("knocked_down", rolled.pk)


def test_more_options_than_the_result_gives_are_refused(player_client, table, dice):
    _response, rolled = roll(player_client, table, dice, FAIL_BUT)
    response = pick(player_client, table, rolled, chosen=[FALL, CAUGHT])
    assert response.status_code == 422
    assert "This result gives 1 option; you chose 2." in response.content.decode()
    assert not picks().exists()


def test_an_impressive_result_of_five_successes_takes_two_picks(player_client, table, dice):
    faces = (8, 8, 8, 8, 8, 2, 2)  # Styrka 4 + Svärd 3: seven dice, five successes
    _response, rolled = roll(player_client, table, dice, faces, {"skill": "Svärd"})
    chosen = ["t10_option:impressive:1", "t10_option:impressive:6"]
    assert pick(player_client, table, rolled, chosen=chosen).status_code == 200
    assert picks().get().params["chosen"] == chosen


def test_a_forged_option_is_refused(player_client, table, dice):
    _response, rolled = roll(player_client, table, dice, FAIL_BUT)
    response = pick(player_client, table, rolled, chosen=["t10_option:impressive:9"])
    assert response.status_code == 422
    assert "That option is not on this result’s list" in response.content.decode()
    assert not picks().exists()


def test_a_second_pick_is_refused_with_a_clear_message(player_client, table, dice):
    _response, rolled = roll(player_client, table, dice, FAIL_BUT)
    pick(player_client, table, rolled)
    response = pick(player_client, table, rolled, chosen=[CAUGHT])
    assert response.status_code == 409
    message = f"The options after #{rolled.seq} have already been picked; the log shows which."
    assert message in response.content.decode()
    assert picks().count() == 1


def test_the_same_pick_sent_again_with_its_key_gets_the_entry_it_made(player_client, table, dice):
    _response, rolled = roll(player_client, table, dice, FAIL_BUT)
    key = uuid.uuid4()
    pick(player_client, table, rolled, key=key)
    again = pick(player_client, table, rolled, key=key)
    assert again.status_code == 200
    assert picks().count() == 1
    assert Condition.objects.count() == 1


def test_a_pick_after_the_session_ended_is_refused(player_client, table, dice):
    _response, rolled = roll(player_client, table, dice, FAIL_BUT)
    end_session(table.session)
    response = pick(player_client, table, rolled)
    assert response.status_code == 409
    assert "has ended; its options can no longer be picked" in response.content.decode()


def test_a_pick_without_a_key_is_refused(player_client, table, dice):
    _response, rolled = roll(player_client, table, dice, FAIL_BUT)
    response = player_client.post(pick_url(table, rolled), {"chosen": FALL}, headers=HX)
    assert response.status_code == 422
    assert not picks().exists()


def test_a_pick_without_javascript_goes_back_to_the_sheet(player_client, table, dice):
    _response, rolled = roll(player_client, table, dice, FAIL_BUT)
    form = {"chosen": FALL, "key": str(uuid.uuid4())}
    response = player_client.post(pick_url(table, rolled), form)
    assert response.status_code == 302
    assert response.url == reverse("character_detail", args=[table.campaign.pk, table.hero.pk])
    assert picks().exists()


# --- Who may pick --------------------------------------------------------------------------------


def test_another_player_cannot_pick_the_rollers_options(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL_BUT)
    client.force_login(table.players[1])
    assert pick(client, table, rolled).status_code == 404
    assert not picks().exists()


def test_a_removed_member_cannot_pick(player_client, table, dice):
    _response, rolled = roll(player_client, table, dice, FAIL_BUT)
    Membership.objects.filter(campaign=table.campaign, user=table.players[0]).delete()
    assert pick(player_client, table, rolled).status_code == 404
    assert not picks().exists()


def test_the_gm_may_pick_for_an_absent_player_and_the_log_says_so(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL_BUT)
    gm_pick(client, table, rolled, chosen=[CAUGHT])
    entry = picks().get()
    assert (entry.actor, entry.params["by"]) == (table.gm, "gm")
    assert in_words(entry.label_words) == (
        "Chosen by the GM for Astrid: It works, but you are caught in the act."
    )


def test_the_gm_cannot_pick_once_the_player_has(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL_BUT)
    pick(client, table, rolled)
    response = gm_pick(client, table, rolled, chosen=[CAUGHT])
    assert response.status_code == 409
    assert "have already been picked" in response.content.decode()
    assert picks().get().actor == table.players[0]


def test_the_player_cannot_pick_once_the_gm_picked_for_them(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL_BUT)
    gm_pick(client, table, rolled)
    client.force_login(table.players[0])
    assert pick(client, table, rolled, chosen=[CAUGHT]).status_code == 409
    assert picks().count() == 1


# --- A catastrophe's bad options are the GM's ----------------------------------------------------


def test_the_players_panel_says_the_gm_picks_a_catastrophes_options(player_client, table, dice):
    response, _rolled = roll(player_client, table, dice, CATASTROPHE)
    html = response.content.decode()
    assert '<h4 id="roll-menu-title">after a Katastrof (bad options)</h4>' in html
    assert "The GM picks 1 option." in html
    assert "roll-menu-form" not in html


def test_the_player_cannot_pick_a_catastrophes_options(player_client, table, dice):
    _response, rolled = roll(player_client, table, dice, CATASTROPHE)
    response = pick(player_client, table, rolled, chosen=["t10_option:catastrophe:2"])
    assert response.status_code == 409
    assert f"The GM picks the options after #{rolled.seq}, not the player." in (
        response.content.decode()
    )
    assert not picks().exists()


def test_the_gm_picks_a_catastrophes_bad_options(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, CATASTROPHE)
    gm_pick(client, table, rolled, chosen=["t10_option:catastrophe:2"])
    entry = picks().get()
    assert in_words(entry.label_words) == "Chosen: You break something that was helping you."
    assert entry.params["by"] == "gm"
    assert f'id="options-{rolled.pk}"' not in options_box(client, table)


def test_the_players_panel_shows_the_gms_catastrophe_pick_on_its_refresh(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, CATASTROPHE)
    gm_pick(client, table, rolled, chosen=["t10_option:catastrophe:2"])
    client.force_login(table.players[0])
    refresh = client.post(
        panel_url(table.hero),
        {"attribute": "Styrka", "shown": rolled.pk, "key": str(uuid.uuid4())},
        headers={"X-Panel-Refresh": "1", **HX},
    )
    assert "Chosen: You break something that was helping you." in refresh.content.decode()


# --- The GM's dashboard ---------------------------------------------------------------------------


def test_the_gms_pick_for_an_absent_player_lists_the_options_with_the_seeds_words(
    client, table, dice
):
    client.force_login(table.players[0])
    roll(client, table, dice, FAIL_BUT)
    folded = options_box(client, table).partition('<details class="pick-for">')[2]
    assert FALL_TEXT in folded
    assert 'lang="sv">Du lyckas halvdant (halv skada/effekt) men faller' in folded


def test_the_dashboard_shows_what_the_player_picked(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL_BUT)
    pick(client, table, rolled, chosen=[CAUGHT])
    html = options_box(client, table)
    assert "Picked by player: Chosen: It works, but you are caught in the act." in html


def test_the_dashboard_says_the_player_picks_while_they_have_not(client, table, dice):
    client.force_login(table.players[0])
    roll(client, table, dice, FAIL_BUT)
    html = options_box(client, table)
    assert "Astrid's player picks 1 option on their own panel." in html
    assert "Pick for Astrid (the player is away)" in html


def test_a_pick_refreshes_the_dashboards_options_through_the_table_event(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL_BUT)
    pick(client, table, rolled, chosen=[CAUGHT])
    client.force_login(table.gm)
    url = reverse("dashboard_live", args=[table.campaign.pk]) + "?event=table:entry"
    html = client.get(url).content.decode()
    assert '<section hx-swap-oob="morph" id="roll-options"' in html
    assert "Picked by player:" in html
    assert "roll-options" in {part.id for part in live_parts.DASHBOARD if "entry" in part.events}


# --- The GM's counter-move -----------------------------------------------------------------------


def test_the_gm_adds_a_counter_move_after_the_players_pick(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL_BUT)
    pick(client, table, rolled)
    assert counter(client, table, rolled).status_code == 200
    move = Roll.objects.get(kind="counter_move")
    assert (move.parent_id, move.actor, move.label) == (
        rolled.pk,
        table.gm,
        "The guards hear the noise.",
    )


def test_a_roll_leaves_the_box_once_picked_and_countered(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL_BUT)
    pick(client, table, rolled)
    counter(client, table, rolled)
    assert f'id="options-{rolled.pk}"' not in options_box(client, table)


def test_a_fail_offers_the_gm_a_counter_move_only(client, table, dice):
    client.force_login(table.players[0])
    response, rolled = roll(client, table, dice, FAIL)
    assert "roll-menu" not in response.content.decode()
    html = options_box(client, table)
    assert f'action="{reverse("counter_move", args=[table.campaign.pk, rolled.pk])}"' in html
    assert 'name="chosen"' not in html


def test_a_pick_after_a_fail_is_refused_and_the_counter_move_stays_offered(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL)
    response = gm_pick(client, table, rolled, chosen=[], own="something")
    assert response.status_code == 409
    assert "The rules offer no options after this roll." in response.content.decode()
    assert f'id="counter-{rolled.pk}"' in response.content.decode()


def test_the_counter_move_shows_on_the_players_panel(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL)
    counter(client, table, rolled)
    client.force_login(table.players[0])
    refresh = client.post(
        panel_url(table.hero),
        {"attribute": "Styrka", "shown": rolled.pk, "key": str(uuid.uuid4())},
        headers={"X-Panel-Refresh": "1", **HX},
    )
    assert "The GM's counter-move: The guards hear the noise." in refresh.content.decode()


def test_a_second_counter_move_is_refused(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL)
    counter(client, table, rolled)
    response = counter(client, table, rolled, "And the dogs too.")
    assert response.status_code == 409
    assert f"The counter-move after #{rolled.seq} is already in the log." in (
        response.content.decode()
    )


def test_a_catastrophe_has_no_counter_move_beside_the_gms_pick(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, CATASTROPHE)
    assert counter(client, table, rolled).status_code == 409
    assert not Roll.objects.filter(kind="counter_move").exists()


def test_an_empty_counter_move_is_refused(client, table, dice):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL)
    response = counter(client, table, rolled, "   ")
    assert response.status_code == 422
    assert "Write the counter-move in at most 200 characters." in response.content.decode()


# --- The options as the campaign's tables hold them ----------------------------------------------


def test_the_number_to_pick_is_set_by_the_result(table):
    system = table.campaign.rules

    def menu(**answer):
        return system.part(FollowUps).menu(
            Roll(kind="test", system="t10", result={"answer": answer})
        )

    assert menu(outcome="catastrophe", severity=2)["picks"] == 2
    assert menu(outcome="impressive", extra_options=3)["picks"] == 3
    assert menu(outcome="success_but")["picks"] == 1
    assert menu(outcome="fail")["picks"] == 0
    assert menu(outcome="success") is None


def test_a_row_the_gm_added_to_the_table_is_on_the_menu_and_in_the_log(player_client, table, dice):
    fail_but_table = RandomTable.objects.get(campaign=table.campaign, purpose="fail_but")
    fail_but_table.rows = [*fail_but_table.rows, [6, 6, "You slip on the ice."]]
    fail_but_table.save()
    response, rolled = roll(player_client, table, dice, FAIL_BUT)
    key = f"t10_row:{fail_but_table.pk}:6"
    assert f'value="{key}"> <span>You slip on the ice.' in response.content.decode()
    pick(player_client, table, rolled, chosen=[key])
    assert in_words(picks().get().label_words) == "Chosen: You slip on the ice."


def test_a_row_the_gm_took_out_of_the_table_is_off_the_menu(player_client, table, dice):
    fail_but_table = RandomTable.objects.get(campaign=table.campaign, purpose="fail_but")
    fail_but_table.rows = [row for row in fail_but_table.rows if row[0] != 3]
    fail_but_table.save()
    _response, rolled = roll(player_client, table, dice, FAIL_BUT)
    assert pick(player_client, table, rolled).status_code == 422


def test_a_table_written_in_polish_offers_the_seeds_options_in_the_readers_language(
    client, dice, gm, make_user
):
    with translation.override("pl"):  # the GM made the campaign, and its tables, in Polish
        campaign = Campaign.objects.create(name="Po polsku", system="t10", gm=gm)
    player = make_user("gracz")
    seat(campaign, gm, player)
    hero = Character.objects.create(campaign=campaign, owner=player, name="Astrid", data=ASTRID)
    start_session(campaign)
    client.force_login(player)
    dice(*FAIL_BUT)
    url = panel_url(hero, "test_roll")
    html = client.post(url, {"attribute": "Styrka", "key": str(uuid.uuid4())}, headers=HX)
    html = html.content.decode()
    assert f'value="{FALL}"> <span>{FALL_TEXT}' in html
    assert 'lang="sv">Du lyckas halvdant (halv skada/effekt) men faller' in html


def test_the_fair_dice_checker_reads_the_pick_and_the_counter_move_as_entries_of_no_dice(
    client, table, dice
):
    import json

    from rolls.engine.check import check_document
    from rolls.log import export
    from rolls.log.reading import entries_for

    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL)
    counter(client, table, rolled)
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL_BUT)
    pick(client, table, rolled, chosen=[CAUGHT])
    end_session(table.session)
    table.session.refresh_from_db()
    entries = entries_for(table.session, table.gm, True, newest_first=False)
    report = check_document(json.loads(export.as_json(table.session, entries)))
    # The tests' dice are scripted, not the stream's; the two entries of no dice check out.
    assert [entry["kind"] for entry in entries] == ["test", "counter_move", "test", "options"]
    assert report.matched == [2, 4]
    assert not report.problems


@pytest.mark.parametrize("field", ["chosen", "own", "key", "text"])
@pytest.mark.parametrize("value", ["\x00", "x" * 100_000, "\ud800", "9" * 40])
def test_hostile_text_in_a_pick_or_a_counter_move_is_refused_not_a_500(
    client, table, dice, field, value
):
    client.force_login(table.players[0])
    _response, rolled = roll(client, table, dice, FAIL_BUT)
    form = {"chosen": FALL, "own": "", "text": "A move.", "key": str(uuid.uuid4())}
    form[field] = value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    url = pick_url(table, rolled)
    if field == "text":
        client.force_login(table.gm)
        url = reverse("counter_move", args=[table.campaign.pk, rolled.pk])
    assert client.post(url, form, headers=HX).status_code in (200, 422)
