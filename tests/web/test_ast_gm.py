"""AST at the GM's card (RULES.md 2): the GM's temporary hindrances on a called test, the
player's temporary advantages, cancelling one for one with exact odds; and, when the test is
hindered, the GM's choice of the white die read, from the card of the rolled test."""

import uuid

import pytest
from django.urls import reverse

from rolls.engine import ast as engine
from rolls.engine.core import SUCCESSES
from rolls.models import PendingTest, Roll
from rolls.pending import actions as pending
from rolls.templatetags.roll_log import percent
from tests.web.live import panel_url
from tests.web.test_panel_ast import FIVE, SHEET, TIRED, TIRED_AND_WOUNDED, ticked
from tests.web.test_panel_fasttest import SHEET as FASTTEST_SHEET
from tests.web.words_helpers import in_words

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table("ast", name="Sagi Północy", characters=[("Olaf", SHEET)]),
]

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def dice(dice):
    """One scripted source for the rolls that follow (the black die first, then the white)."""
    return dice.queue()


@pytest.fixture
def called(table):
    """A test the GM called on Olaf, still open."""
    return pending.call_test(session=table.session, character=table.hero, gm=table.gm, target={})


def gm_client(table):
    return table.client(table.gm)


def player_client(table):
    return table.client(table.players[0])


def change(client, test, **form):
    url = reverse("change_test", args=[test.session.campaign_id, test.pk])
    return client.post(url, form, **HTMX)


def add_hindrance(client, test, amount, source):
    return change(client, test, op="add_dice", kind="hindrance", amount=amount, source=source)


def panel_for(client, hero, form):
    return client.post(panel_url(hero), form).context["panel"]


def called_panel(client, test, form):
    test.refresh_from_db()
    return panel_for(client, test.character, {**form, "pending": test.pk})


def roll_called(client, test, form):
    test.refresh_from_db()
    data = {**form, "pending": test.pk, "revision": test.revision, "key": str(uuid.uuid4())}
    return client.post(panel_url(test.character, "test_roll"), data)


def gm_reads(client, test, choice, key=None):
    url = reverse("follow_rolled_test", args=[test.session.campaign_id, test.pk, "gm_choose"])
    return client.post(url, {"choice": choice, "key": key or str(uuid.uuid4())}, **HTMX)


def card_html(client, table):
    return client.get(reverse("dashboard_pending", args=[table.campaign.pk])).content.decode()


def success(white, level_mod):
    odds = engine.odds(engine.Params(white, level_mod))["odds"]
    return sum(odds[key] for key in SUCCESSES)


# --- the player's temporary advantages ---------------------------------------------------------


def test_each_temporary_advantage_is_one_white_die_with_the_source_the_player_names(table):
    client = player_client(table)
    named = panel_for(client, table.hero, {**FIVE, "advantage": "2", "advantage_source": " skała "})
    unnamed = panel_for(client, table.hero, {**FIVE, "advantage": "1"})
    assert named.params == {"white": 7, "level_mod": 0}
    assert {"kind": "advantage", "amount": 2, "source": "skała"} in named.sources
    assert unnamed.params == {"white": 6, "level_mod": 0}
    assert {"kind": "advantage", "amount": 1, "source": "temporary advantages"} in in_words(
        unnamed.sources
    )


def test_a_temporary_advantage_and_hindrance_cancel_one_for_one_with_exact_odds(table):
    client = player_client(table)
    form = {**FIVE, "advantage": "3", "hindrance": "1", "hindrance_source": "ciemność"}
    panel = panel_for(client, table.hero, form)
    assert panel.params == {"white": 7, "level_mod": 0}
    assert {"kind": "cancelled", "amount": 1, "source": (
        "a temporary advantage and a temporary hindrance cancel one for one"
    )} in in_words(panel.sources)  # fmt: skip
    assert panel.success == pytest.approx(success(7, 0))


def test_hindrances_beyond_the_advantages_stay_on_the_test_level(table):
    client = player_client(table)
    panel = panel_for(client, table.hero, {**FIVE, "advantage": "1", "hindrance": "3"})
    assert panel.params == {"white": 5, "level_mod": 2}
    assert (panel.sources[-1]["kind"], panel.sources[-1]["amount"]) == ("cancelled", 1)
    assert panel.success == pytest.approx(success(5, 2))


def test_negative_states_of_the_sheet_do_not_cancel_a_temporary_advantage(table):
    client = player_client(table)
    panel = panel_for(client, table.hero, {**TIRED, "advantage": "1"})
    assert panel.params == {"white": 6, "level_mod": 1}
    assert all(source["kind"] != "cancelled" for source in panel.sources)


def test_advantages_that_cancel_every_white_die_roll_two_hindered(table):
    client = player_client(table)
    panel = panel_for(client, table.hero, {"advantage": "2", "hindrance": "2"})
    assert panel.params == {"white": 0, "level_mod": 0}
    assert panel.context["rolled_white"] == 2
    assert panel.success == pytest.approx(success(0, 0))


@pytest.mark.parametrize("typed", ["21", "-1", "dwa", "1.5"])
def test_temporary_advantages_that_are_no_whole_number_from_0_to_20_are_refused(table, typed):
    client = player_client(table)
    response = client.post(panel_url(table.hero), {**FIVE, "advantage": typed})
    assert not response.context["panel"].ready
    assert "Temporary advantages must be a whole number from 0 to 20." in response.content.decode()


def test_the_panel_shows_the_advantage_fields_with_what_the_player_typed(table):
    client = player_client(table)
    form = {**FIVE, "advantage": "2", "advantage_source": "skała"}
    html = client.post(panel_url(table.hero), form).content.decode()
    assert 'id="ast-advantage" name="advantage"' in html
    assert 'value="skała"' in html
    assert "+2 temporary advantages (white dice): skała" in html


# --- the GM's temporary hindrances on a called test --------------------------------------------


def test_the_gm_adds_a_temporary_hindrance_to_a_called_test_from_the_card(table, called):
    response = add_hindrance(gm_client(table), called, "2", "ciemność")
    called.refresh_from_db()
    assert response.status_code == 200
    assert called.modifiers["dice"] == [{"kind": "hindrance", "amount": 2, "source": "ciemność"}]
    assert called.revision == 2
    panel = called_panel(player_client(table), called, FIVE)
    assert panel.params == {"white": 5, "level_mod": 2}
    assert {"kind": "hindrance", "amount": 2, "source": "ciemność"} in panel.sources


def test_several_hindrances_each_keep_their_source_and_the_gm_removes_one(table, called):
    client = gm_client(table)
    add_hindrance(client, called, "1", "ciemność")
    add_hindrance(client, called, "2", "śliskie skały")
    change(client, called, op="remove_dice", index="0")
    panel = called_panel(player_client(table), called, FIVE)
    assert panel.params == {"white": 5, "level_mod": 2}
    assert [s["source"] for s in panel.sources if s["kind"] == "hindrance"] == ["śliskie skały"]


@pytest.mark.parametrize("amount", ["0", "21", "-1", "x", ""])
def test_a_hindrance_outside_1_to_20_is_refused_on_the_card_in_the_rules_words(
    table, called, amount
):
    html = add_hindrance(gm_client(table), called, amount, "ciemność").content.decode()
    called.refresh_from_db()
    assert "A temporary hindrance raises the test level by 1 to 20." in html
    assert called.modifiers == {}
    assert called.revision == 1


def test_a_hindrance_without_a_source_is_refused(table, called):
    html = add_hindrance(gm_client(table), called, "1", " ").content.decode()
    called.refresh_from_db()
    assert "Say where the modifier comes from (e.g. darkness)." in html
    assert called.modifiers == {}


def test_the_player_cannot_type_hindrances_of_their_own_on_a_called_test(table, called):
    add_hindrance(gm_client(table), called, "1", "ciemność")
    forged = {**FIVE, "hindrance": "9", "hindrance_source": "sam sobie"}
    panel = called_panel(player_client(table), called, forged)
    assert panel.params == {"white": 5, "level_mod": 1}


def test_a_player_cannot_add_a_hindrance_to_the_gms_card(table, called):
    response = add_hindrance(player_client(table), called, "1", "ciemność")
    called.refresh_from_db()
    assert response.status_code in (403, 404)
    assert called.modifiers == {}


def test_a_temporary_hindrance_is_no_setting_of_another_system(make_table, gm):
    other = make_table("fasttest", name="Inny stół")
    test = pending.call_test(
        session=other.session, character=other.hero, gm=gm, target={"attribute": "SIŁA"}
    )
    html = add_hindrance(other.client(gm), test, "1", "ciemność").content.decode()
    test.refresh_from_db()
    assert "Tests of this system have no such setting." in html
    assert test.modifiers.get("dice", []) == []


def test_the_players_advantages_cancel_the_gms_hindrances_and_the_card_shows_the_same_odds(
    table, called
):
    gm = gm_client(table)
    add_hindrance(gm, called, "2", "ciemność")
    player = player_client(table)
    choices = {**FIVE, "advantage": "1", "advantage_source": "skała"}
    panel = called_panel(player, called, choices)  # also the draft the GM's card reads
    assert panel.params == {"white": 5, "level_mod": 1}
    assert [s["kind"] for s in panel.sources] == ["white", "advantage", "hindrance", "cancelled"]
    html = card_html(gm, table)
    assert "+2 temporary hindrances (test level): ciemność" in html
    assert "+1 temporary advantage (white die): skała" in html
    assert "1 advantage and hindrance cancelled: a temporary advantage and a temporary" in html
    assert f'<p class="pending-odds"><b>{percent(success(5, 1))}</b>' in html


def test_the_card_offers_the_temporary_hindrance_with_its_range(table, called):
    html = card_html(gm_client(table), table)
    assert 'name="kind" value="hindrance"' in html
    assert "Temporary hindrance: + test level" in html
    assert 'min="1" max="20"' in html


def test_the_called_test_logs_the_hindrance_the_advantage_and_what_cancelled(table, called, dice):
    add_hindrance(gm_client(table), called, "2", "ciemność")
    dice.faces = [4, 3, 3, 6, 4, 1, 2]
    player = player_client(table)
    response = roll_called(player, called, {**FIVE, "advantage": "1", "advantage_source": "skała"})
    stored = Roll.objects.get()
    assert response.status_code == 200
    assert stored.params == {"white": 5, "level_mod": 1}
    assert [(s["kind"], s["amount"]) for s in stored.sources] == [
        ("white", 5), ("advantage", 1), ("hindrance", 2), ("cancelled", 1),
    ]  # fmt: skip
    # Five white dice against black 4 + 1: even, the black 4 is read.
    assert (stored.result["answer"]["mode"], stored.result["answer"]["outcome"]) == (
        "even", "yes",
    )  # fmt: skip
    log = player.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert "+2 temporary hindrances (test level): ciemność" in log


# --- hindered: the GM chooses the white die read ------------------------------------------------


def rolled_hindered(table, called, dice, faces, form=TIRED_AND_WOUNDED):
    """The player rolls the called test with these faces (black first); its first entry."""
    dice.faces = list(faces)
    assert roll_called(player_client(table), called, form).status_code == 200
    return Roll.objects.get(kind="test")


def test_example_1b_hindered_olaf_reads_the_worst_and_the_gms_card_offers_the_others(
    table, called, dice
):
    first = rolled_hindered(table, called, dice, [4, 3, 3, 6, 4, 1])
    assert (first.result["answer"]["mode"], first.result["answer"]["outcome"]) == (
        "hindered", "no_and",
    )  # fmt: skip
    html = card_html(gm_client(table), table)
    assert "Hindered: you choose the white die read (now 1: Nie, i… (no, and…), the worst)" in html
    # Worst first: the doubled 3, then 4, then 6; the 1 read now is not offered again.
    offered = ['value="0" checked> 3: ', 'value="3"> 4: ', 'value="2"> 6: ']
    positions = [html.index(text) for text in offered]
    assert positions == sorted(positions)
    assert 'value="4">' not in html
    assert "(+1 “and”, +1 FUNT)" in html


def test_example_4_the_gm_reads_the_doubled_5_by_default_or_the_4_instead(table, called, dice):
    form = ticked(equipment=["ostry topór", "skórznia"], attributes=["Ciało: silny"])
    first = rolled_hindered(table, called, dice, [6, 5, 5, 4], form)
    table.hero.refresh_from_db()
    assert (first.result["answer"]["outcome"], first.result["answer"]["extra_and"]) == (
        "no_but", 1,
    )  # fmt: skip
    assert table.hero.data["funt"] == 3  # the doublet's FUNT
    response = gm_reads(gm_client(table), called, "2")
    chosen = Roll.objects.get(kind="gm_choose")
    table.hero.refresh_from_db()
    assert response.status_code == 200
    assert (chosen.parent, chosen.actor, chosen.character) == (first, table.gm, table.hero)
    assert (chosen.faces, chosen.params["choice"]) == (first.faces, 2)
    assert (chosen.result["answer"]["outcome"], chosen.result["answer"]["funt_gained"]) == (
        "yes", 0,
    )  # fmt: skip
    assert table.hero.data["funt"] == 2  # the doublet's FUNT goes with its reading


def test_example_3_the_gm_may_read_the_doubled_6_for_yes_and_a_funt(table, called, dice):
    # Example 3: white 2,2,6,4,6, black 4, +2: hindered, the worst is the doubled 2.
    form = ticked(
        attributes=["Ciało: silny", "Umysł: sprytny"],
        advantages=["walka toporem"],
        equipment=["ostry topór", "skórznia"],
        negative_states=["zmęczony", "ranny"],
    )
    first = rolled_hindered(table, called, dice, [4, 2, 2, 6, 4, 6], form)
    answer = first.result["answer"]
    assert (answer["mode"], answer["outcome"], answer["extra_and"]) == ("hindered", "yes_but", 1)
    gm_reads(gm_client(table), called, "2")
    chosen = Roll.objects.get(kind="gm_choose").result["answer"]
    table.hero.refresh_from_db()
    assert (chosen["outcome"], chosen["extra_and"], chosen["funt_gained"]) == ("yes_and", 1, 1)
    assert table.hero.data["funt"] == 3  # one FUNT for the test's one used multiple


def test_the_gms_reading_is_logged_for_the_player_and_shown_on_the_card(table, called, dice):
    first = rolled_hindered(table, called, dice, [4, 3, 3, 6, 4, 1])
    gm = gm_client(table)
    html = gm_reads(gm, called, "2").content.decode()
    chosen = Roll.objects.get(kind="gm_choose")
    assert f'data-latest-seq="{chosen.seq}"' in html
    assert "Tak, i… (yes, and…)" in html
    log = player_client(table).get(reverse("session_log", args=[table.campaign.pk]))
    text = log.content.decode()
    assert f"white die chosen by the GM → #{first.seq}" in text
    # Settled: nothing more is offered on the card.
    assert 'name="choice"' not in html


@pytest.mark.parametrize("forged", ["5", "4", "9", "x", "", "-1"])
def test_a_die_not_offered_is_refused_and_nothing_is_logged(table, called, dice, forged):
    rolled_hindered(table, called, dice, [4, 3, 3, 6, 4, 1])
    html = gm_reads(gm_client(table), called, forged).content.decode()
    assert "Choose one of the white dice offered." in html
    assert Roll.objects.count() == 1


def test_the_gm_reads_another_die_only_once_and_the_player_can_no_longer_re_roll(
    table, called, dice
):
    first = rolled_hindered(table, called, dice, [4, 3, 3, 6, 4, 1])
    gm = gm_client(table)
    gm_reads(gm, called, "2")
    again = gm_reads(gm, called, "0").content.decode()
    assert "That can no longer be done with this roll." in again
    url = reverse("test_follow_up", args=[table.campaign.pk, table.hero.pk, first.pk, "reroll"])
    reroll = player_client(table).post(url, {"die": ["4"], "key": str(uuid.uuid4())})
    assert reroll.status_code == 409
    assert Roll.objects.count() == 2


def test_a_double_submitted_reading_is_logged_once(table, called, dice):
    rolled_hindered(table, called, dice, [4, 3, 3, 6, 4, 1])
    gm, key = gm_client(table), str(uuid.uuid4())
    gm_reads(gm, called, "2", key)
    gm_reads(gm, called, "2", key)
    assert Roll.objects.filter(kind="gm_choose").count() == 1


def test_after_the_players_re_roll_the_gm_reads_a_die_of_the_re_roll(table, called, dice):
    first = rolled_hindered(table, called, dice, [4, 3, 3, 6, 4, 1])
    dice.faces = [5]
    url = reverse("test_follow_up", args=[table.campaign.pk, table.hero.pk, first.pk, "reroll"])
    player_client(table).post(url, {"die": ["4"], "key": str(uuid.uuid4())})
    second = Roll.objects.get(kind="reroll")
    assert second.faces["white"] == [3, 3, 6, 4, 5]
    assert second.result["answer"]["outcome"] == "no"  # the doubled 3, the worst now
    html = card_html(gm_client(table), table)
    assert f'data-latest-seq="{second.seq}"' in html
    gm_reads(gm_client(table), called, "3")
    chosen = Roll.objects.get(kind="gm_choose")
    assert (chosen.parent, chosen.result["answer"]["outcome"]) == (second, "yes")


@pytest.mark.parametrize(
    ("faces", "form"),
    [
        ([4, 3, 3, 6, 4, 1], FIVE),  # eased: the player chooses
        ([4, 3, 3, 6, 4, 1], TIRED),  # even: the black die is read
    ],
)
def test_no_reading_is_offered_to_the_gm_when_the_test_is_eased_or_even(
    table, called, dice, faces, form
):
    rolled_hindered(table, called, dice, faces, form)
    gm = gm_client(table)
    assert 'name="choice"' not in card_html(gm, table)
    refused = gm_reads(gm, called, "2").content.decode()
    assert "That can no longer be done with this roll." in refused
    assert Roll.objects.count() == 1


def test_nothing_is_offered_when_every_white_die_shows_the_same_face(table, called, dice):
    rolled_hindered(table, called, dice, [6, 2, 2], ticked(attributes=["Ciało: silny"]))
    assert 'name="choice"' not in card_html(gm_client(table), table)


def test_the_gm_cannot_read_a_die_of_a_test_not_yet_rolled(table, called):
    html = gm_reads(gm_client(table), called, "0").content.decode()
    assert "This test has not been rolled." in html
    assert not Roll.objects.exists()


def test_a_player_cannot_read_the_gms_die(table, called, dice):
    rolled_hindered(table, called, dice, [4, 3, 3, 6, 4, 1])
    response = gm_reads(player_client(table), called, "2")
    assert response.status_code in (403, 404)
    assert Roll.objects.count() == 1


def test_a_reading_without_a_key_is_refused_as_malformed(table, called, dice):
    rolled_hindered(table, called, dice, [4, 3, 3, 6, 4, 1])
    url = reverse("follow_rolled_test", args=[table.campaign.pk, called.pk, "gm_choose"])
    html = gm_client(table).post(url, {"choice": "2"}, **HTMX).content.decode()
    assert "This request is malformed." in html
    assert Roll.objects.count() == 1


def test_the_pending_test_stays_rolled_with_its_first_entry(table, called, dice):
    first = rolled_hindered(table, called, dice, [4, 3, 3, 6, 4, 1])
    gm_reads(gm_client(table), called, "2")
    called.refresh_from_db()
    assert (called.status, called.roll) == (PendingTest.Status.ROLLED, first)


def test_a_system_without_the_gms_reading_refuses_it_after_a_called_test(make_table, gm):
    other = make_table("fasttest", name="Inny stół", characters=[("Brunhilda", FASTTEST_SHEET)])
    target = {"attribute": "BUDOWA", "skill": ["WALKA"]}
    test = pending.call_test(session=other.session, character=other.hero, gm=gm, target=target)
    data = {"pending": test.pk, "revision": test.revision, "key": str(uuid.uuid4())}
    other.client(other.players[0]).post(panel_url(other.hero, "test_roll"), data)
    test.refresh_from_db()
    assert test.status == PendingTest.Status.ROLLED
    html = gm_reads(other.client(gm), test, "0").content.decode()
    assert "That can no longer be done with this roll." in html
    assert Roll.objects.count() == 1
