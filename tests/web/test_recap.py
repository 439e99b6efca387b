"""The night's recap (issue 41 item 2): each person's rolls, tests and luck against the exact odds
each test had, checked against figures worked out by hand over a scripted session; what a
reader's recap counts (never another's secret or hidden roll, nor a whisper); the refusals; the
Markdown export; and the recap the Discord bridge posts when the session ends."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import uuid
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.sessions import end_session
from rolls import actions
from rolls.chat.actions import say
from rolls.conditions import actions as conditions
from rolls.conditions import in_force
from rolls.engine import dice as quick
from rolls.log import reading
from rolls.log.reading import entries_for
from rolls.models import Visibility
from rolls.recap import luck, markdown, running
from rolls.strikes.actions import strike
from tests.web.dice import Scripted
from tests.web.long_log import long_log, mixed_log
from tests.web.test_opposed import FASTTEST_SHEET, fasttest_duel, roll_side

pytestmark = [pytest.mark.django_db, pytest.mark.table("fasttest", title="Noc pierwsza")]


def fasttest_params(chance: int) -> dict:
    """A FastTest test of one d10 and one d6 (no bonus or penalty dice) whose chance is
    ``chance``: attribute + skill, success on a d10 at or under it."""
    return {"attribute": chance - 1, "skills": [1], "bonus": 0, "penalty": 0}


def rolled_test(table, actor, chance, d10, d6, visibility=Visibility.PUBLIC, **extra):
    """``actor`` rolls a FastTest test of ``chance`` through the server's one path for a roll
    (``record_roll``), the d10 and the d6 showing these faces."""
    roll, _ = actions.record_roll(
        actions.RollSpec(
            session=table.session, actor=actor, system="fasttest", params=fasttest_params(chance),
            key=uuid.uuid4(), label="BUDOWA", visibility=visibility, **extra,
        ),
        rng=Scripted(d10, d6),
    )  # fmt: skip
    return roll


def quick_dice(table, actor, *faces, visibility=Visibility.PUBLIC):
    roll, _ = actions.record_roll(
        actions.RollSpec(
            session=table.session, actor=actor, system="fasttest", engine=quick,
            params={"expression": f"{len(faces)}d6"}, key=uuid.uuid4(), label="dice",
            kind=quick.QUICK_KIND, visibility=visibility,
        ),
        rng=Scripted(*faces),
    )  # fmt: skip
    return roll


def recap_url(table, name="session_recap", session=None):
    return reverse(name, args=[table.campaign.pk, (session or table.session).pk])


def recap_of(client, user, table):
    client.force_login(user)
    response = client.get(recap_url(table))
    assert response.status_code == 200
    return {person.name: person for person, _chart in response.context["people"]}


# --- The odds, worked out by hand ---------------------------------------------------------------
# One d10 against chance c (p = c/10 to succeed, q = 1 - p to fail) and one d6: 6 the "...and",
# 4-5 the plain, 1-3 the "...but" degree (RULES.md). So, worst to best:
# no_and q/6, no q/3, no_but q/2, yes_but p/2, yes p/3, yes_and p/6.


def hand_odds(chance: int) -> dict[str, Fraction]:
    p = Fraction(chance, 10)
    q = 1 - p
    return {"no_and": q / 6, "no": q / 3, "no_but": q / 2, "yes_but": p / 2, "yes": p / 3,
            "yes_and": p / 6}  # fmt: skip


def test_the_hand_odds_are_what_the_engines_command_line_answers():
    requests = [
        json.dumps({"system": "fasttest", "op": "odds", "params": fasttest_params(chance)})
        for chance in (2, 6, 8)
    ]
    answered = subprocess.run(
        [sys.executable, "-m", "rolls.engine"],
        input="\n".join(requests) + "\n", capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    for chance, line in zip((2, 6, 8), answered, strict=True):
        odds = json.loads(line)["odds"]
        assert odds == pytest.approx({k: float(v) for k, v in hand_odds(chance).items()})


# The scripted night of the player (chance, d10, d6 -> outcome), and its figures by hand:
#  #1 chance 6, d10 3, d6 6 -> yes_and: P(success) 6/10, percentile q + p(1/2 + 1/3 + 1/12)
#  #2 chance 2, d10 2, d6 4 -> yes:     P(success) 2/10, percentile q + p/2 + p/6
#  #3 chance 8, d10 9, d6 1 -> no_but:  P(success) 8/10, percentile q/6 + q/3 + q/4
#  #4 chance 6, d10 10, d6 6 -> no_and: P(success) 6/10, percentile q/12
SCRIPT = ((6, 3, 6), (2, 2, 4), (8, 9, 1), (6, 10, 6))
P = [Fraction(6, 10), Fraction(2, 10), Fraction(8, 10), Fraction(6, 10)]
PERCENTILES = [
    Fraction(4, 10) + Fraction(6, 10) * (Fraction(1, 2) + Fraction(1, 3) + Fraction(1, 12)),
    Fraction(8, 10) + Fraction(2, 10) / 2 + Fraction(2, 10) / 6,
    Fraction(2, 10) / 6 + Fraction(2, 10) / 3 + Fraction(2, 10) / 4,
    Fraction(4, 10) / 12,
]


@pytest.fixture
def night(table, player):
    """The player's scripted night: four tests, nothing else."""
    return [rolled_test(table, player, *test) for test in SCRIPT]


def test_the_recaps_figures_are_those_worked_out_by_hand(client, table, player, night):
    ala = recap_of(client, player, table)[player.get_username()]
    assert (len(ala.tests), ala.successes, ala.failures) == (4, 2, 2)
    assert [test.outcome for test in ala.tests] == ["yes_and", "yes", "no_but", "no_and"]
    assert ala.expected == pytest.approx(float(sum(P)))  # 2.2
    assert ala.surplus == pytest.approx(2 - float(sum(P)))
    assert ala.percentile == pytest.approx(float(sum(PERCENTILES) / 4))
    assert ala.beat_odds == 2  # 0.95 and 0.93 beat the middle; 0.15 and 0.03 do not
    assert (ala.criticals, ala.catastrophes) == (1, 1)


def test_the_least_likely_success_and_failure_are_named_with_their_odds(
    client, table, player, night
):
    ala = recap_of(client, player, table)[player.get_username()]
    assert (ala.least_likely_success.seq, ala.least_likely_success.p_success) == (
        night[1].seq, pytest.approx(0.2))  # fmt: skip
    assert (ala.least_likely_failure.seq, ala.least_likely_failure.p_failure) == (
        night[2].seq, pytest.approx(0.2))  # fmt: skip


def test_the_page_shows_the_figures_and_links_the_least_likely_entries(
    client, table, player, night
):
    client.force_login(player)
    html = client.get(recap_url(table)).content.decode()
    assert '<span data-figure="expected">2.2</span>' in html
    luck_shown = round(100 * float(sum(PERCENTILES) / 4))
    assert f'<span data-figure="luck" class="lucky">{luck_shown} %</span>' in html
    assert f'#roll-{table.session.pk}-{night[1].seq}" data-figure="least-success">' in html
    assert "a 20 % chance of success" in html
    assert "a 20 % chance of failure" in html


def test_the_luck_chart_runs_from_zero_through_each_tests_surplus(client, table, player, night):
    client.force_login(player)
    response = client.get(recap_url(table))
    [(_person, chart)] = response.context["people"]
    html = response.content.decode()
    assert f'viewBox="0 0 {luck.CHART_WIDTH} {luck.CHART_HEIGHT}"' in html
    assert f'<polyline class="luck" points="{chart.points}"' in html
    running = [0.0]
    for success, p in zip((1, 1, 0, 0), P, strict=True):
        running.append(running[-1] + success - float(p))
    ys = [float(point.split(",")[1]) for point in chart.points.split()]
    middle = luck.CHART_HEIGHT / 2
    assert len(ys) == 5
    assert ys == pytest.approx([middle - middle * value / chart.top for value in running], abs=0.01)
    assert chart.top == pytest.approx(max(1.0, *map(abs, running)), abs=0.01)


# --- What counts ------------------------------------------------------------------------------


def test_quick_dice_and_a_follow_up_count_as_rolls_not_tests(client, table, player, night):
    quick_dice(table, player, 2, 5)
    rolled_test(table, player, 2, 1, 6, kind="reroll", parent=night[0])  # a re-roll: not a test
    ala = recap_of(client, player, table)[player.get_username()]
    assert (ala.rolls, len(ala.tests)) == (6, 4)
    assert ala.least_likely_success.seq == night[1].seq  # the re-roll's 10 % is no test's


def test_a_struck_test_leaves_the_luck_and_is_listed_as_struck(client, table, player, gm, night):
    unlikely = rolled_test(table, player, 1, 1, 5)  # a 10 % success
    strike(campaign=table.campaign, gm=gm, roll_id=unlikely.pk, reason="zły rzut",
           key=uuid.uuid4())  # fmt: skip
    client.force_login(player)
    response = client.get(recap_url(table))
    ala = {p.name: p for p, _c in response.context["people"]}[player.get_username()]
    assert (len(ala.tests), ala.struck) == (4, 1)
    assert ala.least_likely_success.seq == night[1].seq
    assert [entry["seq"] for entry in response.context["struck"]] == [unlikely.seq]
    assert "zły rzut" in response.content.decode()


def test_a_players_recap_never_counts_anothers_secret_or_hidden_roll_nor_a_whisper(
    client, table, player, other_player, gm, night
):
    before = recap_of(client, player, table)
    rolled_test(table, other_player, 9, 1, 6, visibility=Visibility.SECRET)
    rolled_test(table, gm, 9, 1, 6, visibility=Visibility.HIDDEN)
    say(campaign=table.campaign, actor=other_player, text="[[1d6]]", key=uuid.uuid4(),
        visibility=Visibility.WHISPER, recipient=gm, inline=["1d6"])  # fmt: skip
    after = recap_of(client, player, table)
    assert after.keys() == before.keys() == {player.get_username()}
    assert after[player.get_username()] == before[player.get_username()]


def test_a_player_sees_their_own_secret_test_counted(client, table, player, night):
    rolled_test(table, player, 9, 1, 6, visibility=Visibility.SECRET)
    assert len(recap_of(client, player, table)[player.get_username()].tests) == 5


def test_the_gms_recap_counts_everything(client, table, player, other_player, gm, night):
    rolled_test(table, other_player, 9, 1, 6, visibility=Visibility.SECRET)
    rolled_test(table, gm, 9, 10, 1, visibility=Visibility.HIDDEN)
    say(campaign=table.campaign, actor=other_player, text="[[1d6]]", key=uuid.uuid4(),
        visibility=Visibility.WHISPER, recipient=gm, inline=["1d6"])  # fmt: skip
    everyone = recap_of(client, gm, table)
    assert (everyone[other_player.get_username()].rolls,
            len(everyone[other_player.get_username()].tests)) == (2, 1)  # fmt: skip
    assert everyone[gm.get_username()].failures == 1
    assert len(everyone[player.get_username()].tests) == 4


def test_a_condition_that_came_and_went_is_listed(make_table, client, gm):
    table = make_table("t10", characters=[("Astrid", {})], players=1)
    rules = table.campaign.rules
    condition = conditions.add_condition(
        character=table.hero, actor=gm, spec=in_force.preset_spec(rules, "knocked_down")
    )
    conditions.clear_condition(condition_id=condition.pk, actor=gm)
    client.force_login(gm)
    listed = client.get(recap_url(table)).context["conditions"]
    assert [entry["kind"] for entry in listed] == ["condition", "condition_cleared"]


UNHURT = FASTTEST_SHEET | {"wounds": []}  # no penalty dice: each side rolls one d10, one d6


@pytest.mark.table("fasttest", characters=[("Ala", UNHURT), ("Bartek", UNHURT)])
def test_an_opposed_test_is_listed_and_each_sides_roll_is_its_rollers_test(
    client, gm, player, other_player, table, dice
):
    opposed = fasttest_duel(client, gm, table)
    dice(3, 4)  # both "yes" at the same chance: the higher d10, Bartek's 5, wins
    roll_side(client, player, opposed.initiator)
    dice(5, 5)
    roll_side(client, other_player, opposed.opponent)
    client.force_login(player)
    response = client.get(recap_url(table))
    tests = {person.name: len(person.tests) for person, _chart in response.context["people"]}
    assert tests == {player.get_username(): 1, other_player.get_username(): 1}
    [listed] = response.context["opposed"]
    assert markdown.event_line(listed) == (
        "#3 gm: Opposed test (#1 against #2): Bartek beats Ala by 0 — minor victory"
    )


def test_a_group_tests_result_is_listed_and_measured_as_no_ones_test():
    result = {
        "seq": 7, "kind": "group", "redacted": False, "note": False, "parent_seq": None,
        "system": "caerbannog", "outcome": "success", "params": {}, "struck": None,
    }  # fmt: skip
    hidden = {"seq": 8, "redacted": True}
    assert luck.measured(result) is None
    assert luck.listed([result, hidden])["group"] == [result]


def test_a_session_without_rolls_says_nobody_has_rolled(client, table, player):
    client.force_login(player)
    assert "Nobody has rolled yet." in client.get(recap_url(table)).content.decode()


# --- Refusals ---------------------------------------------------------------------------------
# Who gets which status from the recap, its part and its export (an outsider, another table's
# session, someone logged out, a POST) is in the one access matrix, tests/web/test_access.py.


# --- Live, links and the export ----------------------------------------------------------------


def test_a_running_sessions_recap_follows_the_table_and_an_ended_ones_does_not(
    client, table, player
):
    client.force_login(player)
    html = client.get(recap_url(table)).content.decode()
    assert 'hx-trigger="table:entry from:body' in html
    assert f'data-session="{table.session.pk}" data-last-seq="0"' in html
    end_session(table.session)
    html = client.get(recap_url(table)).content.decode()
    assert "table:entry" not in html
    assert "data-table-events" not in html


def test_the_live_part_is_the_recap_alone(client, table, player, night):
    client.force_login(player)
    part = client.get(recap_url(table, "session_recap_part")).content.decode()
    assert part.lstrip().startswith('<div id="recap"')
    assert '<td data-figure="tests">4</td>' in part


def test_a_refresh_costs_the_same_queries_after_four_entries_or_eight(client, table, player, night):
    client.force_login(player)
    url = recap_url(table, "session_recap_part")
    with CaptureQueriesContext(connection) as four:
        client.get(url)
    for test in SCRIPT:
        rolled_test(table, player, *test)
    with CaptureQueriesContext(connection) as eight:
        assert '<td data-figure="tests">8</td>' in client.get(url).content.decode()
    assert len(eight) == len(four)


def test_the_recap_is_linked_from_the_session_and_the_list_of_sessions(client, table, player):
    client.force_login(player)
    url = recap_url(table)
    session_page = reverse("session_detail", args=[table.campaign.pk, table.session.pk])
    assert f'href="{url}"' in client.get(session_page).content.decode()
    sessions = reverse("campaign_detail", args=[table.campaign.pk])
    assert f'href="{url}"' in client.get(sessions).content.decode()


def test_the_export_is_a_markdown_download_of_what_the_reader_may_see(
    client, table, player, other_player, night
):
    rolled_test(table, other_player, 9, 1, 6, visibility=Visibility.SECRET)
    client.force_login(player)
    response = client.get(recap_url(table, "session_recap_export"))
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment; filename=")
    text = response.content.decode()
    assert f"## {player.get_username()}" in text
    assert "4 rolls, 4 tests: 2 successes, 2 failures" in text
    assert f"Least likely success: #{night[1].seq}, a 20 % chance of success." in text
    assert other_player.get_username() not in text


def test_a_rare_chance_keeps_a_decimal():
    from rolls.recap.markdown import percent

    assert (percent(0.004), percent(0.2), percent(0.0)) == ("0.4 %", "20 %", "0 %")


# --- The figures kept per reader (issue 42: a recap costs what is new, not the night) ----------
# Each reader's figures are kept after the last entry counted (rolls.recap.running); a request
# folds in the entries that came since. Every test here checks the kept figures against the
# same recap counted afresh, from every entry the reader may see.


def afresh(table, user) -> str:
    """The reader's live part with no figures kept: counted from the session's first entry."""
    running.forget()
    return part_of(table, user)


def part_of(table, user) -> str:
    return table.client(user).get(recap_url(table, "session_recap_part")).content.decode()


def an_evening(table, count: int) -> None:
    """The session filled up to ``count`` entries of every visibility and kind, by both players
    and the GM (tests/web/long_log.py)."""
    players = [(table.players[0], table.hero), (table.players[1], None)]
    mixed_log(table.session, table.gm, players, count)


def test_the_running_sum_is_pythons_sum_to_the_last_bit():
    draw = random.Random(42)
    chances = [draw.random() / draw.choice((1, 7, 1e6)) for _ in range(5000)]
    kept = luck.RunningSum()
    for chance in chances:
        kept.add(chance)
    assert kept.value == sum(chances)


def test_the_kept_figures_after_new_entries_are_those_counted_afresh_for_every_reader(
    table, gm, player, other_player
):
    an_evening(table, 60)
    readers = (gm, player, other_player)
    for reader in readers:
        part_of(table, reader)  # kept
    an_evening(table, 180)
    rolled_test(table, other_player, 9, 1, 6, visibility=Visibility.SECRET)
    rolled_test(table, gm, 9, 10, 1, visibility=Visibility.HIDDEN)
    say(campaign=table.campaign, actor=player, text="[[1d6]]", key=uuid.uuid4(),
        visibility=Visibility.WHISPER, recipient=other_player, inline=["1d6"])  # fmt: skip
    kept = {reader.pk: part_of(table, reader) for reader in readers}
    assert kept == {reader.pk: afresh(table, reader) for reader in readers}
    assert len(set(kept.values())) == 3  # three readers, three recaps


def test_the_kept_figures_are_what_the_readers_entries_count(table, gm, player, other_player):
    an_evening(table, 40)
    for reader, is_gm in ((gm, True), (player, False), (other_player, False)):
        running.recap_for(table.session, reader.pk, is_gm)
        an_evening(table, table.session.last_seq + 30)
        kept = running.recap_for(table.session, reader.pk, is_gm)
        entries = entries_for(table.session, reader, is_gm, newest_first=False)
        assert list(kept.people) == luck.people(entries)
        assert kept.hidden == sum(entry["redacted"] for entry in entries)
        assert {key: list(found) for key, found in kept.listed.items()} == luck.listed(entries)


def test_a_strike_of_an_entry_counted_already_is_counted(client, table, player, gm, night):
    unlikely = rolled_test(table, player, 1, 1, 5)  # a 10 % success
    assert "a 10 % chance of success" in part_of(table, player)
    strike(campaign=table.campaign, gm=gm, roll_id=unlikely.pk, reason="zły rzut",
           key=uuid.uuid4())  # fmt: skip
    kept = part_of(table, player)
    assert "a 10 % chance of success" not in kept
    assert "1 test struck by the GM" in kept
    assert kept == afresh(table, player)


def test_a_strike_counted_is_not_counted_again_at_each_refresh(
    table, player, gm, night, monkeypatch
):
    strike(campaign=table.campaign, gm=gm, roll_id=night[0].pk, reason="zły rzut",
           key=uuid.uuid4())  # fmt: skip
    part_of(table, player)  # the strike the last entry counted
    read = []
    payload = reading.roll_payload
    monkeypatch.setattr(reading, "roll_payload", lambda roll: read.append(roll) or payload(roll))
    assert "1 test struck by the GM" in part_of(table, player)
    assert read == []


def test_a_lifted_seal_has_the_sealed_roll_counted(table, gm, player, other_player, night):
    sealed = rolled_test(table, other_player, 9, 1, 6, sealed_for=(other_player.pk,))
    assert "1 roll you cannot see is not counted" in part_of(table, player)
    actions.reveal([sealed])
    kept = part_of(table, player)
    assert "you cannot see" not in kept
    assert f'">{other_player.get_username()}</a></th>' in kept  # a row at a glance
    assert kept == afresh(table, player)


def test_two_players_never_share_their_figures(table, player, other_player, night):
    rolled_test(table, other_player, 9, 1, 6, visibility=Visibility.SECRET)
    assert other_player.get_username() in part_of(table, other_player)
    assert other_player.get_username() not in part_of(table, player)
    rolled_test(table, player, 9, 1, 6, visibility=Visibility.SECRET)
    assert '<td data-figure="tests">5</td>' in part_of(table, player)
    assert other_player.get_username() not in part_of(table, player)
    assert '<td data-figure="tests">5</td>' not in part_of(table, other_player)


@pytest.mark.parametrize("whose", ["gm", "player"])
def test_a_refresh_reads_the_new_entries_alone_in_the_same_queries_at_20_or_2000(
    table, whose, monkeypatch
):
    reader = table.gm if whose == "gm" else table.players[0]
    read = []
    payload = reading.roll_payload
    monkeypatch.setattr(reading, "roll_payload", lambda roll: read.append(roll) or payload(roll))
    queries = {}
    for count in (20, 2000):
        long_log(table.session, table.players[0], table.gm, count, character=table.hero)
        part_of(table, reader)
        rolled_test(table, table.players[0], 6, 3, 6)
        read.clear()
        with CaptureQueriesContext(connection) as asked:
            assert "Nobody has rolled yet." not in part_of(table, reader)
        queries[count] = len(asked)
        assert len(read) == 1  # the new test alone
    assert queries[20] == queries[2000]


def test_a_long_nights_line_draws_at_most_the_charts_points(table, gm, player):
    long_log(table.session, player, gm, 4 * luck.CHART_POINTS, character=table.hero)
    response = table.client(gm).get(recap_url(table))
    ala = {p.name: (p, c) for p, c in response.context["people"]}[player.get_username()]
    person, chart = ala
    points = chart.points.split()
    assert len(person.tests) > 2 * luck.CHART_POINTS
    assert len(points) == luck.CHART_POINTS
    assert (points[0].split(",")[0], points[-1].split(",")[0]) == ("0.0", f"{luck.CHART_WIDTH}.0")
    last_y = luck.CHART_HEIGHT / 2 * (1 - person.surplus / chart.top)
    assert float(points[-1].split(",")[1]) == pytest.approx(last_y, abs=0.01)


def test_a_line_of_fewer_tests_than_the_charts_points_draws_every_test():
    tally = luck.Tally(1, "ala")
    for seq in range(luck.CHART_POINTS - 1):
        tally.add(luck.Test(seq, "yes", True, 0.5, 0.6, False, False, False))
    assert [place for place, _value in tally.line()] == list(range(luck.CHART_POINTS))


def test_the_kept_figures_are_bounded_the_least_recently_read_dropped(
    table, player, other_player, monkeypatch
):
    monkeypatch.setattr(running, "SLOTS", 2)
    running.forget()
    for reader in (player, other_player, table.gm):
        part_of(table, reader)
    assert [key[-1] for key in running._kept] == [other_player.pk, "gm"]


def test_a_strike_of_an_entry_not_counted_yet_is_counted_struck(table, player, gm, night):
    part_of(table, player)
    unlikely = rolled_test(table, player, 1, 1, 5)
    strike(campaign=table.campaign, gm=gm, roll_id=unlikely.pk, reason="zły rzut",
           key=uuid.uuid4())  # fmt: skip
    kept = part_of(table, player)
    assert "1 test struck by the GM" in kept
    assert kept == afresh(table, player)
