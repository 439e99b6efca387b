"""Recording rolls: server-side dice, a gapless seq per session, idempotent requests."""

import uuid

import pytest
from django.db import connection

from campaigns.models import Campaign, Membership
from campaigns.sessions import end_session, new_scene, start_session
from rolls import actions
from rolls.engine import fasttest
from rolls.models import Roll
from sheets.models import Character
from tests.web.live import FASTTEST_TEST, roll

pytestmark = [pytest.mark.django_db, pytest.mark.table(title="Noc pierwsza")]


def test_rolls_of_a_session_are_numbered_one_two_three(table, player):
    session = table.session
    assert [roll(session, player).seq for _ in range(3)] == [1, 2, 3]


def test_a_repeated_key_answers_with_the_first_roll_and_rolls_nothing(table, player):
    session = table.session
    key = uuid.uuid4()
    first = roll(session, player, key=key)
    again, created = actions.record_roll(
        actions.RollSpec(
            session=session, actor=player, system="fasttest", params=FASTTEST_TEST, key=key
        )
    )
    assert (again.pk, created) == (first.pk, False)
    assert Roll.objects.filter(session=session).count() == 1


def test_the_stored_faces_resolve_to_the_stored_result(table, player):
    session = table.session
    entry = roll(session, player)
    params = fasttest.parse_params(entry.params)
    replayed = fasttest.resolve(params, fasttest.parse_faces(params, entry.faces))
    assert replayed.contract() == entry.result["answer"]


def test_a_roll_is_saved_with_who_for_whom_and_which_scene(table, player):
    hero, session = table.hero, table.session
    entry = roll(session, player, character=hero)
    assert (entry.actor, entry.character, entry.character_name) == (player, hero, "Brunhilda")
    assert entry.scene.number == 1


def test_a_log_entry_cannot_be_edited_or_deleted(table, player):
    session = table.session
    entry = roll(session, player)
    with pytest.raises(ValueError, match="never edited"):
        entry.save()
    with pytest.raises(ValueError, match="never deleted"):
        entry.delete()


def test_a_bad_test_is_refused_with_the_engines_sentence(table, player):
    session = table.session
    with pytest.raises(actions.ActionRefused, match="at most 200 dice"):
        actions.record_roll(
            actions.RollSpec(
                session=session,
                actor=player,
                system="fasttest",
                params={"attribute": 5, "penalty": 500},
                key=uuid.uuid4(),
            )
        )
    session.refresh_from_db()
    assert session.last_seq == 0


def test_no_roll_lands_in_an_ended_session(table, player):
    session = table.session
    end_session(session)
    with pytest.raises(actions.ActionRefused, match="session has ended"):
        roll(session, player)


def test_a_roll_refused_in_an_ended_session_takes_no_seq(table, player):
    session = table.session
    roll(session, player)
    end_session(session)
    with pytest.raises(actions.ActionRefused) as refused:
        roll(session, player)
    assert str(refused.value) == "This session has ended; the GM can start a new one."
    session.refresh_from_db()
    assert session.last_seq == 1


def test_a_roll_lands_in_the_scene_started_last(table, player):
    session = table.session
    new_scene(session, "Second")
    assert roll(session, player).scene.number == 2


@pytest.fixture
def before_returning(monkeypatch):
    """SQLite before 3.35, which has no UPDATE ... RETURNING: the ORM's lock and update."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's version decides the way; this database has RETURNING")
    monkeypatch.setattr(connection.Database, "sqlite_version_info", (3, 31, 1))


def test_without_returning_rolls_are_numbered_and_refused_alike(table, player, before_returning):
    session = table.session
    assert [roll(session, player).seq for _ in range(3)] == [1, 2, 3]
    end_session(session)
    with pytest.raises(actions.ActionRefused, match="session has ended"):
        roll(session, player)
    session.refresh_from_db()
    assert session.last_seq == 3


def test_only_one_session_runs_at_a_time(table):
    campaign = table.campaign
    with pytest.raises(actions.ActionRefused, match="already running"):
        start_session(campaign)


def test_a_new_scene_refills_ast_challenge_points_to_the_number_of_players(
    make_table, gm, player, other_player
):
    table = make_table("ast", title="Noc pierwsza")
    session = table.session
    scene = new_scene(session)
    assert (scene.number, scene.challenge_points) == (2, 2)


def test_a_new_scene_sets_every_caerbannog_rozmach_to_zero(make_table, gm, player, other_player):
    table = make_table("caerbannog", title="Noc pierwsza")
    campaign, session = table.campaign, table.session
    julio = Character.objects.create(
        campaign=campaign, owner=player, name="Julio", data={"resources": {"rozmach": 7}}
    )
    new_scene(session)
    julio.refresh_from_db()
    assert julio.data["resources"]["rozmach"] == 0


def test_rozmach_in_another_campaign_is_left_alone(make_table, gm, player, other_player):
    table = make_table("caerbannog", title="Noc pierwsza")
    session = table.session
    elsewhere = Campaign.objects.create(name="Inny", system="caerbannog", gm=gm)
    Membership.objects.create(campaign=elsewhere, user=player)
    morgana = Character.objects.create(
        campaign=elsewhere, owner=player, name="Morgana", data={"resources": {"rozmach": 4}}
    )
    new_scene(session)
    morgana.refresh_from_db()
    assert morgana.data["resources"]["rozmach"] == 4
