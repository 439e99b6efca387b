"""Fair dice at the table: a committed seed per session, the page's nonce on every roll, the seed
published at the end, and exports anyone can check offline (ENGINE.md, "Fair dice")."""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import uuid

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.sessions import end_session, start_session
from rolls import actions
from rolls.engine import system_module
from rolls.engine.protocol import draw
from rolls.models import Roll
from sheets.models import Character
from tests.engine.test_protocol import ROOT, bare_python_env
from tests.web.live import panel_url, seat
from tests.web.test_panel_caerbannog import SHEET

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table(
        "caerbannog", name="Caerbannog", characters=[("Morgana", SHEET)], npcs=[("Troll", [])]
    ),
]


def roll(client, hero, nonce: str | None = "page-nonce-1", **choices):
    data = {"skill": "Jazda", "difficulty": "3", **choices, "key": str(uuid.uuid4())}
    if nonce is not None:
        data["nonce"] = nonce
    return client.post(panel_url(hero, "test_roll"), data)


def re_roll(client, hero, parent, nonce="page-nonce-re", **choices):
    url = reverse("test_follow_up", args=[hero.campaign_id, hero.pk, parent.pk, "reroll"])
    data = {"ability": "Szczęściarz", **choices, "key": str(uuid.uuid4()), "nonce": nonce}
    return client.post(url, data)


def npc_roll(client, campaign, npc, nonce="gm-nonce", **form):
    url = reverse("npc_roll", args=[campaign.pk, npc.pk])
    data = {"level": "2", "difficulty": "3", "key": str(uuid.uuid4()), "nonce": nonce, **form}
    return client.post(url, data)


def export(client, session, fmt="json"):
    url = reverse("session_export", args=[session.campaign_id, session.pk, fmt])
    return client.get(url).content.decode()


def end(session):
    end_session(session)
    session.refresh_from_db()


def fair_faces(roll_: Roll):
    """The faces the engine's ``draw`` op gives for this entry's seed, seq and nonce."""
    answer = draw(system_module(roll_.system), roll_.params, roll_.session.seed, roll_.seq,
                  roll_.nonce)  # fmt: skip
    return answer["faces"]


# --- The seed and its commitment ---------------------------------------------------------------


def test_a_session_commits_to_its_seed_when_it_starts(table):
    session = table.session
    assert len(session.seed) == 64
    assert session.commitment == hashlib.sha256(bytes.fromhex(session.seed)).hexdigest()


def test_each_session_has_a_seed_of_its_own(table):
    campaign, session = table.campaign, table.session
    end(session)
    assert start_session(campaign).seed != session.seed


def test_the_seed_is_published_only_once_the_session_has_ended(table):
    session = table.session
    assert session.published_seed is None
    end(session)
    assert session.published_seed == session.seed


# --- Rolls and their nonce ----------------------------------------------------------------------


def test_a_roll_draws_its_dice_from_the_stream_of_the_seed_its_seq_and_the_pages_nonce(
    client, table, player
):
    hero = table.hero
    client.force_login(player)
    roll(client, hero, nonce="Abc_123-x")
    entry = Roll.objects.get()
    assert (entry.nonce, entry.server_nonce) == ("Abc_123-x", False)
    assert entry.faces == fair_faces(entry)
    assert entry.drawn == [[8, face] for face in entry.faces]


def test_a_roll_without_a_nonce_gets_one_from_the_server_and_its_entry_says_so(
    client, table, player
):
    hero = table.hero
    client.force_login(player)
    roll(client, hero, nonce=None)
    entry = Roll.objects.get()
    assert entry.server_nonce is True
    assert entry.faces == fair_faces(entry)
    assert (
        "nonce made by the server"
        in client.get(reverse("session_log", args=[hero.campaign_id])).content.decode()
    )


def test_a_malformed_nonce_is_refused_with_a_message_and_nothing_is_rolled(client, table, player):
    hero = table.hero
    client.force_login(player)
    response = roll(client, hero, nonce="not a nonce!")
    assert response.status_code == 409
    assert "malformed" in response.content.decode()
    assert not Roll.objects.exists()


def test_a_re_roll_draws_its_own_dice_under_its_own_seq_and_nonce(client, table, player):
    hero = table.hero
    client.force_login(player)
    roll(client, hero, nonce="first")
    parent = Roll.objects.get()
    re_roll(client, hero, parent, nonce="second", die="1")
    again = Roll.objects.get(kind="reroll")
    assert (again.seq, again.nonce) == (2, "second")
    assert again.drawn == [[8, again.faces[1]]]
    assert [again.faces[0], again.faces[2]] == [parent.faces[0], parent.faces[2]]


def test_the_gms_npc_roll_uses_the_gms_page_nonce(client, table, gm):
    campaign, troll = table.campaign, table.npc
    client.force_login(gm)
    npc_roll(client, campaign, troll, nonce="from-the-gm")
    entry = Roll.objects.get()
    assert (entry.nonce, entry.visibility) == ("from-the-gm", "hidden")
    assert entry.faces == fair_faces(entry)


def test_the_roll_form_pages_load_the_nonce_script(client, table, player):
    hero = table.hero
    client.force_login(player)
    html = client.get(reverse("character_detail", args=[hero.campaign_id, hero.pk])).content
    assert b"js/fair-nonce.js" in html


def test_a_test_the_gm_called_for_is_rolled_with_the_players_page_nonce(client, gm, player):
    from rolls.pending import actions as pending
    from tests.web.test_pending_twod6 import AMBUSH, NOMAD

    campaign = Campaign.objects.create(name="Pustkowia", system="2d6", gm=gm)
    seat(campaign, gm, player)
    hero = Character.objects.create(campaign=campaign, owner=player, name="Nomad", data=NOMAD)
    session = start_session(campaign)
    called = pending.call_test(session=session, character=hero, gm=gm, target=dict(AMBUSH))
    client.force_login(player)
    client.post(panel_url(hero, "test_roll"), {"pending": called.pk, "revision": 1,
                "key": str(uuid.uuid4()), "nonce": "answering-the-gm"})  # fmt: skip
    entry = Roll.objects.get()
    assert entry.nonce == "answering-the-gm"
    assert entry.faces == fair_faces(entry)


# --- The seed stays secret until the end -------------------------------------------------------


def played(client, table, gm, player):
    """A public roll, its re-roll, a secret roll and a hidden NPC roll."""
    campaign, hero, troll, session = table.campaign, table.hero, table.npc, table.session
    client.force_login(player)
    roll(client, hero, nonce="public-1")
    re_roll(client, hero, Roll.objects.get(seq=1), nonce="reroll-2", die="0")
    roll(client, hero, nonce="secret-3", visibility="secret")
    client.force_login(gm)
    npc_roll(client, campaign, troll, nonce="hidden-4")
    return session


def pages(client, session):
    campaign_id = session.campaign_id
    return [
        client.get(reverse("session_detail", args=[campaign_id, session.pk])).content.decode(),
        client.get(reverse("session_log", args=[campaign_id])).content.decode(),
        client.get(reverse("campaign_detail", args=[campaign_id])).content.decode(),
        *(export(client, session, fmt) for fmt in ("json", "md", "csv")),
    ]


def test_before_the_end_no_page_or_export_holds_the_seed_but_they_show_the_commitment(
    client, table, gm, player
):
    session = played(client, table, gm, player)
    for who in (gm, player):
        client.force_login(who)
        seen = pages(client, session)
        assert not [page for page in seen if session.seed in page]
        assert session.commitment in seen[0]
        assert session.commitment in seen[1]
        assert json.loads(seen[3])["fair"] == json.loads(seen[3])["fair"] | {
            "commitment": session.commitment,
            "seed": None,
        }


def test_the_admin_never_shows_the_seed(admin_client, table):
    session = table.session
    pages = [
        admin_client.get(reverse("admin:campaigns_gamesession_changelist")),
        admin_client.get(reverse("admin:campaigns_gamesession_change", args=[session.pk])),
    ]
    assert all(page.status_code == 200 for page in pages)
    assert not [page for page in pages if session.seed.encode() in page.content]


def test_the_repr_of_a_session_does_not_hold_its_seed(table):
    session = table.session
    assert session.seed not in repr(session)


def test_after_the_end_the_session_page_and_export_publish_the_seed(client, table, gm, player):
    session = played(client, table, gm, player)
    end(session)
    client.force_login(player)
    seen = pages(client, session)
    assert session.seed in seen[0]
    assert json.loads(seen[3])["fair"]["seed"] == session.seed
    assert "Check the whole session" in seen[0]


def test_an_outsider_gets_no_export_and_no_seed(client, table, gm, player, outsider):
    session = played(client, table, gm, player)
    end(session)
    client.force_login(outsider)
    response = client.get(reverse("session_export", args=[session.campaign_id, session.pk, "json"]))
    assert response.status_code == 404
    assert session.seed.encode() not in response.content


# --- Visibility still holds ---------------------------------------------------------------------


def test_another_player_never_gets_the_nonce_or_dice_of_secret_and_hidden_rolls(
    client, table, gm, player, other_player
):
    session = played(client, table, gm, player)
    end(session)
    client.force_login(other_player)
    document = json.loads(export(client, session))
    hidden = [e for e in document["entries"] if e["seq"] in (3, 4)]
    assert all(e["redacted"] for e in hidden)
    assert not [e for e in hidden if {"nonce", "drawn", "faces", "dice"} & set(e)]
    everything = "".join(pages(client, session))
    assert "secret-3" not in everything
    assert "hidden-4" not in everything


def test_the_gm_gets_every_nonce(client, table, gm, player):
    session = played(client, table, gm, player)
    end(session)
    client.force_login(gm)
    document = json.loads(export(client, session))
    assert [e["nonce"] for e in document["entries"]] == ["public-1", "reroll-2", "secret-3",
                                                         "hidden-4"]  # fmt: skip


# --- The offline checker on a real export -------------------------------------------------------


def run_checker(tmp_path, text: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "export.json"
    path.write_text(text, encoding="utf-8")
    return subprocess.run(
        ["/usr/bin/env", "python3", "-m", "rolls.engine", "check", str(path)],
        capture_output=True, text=True, cwd=ROOT, env=bare_python_env(), timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("viewer", "visible", "hidden"), [("player", 3, 1), ("other_player", 2, 2), ("gm", 4, 0)]
)
def test_the_offline_checker_finds_every_visible_entry_of_a_played_session_matching(
    client, table, gm, player, other_player, tmp_path, viewer, visible, hidden
):
    session = played(client, table, gm, player)
    end(session)
    client.force_login({"player": player, "other_player": other_player, "gm": gm}[viewer])
    result = run_checker(tmp_path, export(client, session))
    assert result.returncode == 0, result.stdout
    assert f"{visible} of {visible} entries match" in result.stdout
    assert f"{hidden} hidden from this export's reader" in result.stdout


def test_the_offline_checker_reports_a_forged_face_as_a_mismatch(
    client, table, gm, player, tmp_path
):
    session = played(client, table, gm, player)
    end(session)
    client.force_login(gm)
    document = json.loads(export(client, session))
    first = document["entries"][0]
    first["faces"][0] = first["faces"][0] % 8 + 1
    first["dice"][0]["face"] = first["faces"][0]
    result = run_checker(tmp_path, json.dumps(document))
    assert result.returncode == 1
    assert "#1: MISMATCH" in result.stdout


def test_the_offline_checker_reports_a_forged_re_rolled_die(client, table, gm, player, tmp_path):
    session = played(client, table, gm, player)
    end(session)
    client.force_login(gm)
    document = json.loads(export(client, session))
    rerolled = document["entries"][1]
    rerolled["drawn"][0][1] = rerolled["drawn"][0][1] % 8 + 1
    result = run_checker(tmp_path, json.dumps(document))
    assert result.returncode == 1
    assert "#2: MISMATCH" in result.stdout


def test_the_offline_checker_refuses_an_export_made_before_the_end(
    client, table, gm, player, tmp_path
):
    session = played(client, table, gm, player)
    client.force_login(gm)
    result = run_checker(tmp_path, export(client, session))
    assert result.returncode == 1
    assert "has not ended" in result.stdout


# --- No log line holds the seed -----------------------------------------------------------------


def test_the_sql_log_of_a_session_start_does_not_hold_its_seed(gm, caplog):
    from django.db import connection

    campaign = Campaign.objects.create(name="Logged", system="2d6", gm=gm)
    connection.force_debug_cursor = True  # the SQL log of DEBUG with LOG_LEVEL=DEBUG
    try:
        with caplog.at_level("DEBUG", logger="django.db.backends"):
            session = start_session(campaign)
    finally:
        connection.force_debug_cursor = False
    lines = [record.getMessage() for record in caplog.records]
    assert [line for line in lines if 'INSERT INTO "campaigns_gamesession"' in line]
    assert not [line for line in lines if session.seed in line]


def test_the_console_log_handler_hides_seeds(settings):
    assert "hide_seeds" in settings.LOGGING["handlers"]["console"]["filters"]


# --- Frames -------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_secret_roll_reaches_another_players_socket_without_its_nonce_or_the_seed(
    gm, player, other_player
):
    from asgiref.sync import sync_to_async
    from django.test import Client

    from tests.web.live import socket_for

    def make():
        campaign = Campaign.objects.create(name="Caerbannog", system="caerbannog", gm=gm)
        seat(campaign, gm, player, other_player)
        hero = Character.objects.create(
            campaign=campaign, owner=player, name="Morgana", data=copy.deepcopy(SHEET)
        )
        return campaign, hero, start_session(campaign)

    campaign, hero, session = await sync_to_async(make)()
    frames = []
    for who in (other_player, player):
        socket = await sync_to_async(socket_for)(who, campaign)
        assert (await socket.connect())[0]
        await socket.send_json_to({"type": "since", "session": session.pk, "seq": 0})
        assert (await socket.receive_json_from(timeout=3))["type"] == "synced"
        frames.append(socket)

    def roll_secretly():
        client = Client()
        client.force_login(player)
        roll(client, hero, nonce="very-secret-nonce", visibility="secret")

    async def until_entry(socket) -> str:
        received = []
        while not received or received[-1]["type"] != "entry":
            received.append(await socket.receive_json_from(timeout=3))
        return json.dumps(received)

    await sync_to_async(roll_secretly)()
    theirs, mine = [await until_entry(socket) for socket in frames]
    assert "very-secret-nonce" not in theirs
    assert "very-secret-nonce" in mine
    assert session.seed not in theirs + mine
    for socket in frames:
        await socket.disconnect()


# --- The migration ------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_existing_session_a_seed_of_its_own(gm):
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("campaigns", "0002_game_sessions_and_scenes")]
    after = [("campaigns", "0003_session_seed_and_commitment")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    campaign = old.get_model("campaigns", "Campaign").objects.create(
        name="Old", system="2d6", gm_id=gm.pk
    )
    sessions = old.get_model("campaigns", "GameSession")
    sessions.objects.create(campaign=campaign, ended_at="2026-11-01T20:00Z")
    sessions.objects.create(campaign=campaign)
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    seeded = list(executor.loader.project_state(after).apps.get_model(
        "campaigns", "GameSession").objects.values_list("seed", "commitment"))  # fmt: skip
    # Back to the latest of every app: going back to campaigns 0002 undid what depends on 0003.
    MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes())
    assert len({seed for seed, _ in seeded}) == 2
    assert all(c == hashlib.sha256(bytes.fromhex(s)).hexdigest() for s, c in seeded)


# --- Every system's log entries check out -------------------------------------------------------

FIRST_ROLLS = {
    "fasttest": {"attribute": 5, "skills": [1], "bonus": 3, "extra_d10": 1},
    "ast": {"white": 4, "level_mod": 1},
    "t10": {"pool": 14, "difficulty": 7},
    "caerbannog": {"dice": [4, 8, 12], "difficulty": 3},
    "2d6": {"attribute": 4, "skill": 7, "difficulty": 15},
}


@pytest.mark.parametrize("system", list(FIRST_ROLLS))
def test_the_logged_entries_of_every_system_check_out_from_the_export(gm, system):
    from rolls.engine.check import check_document
    from rolls.log.export import as_json
    from rolls.log.reading import entries_for

    campaign = Campaign.objects.create(name="All", system=system, gm=gm)
    session = start_session(campaign)
    for number in range(25):
        actions.record_roll(
            actions.RollSpec(
                session=session,
                actor=gm,
                system=system,
                key=uuid.uuid4(),
                params=FIRST_ROLLS[system],
                nonce=f"n{number}",
            )
        )
    end(session)
    document = json.loads(as_json(session, entries_for(session, gm, True, newest_first=False)))
    report = check_document(document)
    assert report.ok, report.lines()
    assert len(report.matched) == 25


# --- A Caerbannog group test checks out too ------------------------------------------------------


def test_a_group_test_with_a_re_roll_checks_out_from_the_export(
    make_table, gm, player, other_player, tmp_path
):
    """Each participant's dice are a dice expression (the quick dice engine), whatever the
    campaign's system; the group's result shows everyone's dice, a re-rolled die's new face."""
    from tests.web.test_group_test import add, group, post, sheet, start
    from tests.web.test_group_test import roll as roll_member

    party = make_table(
        "caerbannog",
        characters=[("Ala", sheet(rozmach=1)), ("Bartek", sheet(rozmach=1))],
        players=[player, other_player],
        session="first",
    )
    ala, bartek = party.characters
    client = party.client(gm)
    start(client, party, ala, "skill:Atletyka")
    add(client, party, bartek, "skill:Dociekliwość")
    for character in (ala, bartek):
        roll_member(client, party, character)
    post(
        client, "group_reroll", party.campaign, group().pk, character=bartek.pk,
        revision=group().revision, dice=["0"], ability="Inspirująca osobowość", cost="1",
        key=str(uuid.uuid4()), nonce="group-re-roll",
    )  # fmt: skip
    post(client, "group_settle", party.campaign, group().pk, revision=group().revision)
    assert [r.kind for r in Roll.objects.order_by("seq")] == [
        "group_die", "group_die", "group_reroll", "group"
    ]  # fmt: skip
    end(party.session)
    result = run_checker(tmp_path, export(client, party.session))
    assert result.returncode == 0, result.stdout
    assert "4 of 4 entries match" in result.stdout


def test_a_group_tests_result_showing_a_die_nobody_rolled_is_a_mismatch(
    make_table, gm, player, other_player, tmp_path
):
    from tests.web.test_group_test import add, group, post, sheet, start
    from tests.web.test_group_test import roll as roll_member

    party = make_table("caerbannog", characters=[("Ala", sheet()), ("Bartek", sheet())],
                       players=[player, other_player], session="first")  # fmt: skip
    ala, bartek = party.characters
    client = party.client(gm)
    start(client, party, ala, "skill:Atletyka")
    add(client, party, bartek, "skill:Dociekliwość")
    for character in (ala, bartek):
        roll_member(client, party, character)
    post(client, "group_settle", party.campaign, group().pk, revision=group().revision)
    end(party.session)
    document = json.loads(export(client, party.session))
    settled = document["entries"][-1]
    die = settled["dice"][-1]
    die["face"] = die["face"] % die["sides"] + 1
    result = run_checker(tmp_path, json.dumps(document))
    assert result.returncode == 1
    assert "#1: matches\n#2: matches\n" in result.stdout
    assert f"#{settled['seq']}: MISMATCH: the entry shows dice that were neither" in result.stdout


def test_an_opposed_tests_result_which_draws_no_dice_does_not_say_the_server_made_its_nonce(
    make_table, client, gm, player, other_player
):
    from rolls.models import OpposedTest
    from tests.web.test_opposed import FASTTEST_SHEET, fasttest_duel

    duel = make_table("fasttest", characters=[("Ala", FASTTEST_SHEET), ("Bartek", FASTTEST_SHEET)])
    opposed = fasttest_duel(client, gm, duel)
    for user, side in ((player, opposed.initiator), (other_player, opposed.opponent)):
        client.force_login(user)
        form = {"pending": side.pk, "revision": side.revision, "key": str(uuid.uuid4())}
        client.post(panel_url(side.character, "test_roll"), form | {"nonce": "a-page"})
    assert OpposedTest.objects.get().result.drawn == []
    log = client.get(reverse("session_log", args=[duel.campaign.pk])).content.decode()
    assert "Opposed test (#1 against #2)" in log
    assert "nonce made by the server" not in log
