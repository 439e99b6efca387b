"""Dice statistics of a session: face counts per die size, the chi-square fit, who may see what."""

from __future__ import annotations

import math
import re
import uuid

import pytest
from django.urls import reverse

from campaigns.models import GameSession
from rolls.engine.registry import system_module
from rolls.log.payload import engine_faces, result_document
from rolls.log.stats import chi_square_sf, upper_regularized_gamma
from rolls.models import Roll

TWOD6 = {"attribute": 4, "skill": 7, "difficulty": 15}
FASTTEST = {"attribute": 5, "skills": [1], "bonus": 1, "penalty": 0}


pytestmark = pytest.mark.table("2d6", title="Noc pierwsza")


def logged(
    session, actor, faces, visibility="public", system="2d6", params=TWOD6, parent=None, drawn=()
):
    """An entry of the log with exactly these faces, as rolls.actions would have stored it
    (``drawn``: the dice it drew from the fair stream; none, as an entry rolled before them)."""
    module = system_module(system)
    parsed = module.parse_params(params)
    document = result_document(module.resolve(parsed, module.parse_faces(parsed, faces)))
    GameSession.objects.filter(pk=session.pk).update(last_seq=session.last_seq + 1)
    session.last_seq += 1
    return Roll.objects.create(
        session=session, seq=session.last_seq, actor=actor, system=system,
        kind="reroll" if parent else "test", parent=parent, visibility=visibility,
        label="test", params=params, faces=engine_faces(system, document["dice"]),
        result=document, idempotency_key=uuid.uuid4(), drawn=[list(die) for die in drawn],
    )  # fmt: skip


def stats_page(client, user, campaign, session, **headers):
    client.force_login(user)
    return client.get(reverse("session_stats", args=[campaign.pk, session.pk]), **headers)


def d6_of(scope):
    return next(die for die in scope.dice if die.sides == 6)


# The chi-square survival function ----------------------------------------------------------


@pytest.mark.parametrize(
    ("statistic", "df", "p"),
    [(3.841458820694124, 1, 0.05), (11.070497693516351, 5, 0.05), (16.918977604620448, 9, 0.05),
     (6.634896601021214, 1, 0.01), (24.724970311318277, 11, 0.01), (4.351460191095526, 5, 0.5)],
)  # fmt: skip
def test_chi_square_survival_matches_the_tables_critical_values(statistic, df, p):
    assert chi_square_sf(statistic, df) == pytest.approx(p, rel=1e-9)


@pytest.mark.parametrize("statistic", [0.01, 0.5, 1, 3, 7.5, 20, 60, 300])
def test_chi_square_survival_matches_the_closed_forms_for_one_two_and_four_degrees(statistic):
    assert chi_square_sf(statistic, 1) == pytest.approx(math.erfc(math.sqrt(statistic / 2)))
    assert chi_square_sf(statistic, 2) == pytest.approx(math.exp(-statistic / 2))
    four = math.exp(-statistic / 2) * (1 + statistic / 2)
    assert chi_square_sf(statistic, 4) == pytest.approx(four, rel=1e-12)


def test_the_upper_gamma_of_a_half_is_the_complementary_error_function():
    for x in (0.2, 1.1, 4, 9):
        assert upper_regularized_gamma(0.5, x) == pytest.approx(math.erfc(math.sqrt(x)))


def test_a_statistic_of_zero_or_below_has_p_one():
    assert chi_square_sf(0, 5) == 1.0
    assert chi_square_sf(-1, 5) == 1.0


def test_no_degrees_of_freedom_is_refused():
    with pytest.raises(ValueError, match="df must be at least 1"):
        chi_square_sf(3, 0)


# The page ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_page_counts_each_face_per_die_size(client, table, player):
    campaign, session = table.campaign, table.session
    for faces in ([1, 2], [3, 3], [6, 1]):
        logged(session, player, faces)
    response = stats_page(client, player, campaign, session)
    assert d6_of(response.context["whole"]).counts == (2, 1, 2, 0, 0, 1)
    html = response.content.decode()
    assert "<td>2</td><td>1</td><td>2</td><td>0</td><td>0</td><td>1</td>" in html
    assert "6 dice" in html


@pytest.mark.django_db
def test_dice_of_different_sizes_are_counted_apart(make_table, client, gm, player, other_player):
    table = make_table(title="Noc pierwsza")
    campaign, session = table.campaign, table.session
    logged(session, player, {"d10": [7, 2], "d6": [4]}, system="fasttest", params=FASTTEST)
    whole = stats_page(client, player, campaign, session).context["whole"]
    assert [(die.sides, die.counts) for die in whole.dice] == [
        (6, (0, 0, 0, 1, 0, 0)),
        (10, (0, 1, 0, 0, 0, 0, 1, 0, 0, 0)),
    ]


@pytest.mark.django_db
def test_each_person_who_rolled_gets_their_own_counts(client, table, player, other_player, gm):
    campaign, session = table.campaign, table.session
    logged(session, player, [1, 1])
    logged(session, other_player, [5, 6])
    people = stats_page(client, gm, campaign, session).context["people"]
    assert [(scope.name, d6_of(scope).counts) for scope in people] == [
        ("other", (0, 0, 0, 0, 1, 1)),
        ("player", (2, 0, 0, 0, 0, 0)),
    ]


@pytest.mark.django_db
def test_the_p_value_is_the_chi_square_fit_of_the_counts(client, table, player):
    campaign, session = table.campaign, table.session
    # 60 faces: twenty 1s and eight of each other face; X² = 10²/10 + 5 · 2²/10 = 12, df 5.
    faces = [1] * 20 + [face for face in range(2, 7) for _ in range(8)]
    for pair in zip(faces[::2], faces[1::2], strict=True):
        logged(session, player, list(pair))
    response = stats_page(client, player, campaign, session)
    d6 = d6_of(response.context["whole"])
    assert d6.chi_square == pytest.approx(12)
    assert d6.p_value == pytest.approx(0.0347878, abs=1e-6)
    assert "χ² = 12.00, p = 0.035" in response.content.decode()


@pytest.mark.django_db
def test_perfectly_even_faces_fit_with_p_one(client, table, player):
    campaign, session = table.campaign, table.session
    for _ in range(5):
        for pair in ([1, 2], [3, 4], [5, 6]):
            logged(session, player, pair)
    d6 = d6_of(stats_page(client, player, campaign, session).context["whole"])
    assert (d6.chi_square, d6.p_value) == (0, 1.0)


@pytest.mark.django_db
def test_too_few_dice_get_no_p_value_and_say_so(client, table, player):
    campaign, session = table.campaign, table.session
    logged(session, player, [2, 5])
    response = stats_page(client, player, campaign, session)
    assert d6_of(response.context["whole"]).p_value is None
    assert "too few for the test" in response.content.decode()


@pytest.mark.django_db
def test_a_session_without_rolls_says_there_is_nothing_to_count(client, table, player):
    campaign, session = table.campaign, table.session
    response = stats_page(client, player, campaign, session)
    assert response.status_code == 200
    assert "No dice to count yet." in response.content.decode()


@pytest.mark.django_db
def test_a_hidden_rolls_faces_are_not_counted_for_a_player_but_are_for_the_gm(
    client, table, player, gm
):
    campaign, session = table.campaign, table.session
    logged(session, player, [1, 2])
    logged(session, gm, [6, 6], visibility="hidden")
    seen_by_player = stats_page(client, player, campaign, session).context
    assert d6_of(seen_by_player["whole"]).counts == (1, 1, 0, 0, 0, 0)
    assert [scope.name for scope in seen_by_player["people"]] == ["player"]
    seen_by_gm = stats_page(client, gm, campaign, session).context
    assert d6_of(seen_by_gm["whole"]).counts == (1, 1, 0, 0, 0, 2)


@pytest.mark.django_db
def test_another_players_secret_roll_is_not_counted_but_ones_own_is(
    client, table, player, other_player
):
    campaign, session = table.campaign, table.session
    logged(session, player, [3, 3], visibility="secret")
    logged(session, other_player, [4, 4], visibility="secret")
    whole = stats_page(client, player, campaign, session).context["whole"]
    assert d6_of(whole).counts == (0, 0, 2, 0, 0, 0)
    assert whole.entries == 1


@pytest.mark.django_db
def test_a_follow_up_is_not_counted_again(client, table, player):
    campaign, session = table.campaign, table.session
    first = logged(session, player, [1, 6])
    logged(session, player, [2, 6], parent=first)  # the 6 is the first roll's die, kept
    whole = stats_page(client, player, campaign, session).context["whole"]
    assert d6_of(whole).counts == (1, 0, 0, 0, 0, 1)


@pytest.mark.django_db
def test_a_re_roll_counts_the_die_it_drew_and_not_the_one_it_kept(client, table, player):
    campaign, session = table.campaign, table.session
    first = logged(session, player, [1, 6], drawn=[(6, 1), (6, 6)])
    logged(session, player, [2, 6], parent=first, drawn=[(6, 2)])  # the 1 re-rolled: a 2
    whole = stats_page(client, player, campaign, session).context["whole"]
    assert d6_of(whole).counts == (1, 1, 0, 0, 0, 1)
    assert whole.entries == 2


@pytest.mark.django_db
def test_an_anonymous_visitor_is_sent_to_log_in(client, table):
    campaign, session = table.campaign, table.session
    response = client.get(reverse("session_stats", args=[campaign.pk, session.pk]))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


@pytest.mark.django_db
def test_the_session_page_links_to_its_statistics(client, table, player):
    campaign, session = table.campaign, table.session
    client.force_login(player)
    html = client.get(reverse("session_detail", args=[campaign.pk, session.pk])).content.decode()
    assert reverse("session_stats", args=[campaign.pk, session.pk]) in html


@pytest.mark.django_db
def test_the_chart_is_hidden_from_screen_readers_behind_its_table(client, table, player):
    campaign, session = table.campaign, table.session
    logged(session, player, [1, 2])
    html = stats_page(client, player, campaign, session).content.decode()
    assert re.search(r'<svg class="chart"[^>]*aria-hidden="true"', html)
    assert '<th scope="col">6</th>' in html
    assert html.count('<rect class="bar"') == 2 * 6  # the whole session, and the player's


@pytest.mark.django_db
def test_the_page_speaks_polish_and_keeps_the_charts_numbers_svg_readable(client, table, player):
    campaign, session = table.campaign, table.session
    for _ in range(3):
        logged(session, player, [1, 2])
    response = stats_page(client, player, campaign, session, HTTP_ACCEPT_LANGUAGE="pl")
    html = response.content.decode()
    assert "Statystyki kości" in html
    assert "6 kości" in html
    assert "przerzut tylko swoje nowe kości" in html
    coordinates = re.findall(r'<rect class="bar" x="([^"]+)" y="([^"]+)"', html)
    assert coordinates
    assert all("," not in x + y for x, y in coordinates)


@pytest.mark.django_db
def test_the_page_runs_the_same_queries_for_3_or_30_rolls(
    client, table, player, django_assert_max_num_queries
):
    campaign, session = table.campaign, table.session
    client.force_login(player)
    url = reverse("session_stats", args=[campaign.pk, session.pk])
    for _ in range(3):
        logged(session, player, [1, 2])
    with django_assert_max_num_queries(8) as few:
        client.get(url)
    for _ in range(27):
        logged(session, player, [3, 4])
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(url)


@pytest.mark.django_db
def test_the_gms_own_rolls_are_marked_as_the_gms(client, table, player, gm):
    campaign, session = table.campaign, table.session
    logged(session, gm, [2, 3])
    logged(session, player, [4, 5])
    html = stats_page(client, player, campaign, session).content.decode()
    assert re.search(r'>gm <span class="badge gm">GM</span></h2>', html)
    assert not re.search(r'>player <span class="badge gm">', html)
