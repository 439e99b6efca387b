"""Real dice at a real table (issue 40 item 3): where the GM allows it, a test panel takes the
faces of real dice rolled at the table, one box per die, and the server resolves them as it
resolves its own dice; everywhere else, and for anything forged, it refuses."""

import csv
import io
import json
import uuid

import pytest
from django.urls import reverse

from campaigns.real_dice import real_dice
from rolls.engine.check import check_document
from rolls.log import stats
from rolls.models import Roll
from tests.web.live import panel_url
from tests.web.test_panel_fasttest import SHEET as WOUNDED
from tests.web.test_panel_t10 import SHEET as T10_SHEET

pytestmark = pytest.mark.django_db

SHEET = {**WOUNDED, "wounds": []}  # no penalty die from a wound

EVERYONE = pytest.mark.table(
    settings={"real_dice": "everyone"},
    characters=[("Brunhilda", SHEET), ("Ulryk", SHEET)],
)
GM_ONLY = pytest.mark.table(settings={"real_dice": "gm"}, characters=[("Brunhilda", SHEET)])
OFF = pytest.mark.table(characters=[("Brunhilda", SHEET)])
T10 = pytest.mark.table(
    "t10", settings={"real_dice": "everyone"}, characters=[("Astrid", T10_SHEET)]
)

# BUDOWA 7 + WALKA 2, no bonus or penalty dice: one d10 and one d6.
TEST = {"attribute": "BUDOWA", "skill": "WALKA", "visibility": "public"}


def typed_roll(client, hero, *faces, **extra):
    form = {**TEST, "real_dice": "1", "real_face": [str(face) for face in faces], **extra}
    return client.post(panel_url(hero, "test_roll"), form | {"key": str(uuid.uuid4())})


def drawn_roll(client, hero):
    return client.post(panel_url(hero, "test_roll"), TEST | {"key": str(uuid.uuid4())})


# --- the setting ---------------------------------------------------------------------------


def test_real_dice_are_off_in_a_new_campaign(table):
    assert real_dice(table.campaign) == "off"


def test_the_gm_allows_real_dice_on_the_settings_page(client, table, gm):
    client.force_login(gm)
    url = reverse("campaign_settings", args=[table.campaign.pk])
    client.post(url, {"name": "Stół", "real_dice": "gm", **skills()})
    table.campaign.refresh_from_db()
    assert real_dice(table.campaign) == "gm"


def test_saving_other_settings_leaves_real_dice_as_they_were(client, table, gm):
    table.campaign.settings = {"real_dice": "everyone"}
    table.campaign.save()
    client.force_login(gm)
    client.post(reverse("campaign_settings", args=[table.campaign.pk]), {"name": "X", **skills()})
    table.campaign.refresh_from_db()
    assert real_dice(table.campaign) == "everyone"


def skills():
    from campaigns.system_settings import DEFAULT_FASTTEST_SKILLS

    return {f"skill_{i}": name for i, name in enumerate(DEFAULT_FASTTEST_SKILLS, start=1)}


# --- the panel -----------------------------------------------------------------------------


@OFF
def test_the_panel_offers_no_real_dice_where_the_gm_has_not_allowed_them(client, table, player):
    client.force_login(player)
    html = client.post(panel_url(table.hero), TEST).content.decode()
    assert "I rolled real dice" not in html


@EVERYONE
def test_the_panel_asks_for_one_labelled_box_per_die_the_test_rolls(client, table, player):
    client.force_login(player)
    html = client.post(panel_url(table.hero), TEST | {"real_dice": "1"}).content.decode()
    assert '<label for="real-face-1">Die 1: d10</label>' in html
    assert '<label for="real-face-2">Die 2: d6</label>' in html
    assert 'id="real-face-2" value="" min="1" max="6" step="1" inputmode="numeric"' in html


@EVERYONE
def test_bonus_dice_add_their_boxes_as_the_split_says(client, table, player):
    client.force_login(player)
    response = client.post(panel_url(table.hero), TEST | {"real_dice": "1", "trait": ["0"]})
    sides = [box.sides for box in response.context["real_dice"]["boxes"]]
    assert sides == [10, 10, 10, 6]


@GM_ONLY
def test_a_gm_only_table_offers_real_dice_to_the_gm_and_not_to_the_player(
    client, table, gm, player
):
    client.force_login(player)
    for_player = client.post(panel_url(table.hero), TEST).content.decode()
    client.force_login(gm)
    for_gm = client.post(panel_url(table.hero), TEST).content.decode()
    assert ("I rolled real dice" in for_player, "I rolled real dice" in for_gm) == (False, True)


@T10
def test_a_ten_asks_for_the_explosion_die_too(client, table, player):
    client.force_login(player)
    form = {"attribute": "Styrka", "real_dice": "1", "real_face": ["10", "3", "5", "6"]}
    response = client.post(panel_url(table.hero), form)
    assert [box.sides for box in response.context["real_dice"]["boxes"]] == [10] * 5


# --- the roll ------------------------------------------------------------------------------


@EVERYONE
def test_typed_dice_give_the_result_the_same_drawn_dice_give(client, table, player, dice):
    client.force_login(player)
    dice(3, 5)
    drawn = drawn_roll(client, table.hero).context["rolled"]
    typed = typed_roll(client, table.hero, 3, 5).context["rolled"]
    assert (typed["result"], typed["dice"]) == (drawn["result"], drawn["dice"])


@EVERYONE
def test_a_typed_roll_is_logged_as_typed_with_no_drawn_dice(client, table, player):
    client.force_login(player)
    typed_roll(client, table.hero, 3, 5)
    roll = Roll.objects.get()
    assert (roll.typed, roll.drawn, roll.faces) == (True, [], {"d10": [3], "d6": [5]})


@EVERYONE
def test_the_log_entry_says_who_typed_the_dice(client, table, player):
    client.force_login(player)
    html = typed_roll(client, table.hero, 3, 5).content.decode()
    assert "real dice, typed by player" in html


@EVERYONE
def test_a_typed_roll_leaves_the_boxes_empty_for_the_next_one(client, table, player):
    client.force_login(player)
    response = typed_roll(client, table.hero, 3, 5)
    assert [box.value for box in response.context["real_dice"]["boxes"]] == ["", ""]


@EVERYONE
def test_a_drawn_roll_at_a_table_that_allows_real_dice_is_not_typed(client, table, player):
    client.force_login(player)
    drawn_roll(client, table.hero)
    assert Roll.objects.get().typed is False


@T10
def test_exploded_real_dice_roll_with_every_face_typed(client, table, player):
    client.force_login(player)
    form = {"attribute": "Styrka", "real_dice": "1", "real_face": ["10", "3", "5", "6", "8"]}
    client.post(panel_url(table.hero, "test_roll"), form | {"key": str(uuid.uuid4())})
    assert Roll.objects.get().result["answer"]["dice_rolled"] == 5


# --- refusals --------------------------------------------------------------------------------


@OFF
def test_typed_dice_where_the_gm_has_not_allowed_them_are_refused(client, table, player):
    client.force_login(player)
    response = typed_roll(client, table.hero, 3, 5)
    assert response.status_code == 403
    assert "The GM has not allowed you to type real dice" in response.content.decode()
    assert not Roll.objects.exists()


@OFF
def test_faces_sent_without_the_box_where_not_allowed_are_refused(client, table, player):
    client.force_login(player)
    form = TEST | {"real_face": ["10", "6"], "key": str(uuid.uuid4())}
    assert client.post(panel_url(table.hero, "test_roll"), form).status_code == 403


@GM_ONLY
def test_a_player_at_a_gm_only_table_may_not_type_dice(client, table, player):
    client.force_login(player)
    assert typed_roll(client, table.hero, 3, 5).status_code == 403
    assert not Roll.objects.exists()


@GM_ONLY
def test_the_gm_at_a_gm_only_table_rolls_typed_dice(client, table, gm):
    client.force_login(gm)
    assert typed_roll(client, table.hero, 3, 5).status_code == 200
    assert Roll.objects.get().typed is True


@EVERYONE
def test_typed_dice_for_another_players_character_are_refused(client, table, player):
    client.force_login(player)
    assert typed_roll(client, table.characters[1], 3, 5).status_code == 404
    assert not Roll.objects.exists()


@EVERYONE
@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ((3, 0), "Die 2 (d6) shows 1 to 6, not “0”."),
        ((3, 7), "Die 2 (d6) shows 1 to 6, not “7”."),
        ((3, "six"), "Die 2 (d6) shows 1 to 6, not “six”."),
        ((3, "2.5"), "Die 2 (d6) shows 1 to 6, not “2.5”."),
        ((3,), "Die 2 (d6) is missing: type its face."),
        ((3, ""), "Die 2 (d6) is missing: type its face."),
        ((3, 5, 4), "3 dice were typed, but this test rolls 2; look at it again."),
    ],
)
def test_a_face_off_its_die_missing_or_extra_is_refused_naming_it(
    client, table, player, faces, message
):
    client.force_login(player)
    response = typed_roll(client, table.hero, *faces)
    assert response.status_code == 409
    assert message in response.content.decode()
    assert not Roll.objects.exists()


@EVERYONE
def test_a_refused_roll_keeps_every_face_typed(client, table, player):
    client.force_login(player)
    response = typed_roll(client, table.hero, 4, 9)
    assert [box.value for box in response.context["real_dice"]["boxes"]] == ["4", "9"]


@EVERYONE
def test_faces_for_a_test_whose_choices_changed_are_refused(client, table, player):
    client.force_login(player)
    # Typed for one d10 and one d6; the test now has a bonus die (a trait ticked).
    response = typed_roll(client, table.hero, 3, 5, trait=["0"])
    assert response.status_code == 409
    assert not Roll.objects.exists()


@T10
def test_a_ten_without_its_explosion_die_is_refused_asking_for_it(client, table, player):
    client.force_login(player)
    form = {"attribute": "Styrka", "real_dice": "1", "real_face": ["10", "3", "5", "6"]}
    response = client.post(panel_url(table.hero, "test_roll"), form | {"key": str(uuid.uuid4())})
    assert response.status_code == 409
    assert "Die 5 (d10) is missing: your faces call for more dice" in response.content.decode()


# --- after the roll: exports, the fair check, statistics ---------------------------------------


def ended_export(client, table, kind):
    from campaigns.sessions import end_session

    table.session.refresh_from_db()
    if table.session.is_open:
        end_session(table.session)
    url = reverse("session_export", args=[table.campaign.pk, table.session.pk, kind])
    return client.get(url).content.decode()


@EVERYONE
def test_the_exports_say_who_typed_the_dice(client, table, player):
    client.force_login(player)
    typed_roll(client, table.hero, 3, 5)
    markdown = ended_export(client, table, "md")
    rows = list(csv.DictReader(io.StringIO(ended_export(client, table, "csv"))))
    entry = json.loads(ended_export(client, table, "json"))["entries"][0]
    assert "real dice, typed by player" in markdown
    assert rows[0]["typed_by"] == "player"
    assert entry["typed"] is True


@EVERYONE
def test_the_fair_check_lists_a_typed_entry_as_typed_not_as_a_mismatch(client, table, player):
    client.force_login(player)
    typed_roll(client, table.hero, 3, 5)
    drawn_roll(client, table.hero)
    report = check_document(json.loads(ended_export(client, table, "json")))
    assert (report.typed, report.matched, report.mismatched) == ([1], [2], [])
    assert "#1: typed: real dice rolled at the table, not drawn" in report.lines()


@EVERYONE
def test_dice_statistics_keep_typed_dice_apart_from_drawn_ones(client, table, player, dice):
    client.force_login(player)
    typed_roll(client, table.hero, 3, 5)
    dice(7, 2)
    drawn_roll(client, table.hero)
    entries = [roll_entry(roll) for roll in Roll.objects.order_by("seq")]
    whole, _people = stats.session_stats(entries)
    typed = stats.typed_stats(entries)
    assert [(die.sides, die.counts.index(1) + 1) for die in whole.dice] == [(6, 2), (10, 7)]
    assert [(die.sides, die.counts.index(1) + 1) for die in typed.dice] == [(6, 5), (10, 3)]


def roll_entry(roll):
    from rolls.log.payload import roll_payload

    return roll_payload(Roll.objects.select_related("actor", "parent").get(pk=roll.pk))


# --- an NPC's test, rolled by the GM behind the screen ----------------------------------------

TROLL = [{"name": "wielki", "dice": 3}]
NPC_GM_ONLY = pytest.mark.table(
    settings={"real_dice": "gm"}, characters=(), npcs=[("Troll", TROLL)]
)
NPC_OFF = pytest.mark.table(characters=(), npcs=[("Troll", TROLL)])
# Chance 5, no bonus or penalty dice: one d10 and one d6.
NPC_TEST = {"chance": "5", "bonus": "0", "penalty": "0", "visibility": "hidden"}


def npc_roll(client, table, **form):
    url = reverse("npc_roll", args=[table.campaign.pk, table.npc.pk])
    return client.post(url, NPC_TEST | {"key": str(uuid.uuid4())} | form, HTTP_HX_REQUEST="true")


@NPC_GM_ONLY
def test_the_gm_types_the_real_dice_of_an_npcs_test_and_they_are_its_dice(client, table, gm):
    client.force_login(gm)
    response = npc_roll(client, table, real_dice="1", real_face=["3", "5"])
    assert response.status_code == 200
    roll = Roll.objects.get()
    assert roll.typed
    assert [die["face"] for die in roll.result["dice"]] == [3, 5]
    assert roll.drawn == []
    # The boxes come back empty for the next roll's faces.
    assert 'value="3"' not in response.content.decode()


@NPC_GM_ONLY
def test_the_npcs_form_asks_for_a_box_per_die_once_real_dice_are_ticked(client, table, gm):
    client.force_login(gm)
    url = reverse("npc_roll_box", args=[table.campaign.pk, table.npc.pk])
    html = client.get(url, NPC_TEST | {"real_dice": "1"}).content.decode()
    assert f'id="npc-{table.npc.pk}-real-face-1"' in html
    assert f'id="npc-{table.npc.pk}-real-face-2"' in html
    assert f'id="npc-{table.npc.pk}-real-face-3"' not in html


@NPC_GM_ONLY
def test_the_dashboard_offers_real_dice_for_an_npcs_test_where_the_gm_allows_them(
    client, table, gm
):
    client.force_login(gm)
    html = client.get(reverse("dashboard", args=[table.campaign.pk])).content.decode()
    assert f'id="npc-{table.npc.pk}-real-dice-on"' in html


@NPC_OFF
def test_real_dice_for_an_npc_are_refused_where_the_gm_has_not_allowed_them(client, table, gm):
    client.force_login(gm)
    html = client.get(reverse("dashboard", args=[table.campaign.pk])).content.decode()
    assert "real-dice-on" not in html
    response = npc_roll(client, table, real_dice="1", real_face=["3", "5"])
    assert response.status_code == 403
    assert not Roll.objects.exists()


@NPC_GM_ONLY
@pytest.mark.parametrize(
    ("faces", "says"),
    [
        (["3"], "Die 2 (d6) is missing"),
        (["3", "7"], "Die 2 (d6) shows 1 to 6"),
        (["3", "5", "2"], "3 dice were typed, but this test rolls 2"),
        (["x", "5"], "Die 1 (d10) shows 1 to 10"),
    ],
)
def test_npc_faces_that_do_not_fit_the_test_are_refused_naming_the_die(
    client, table, gm, faces, says
):
    client.force_login(gm)
    response = npc_roll(client, table, real_dice="1", real_face=faces)
    assert response.status_code == 409
    assert says in response.content.decode()
    assert not Roll.objects.exists()


# --- a test the GM called for -----------------------------------------------------------------


def called_roll(client, table, gm, player, *faces):
    """The GM calls BUDOWA + WALKA on the hero; its player rolls it with these real dice."""
    from rolls.pending import actions as pending

    called = pending.call_test(
        session=table.session, character=table.hero, gm=gm,
        target={"attribute": "BUDOWA", "skill": ["WALKA"]},
    )  # fmt: skip
    client.force_login(player)
    form = {"pending": called.pk, "revision": called.revision, "key": str(uuid.uuid4())}
    faces_typed = {"real_dice": "1", "real_face": [str(face) for face in faces]}
    return called, client.post(panel_url(table.hero, "test_roll"), form | faces_typed)


@EVERYONE
def test_a_called_test_is_rolled_with_the_real_dice_the_player_typed(client, table, gm, player):
    from rolls.models import PendingTest

    called, response = called_roll(client, table, gm, player, 4, 2)
    assert response.status_code == 200
    roll = Roll.objects.get()
    assert roll.typed
    assert [die["face"] for die in roll.result["dice"]] == [4, 2]
    assert PendingTest.objects.get(pk=called.pk).roll == roll


@EVERYONE
def test_a_called_tests_faces_that_do_not_fit_are_refused_and_the_test_still_waits(
    client, table, gm, player
):
    from rolls.models import PendingTest

    called, response = called_roll(client, table, gm, player, 4)
    assert response.status_code == 409
    assert "Die 2 (d6) is missing" in response.content.decode()
    assert not Roll.objects.exists()
    assert PendingTest.objects.get(pk=called.pk).status == PendingTest.Status.OPEN
