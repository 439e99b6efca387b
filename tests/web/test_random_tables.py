"""The GM's random tables: quick entry, gaps and overlaps, import and export, the table roll
(public or hidden, idempotent, fair), and the table the rules call for after a roll."""

import json
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.sessions import end_session, start_session
from campaigns.systems import all_systems
from rolls import actions
from rolls.engine.check import check_document
from rolls.engine.core import Die, EngineError
from rolls.engine.tables import parse_dice, parse_table, roll_table
from rolls.models import RandomTable, Roll
from rolls.tables.rules import table_rules
from tests.web.dice import Scripted, deal
from tests.web.live import connected, seat, sync
from tests.web.test_after_roll import CASTER, SETTINGS, SPELL, magic_via_panel, zarith

#: A FastTest campaign with a caster and a running session (tests/web/test_hostile_*.py too).
TABLE = pytest.mark.table(**zarith(SETTINGS | {"emanation": True}, CASTER))
pytestmark = [pytest.mark.django_db, TABLE]

WIND = "1-3: a gust of wind\n4-5: rain\n6: a clear sky"


def write(client, campaign, **form):
    data = {"name": "Weather", "dice": "1d6", "purpose": "", "rows": WIND} | form
    return client.post(reverse("random_tables", args=[campaign.pk]), data)


def weather(campaign, purpose=""):
    return RandomTable.objects.create(
        campaign=campaign,
        name="Weather",
        dice="1d6",
        purpose=purpose,
        rows=[[1, 3, "a gust of wind"], [4, 5, "rain"], [6, 6, "a clear sky"]],
    )


def roll(client, campaign, table, visibility="public", key=None, **form):
    data = {"key": str(key or uuid.uuid4()), "visibility": visibility} | form
    return client.post(reverse("random_table_roll", args=[campaign.pk, table.pk]), data)


def errors(response):
    return response.context["form"].errors.get("rows", [])


# --- The engine's table roll --------------------------------------------------------------------


def test_d66_reads_the_tens_die_then_the_units_die():
    dice, rows, _ = parse_table("d66", "11-36: low\n41-66: high")
    result = roll_table("T", dice, rows, Scripted(4, 2))
    assert (result.total, result.row.text) == (42, "high")
    assert result.dice == (Die(6, 4, True, "tens", "read"), Die(6, 2, True, "units", "read"))


def test_nds_sums_its_dice():
    dice, rows, _ = parse_table("2d6", "2-6: few\n7: seven\n8-12: many")
    assert roll_table("T", dice, rows, Scripted(3, 4)).row.text == "seven"


@pytest.mark.parametrize("expression", ["", "d1", "0d6", "11d6", "2d", "d6+1", "3x6"])
def test_a_dice_expression_outside_d66_and_nds_is_an_error(expression):
    with pytest.raises(EngineError, match="A table rolls d66 or NdS"):
        parse_dice(expression)


# --- Quick entry --------------------------------------------------------------------------------


def test_the_gm_writes_a_table_in_quick_entry(client, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    response = write(client, campaign, dice="D6")
    saved = RandomTable.objects.get(campaign=campaign)
    assert response.status_code == 302
    assert (saved.dice, saved.rows[0]) == ("1d6", [1, 3, "a gust of wind"])


def test_a_gap_is_refused_naming_the_lines_around_it(client, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    response = write(client, campaign, rows="1-2: wind\n4-6: rain")
    assert response.status_code == 422
    assert errors(response) == ["No row covers 3 (between lines 1, 2)."]
    assert not RandomTable.objects.exists()


def test_an_overlap_is_refused_naming_both_lines(client, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    response = write(client, campaign, rows="1-4: wind\n\n3-6: rain")
    assert errors(response) == ["Lines 1, 3 overlap on 3-4."]


def test_unreadable_lines_are_named_and_the_typed_rows_kept(client, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    response = write(client, campaign, rows="1-3: wind\nrain, maybe\n4-6:")
    assert errors(response) == [
        "Line 2 cannot be read: write a range, a colon and the text, e.g. “1-3: a gust of wind”.",
        "Line 3 has a range but no text.",
    ]
    assert "rain, maybe" in response.content.decode()


def test_a_range_beyond_the_dice_is_refused(client, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    response = write(client, campaign, rows="1-3: wind\n4-7: rain")
    assert errors(response) == ["Line 2 lies outside what 1d6 can roll (1-6)."]


def test_d66_needs_only_the_totals_it_can_make(client, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    assert write(client, campaign, dice="d66", rows="11-36: low\n41-66: high").status_code == 302
    response = write(client, campaign, name="Other", dice="d66", rows="11-16: a\n17-20: b")
    assert "Line 2 lies outside what d66 can roll (11-66)." in errors(response)


def test_a_bad_dice_expression_is_refused_with_examples(client, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    response = write(client, campaign, dice="2d6+1")
    assert response.context["form"].errors["dice"] == [
        "Write the dice as d66 or NdS, e.g. 1d6, 2d6, 1d20, d66, 1d100."
    ]


def test_the_gm_edits_a_table_and_its_rows_come_back_as_quick_entry(client, table, gm):
    campaign = table.campaign
    saved = weather(campaign)
    client.force_login(gm)
    url = reverse("random_table_edit", args=[campaign.pk, saved.pk])
    assert "1-3: a gust of wind\n4-5: rain\n6: a clear sky" in client.get(url).content.decode()
    data = {"name": "Weather", "dice": "1d6", "purpose": "", "rows": "1-6: fog"}
    client.post(url, data)
    saved.refresh_from_db()
    assert saved.rows == [[1, 6, "fog"]]


# --- Import and export --------------------------------------------------------------------------


def test_a_table_exported_as_json_imports_again(client, table, gm):
    campaign = table.campaign
    saved = weather(campaign, purpose="emanation")
    client.force_login(gm)
    exported = client.get(reverse("random_table_json", args=[campaign.pk, saved.pk]))
    document = json.loads(exported.content)
    document["name"] = "Weather again"
    upload = SimpleUploadedFile("t.json", json.dumps(document).encode())
    client.post(reverse("random_table_import", args=[campaign.pk]), {"file": upload})
    again = RandomTable.objects.get(name="Weather again")
    assert (again.rows, again.purpose) == (saved.rows, "emanation")


def test_a_csv_export_lists_from_to_and_text(client, table, gm):
    campaign = table.campaign
    saved = weather(campaign)
    client.force_login(gm)
    exported = client.get(reverse("random_table_csv", args=[campaign.pk, saved.pk]))
    assert exported.content.decode().splitlines()[:2] == ["from,to,text", "1,3,a gust of wind"]


def test_a_csv_import_with_a_gap_is_refused_and_shown_to_fix(client, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    upload = SimpleUploadedFile("t.csv", b"from,to,text\n1,2,wind\n4,6,rain\n")
    url = reverse("random_table_import", args=[campaign.pk])
    response = client.post(url, {"file": upload, "name": "Wind", "dice": "1d6"})
    assert response.status_code == 422
    assert errors(response) == ["No row covers 3 (between lines 1, 2)."]
    assert not RandomTable.objects.exists()


def test_a_file_that_is_not_a_table_is_refused_with_a_message(client, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    upload = SimpleUploadedFile("t.json", b"[1, 2")
    response = client.post(reverse("random_table_import", args=[campaign.pk]), {"file": upload})
    assert response.context["import_errors"] == ["The file is not valid JSON."]


# --- Rolling a table ----------------------------------------------------------------------------


def test_the_gm_rolls_a_table_into_the_log_with_dice_row_and_text(client, monkeypatch, table, gm):
    campaign, session = table.campaign, table.session
    saved = weather(campaign)
    client.force_login(gm)
    deal(monkeypatch, 5)
    roll(client, campaign, saved)
    entry = Roll.objects.get(kind="table")
    assert (entry.seq, entry.faces, entry.result["answer"]["text"]) == (1, [5], "rain")
    log = client.get(reverse("session_detail", args=[campaign.pk, session.pk])).content.decode()
    assert "Table: Weather (1d6)" in log
    assert "5 → 4-5:</span> rain" in log


def test_a_table_roll_draws_from_the_fair_stream_with_the_pages_nonce(client, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    roll(client, campaign, weather(campaign), nonce="page-nonce-1")
    entry = Roll.objects.get(kind="table")
    assert entry.nonce == "page-nonce-1"
    assert entry.drawn == [[6, entry.faces[0]]]


def test_the_same_key_rolls_a_table_once(client, table, gm):
    campaign = table.campaign
    saved = weather(campaign)
    client.force_login(gm)
    key = uuid.uuid4()
    roll(client, campaign, saved, key=key)
    roll(client, campaign, saved, key=key)
    assert Roll.objects.filter(kind="table").count() == 1


def test_a_hidden_table_roll_is_redacted_for_players(client, table, gm, player):
    campaign, session = table.campaign, table.session
    client.force_login(gm)
    roll(client, campaign, weather(campaign), visibility="hidden")
    client = Client()  # the player's own browser: none of the GM's messages
    client.force_login(player)
    log = client.get(reverse("session_detail", args=[campaign.pk, session.pk])).content.decode()
    assert "A hidden roll was made." in log
    assert "Weather" not in log
    assert "a clear sky" not in log
    assert "a gust of wind" not in log


def test_a_table_is_not_rolled_secret(client, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    roll(client, campaign, weather(campaign), visibility="secret")
    assert not Roll.objects.filter(kind="table").exists()


def test_a_table_roll_needs_a_running_session(client, table, gm):
    campaign, session = table.campaign, table.session
    end_session(session)
    client.force_login(gm)
    roll(client, campaign, weather(campaign))
    response = client.get(reverse("dashboard", args=[campaign.pk]))
    assert not Roll.objects.exists()
    assert "Start a session to roll on a table." in response.content.decode()


@pytest.mark.parametrize("dice", ["2d6", "a d6"])
def test_a_table_whose_dice_no_longer_fit_its_rows_is_refused_with_what_to_fix(
    client, table, gm, dice
):
    campaign = table.campaign
    saved = weather(campaign)
    RandomTable.objects.filter(pk=saved.pk).update(dice=dice)  # changed outside the form
    client.force_login(gm)
    client.cookies["django_language"] = "pl"
    url = reverse("random_table_roll", args=[campaign.pk, saved.pk])
    response = client.post(url, {"key": str(uuid.uuid4()), "visibility": "public"}, **HX)
    assert response.status_code == 409
    assert not Roll.objects.exists()
    assert "Wiersze tabeli „Weather” nie pasują do jej kości" in response.content.decode()


@pytest.mark.parametrize("who", ["player", "outsider"])
def test_only_the_gm_writes_reads_or_rolls_a_table(client, table, request, who):
    campaign = table.campaign
    saved = weather(campaign)
    client.force_login(request.getfixturevalue(who))
    assert client.get(reverse("random_tables", args=[campaign.pk])).status_code == 404
    assert write(client, campaign, name="Mine").status_code == 404
    assert roll(client, campaign, saved).status_code == 404
    url = reverse("random_table_json", args=[campaign.pk, saved.pk])
    assert client.get(url).status_code == 404
    assert not Roll.objects.exists()
    assert RandomTable.objects.count() == 1


# --- The table the rules call for ---------------------------------------------------------------


def spell(session, character):
    entry, _ = actions.record_roll(
        actions.RollSpec(
            session=session,
            actor=character.owner,
            system="fasttest",
            params={"attribute": 5},
            key=uuid.uuid4(),
            label=SPELL,
            character=character,
        ),
        rng=Scripted(3, 4),
    )
    return entry


def test_the_dashboard_offers_the_emanation_table_after_a_magic_die_erupts(
    client, monkeypatch, table, gm, player
):
    campaign, jaga, session = table.campaign, table.hero, table.session
    eruption = weather(campaign, purpose="emanation")
    parent = spell(session, jaga)
    client.force_login(player)
    magic_via_panel(client, campaign, jaga, parent, 9, monkeypatch=monkeypatch)  # 9 > DUCH 7
    client.force_login(gm)
    offers = client.get(reverse("dashboard", args=[campaign.pk])).context["table_offers"]
    magic = Roll.objects.get(kind="magic_die")
    assert [(o["roll"], o["table"]) for o in offers] == [(magic, eruption)]


def test_no_table_is_offered_after_a_magic_die_that_holds(client, monkeypatch, table, gm, player):
    campaign, jaga, session = table.campaign, table.hero, table.session
    weather(campaign, purpose="emanation")
    parent = spell(session, jaga)
    client.force_login(player)
    magic_via_panel(client, campaign, jaga, parent, 5, monkeypatch=monkeypatch)
    client.force_login(gm)
    assert client.get(reverse("dashboard", args=[campaign.pk])).context["table_offers"] == []


def test_the_offered_table_is_rolled_after_that_roll_and_offered_no_more(
    client, monkeypatch, table, gm, player
):
    campaign, jaga, session = table.campaign, table.hero, table.session
    eruption = weather(campaign, purpose="emanation")
    client.force_login(player)
    magic_via_panel(client, campaign, jaga, spell(session, jaga), 9, monkeypatch=monkeypatch)
    magic = Roll.objects.get(kind="magic_die")
    monkeypatch.undo()
    client.force_login(gm)
    roll(client, campaign, eruption, after=magic.pk)
    assert Roll.objects.get(kind="table").parent == magic
    assert client.get(reverse("dashboard", args=[campaign.pk])).context["table_offers"] == []


def test_the_side_effect_table_follows_a_spells_no_and(client, table, gm):
    campaign, jaga, session = table.campaign, table.hero, table.session
    side = weather(campaign, purpose="side_effect")
    failed, _ = actions.record_roll(
        actions.RollSpec(
            session=session,
            actor=jaga.owner,
            system="fasttest",
            params={"attribute": 5},
            key=uuid.uuid4(),
            label=SPELL,
            character=jaga,
        ),
        rng=Scripted(8, 6),
    )
    client.force_login(gm)
    offers = client.get(reverse("dashboard", args=[campaign.pk])).context["table_offers"]
    assert [(o["roll"], o["table"]) for o in offers] == [(failed, side)]


def test_a_new_t10_campaign_starts_with_the_option_lists_as_editable_tables(
    client, gm, player, other_player
):
    campaign = Campaign.objects.create(name="Moorcrest", system="t10", gm=gm)
    seat(campaign, gm, player, other_player)
    client.force_login(gm)
    client.post(reverse("random_table_defaults", args=[campaign.pk]))  # again: no duplicates
    tables = RandomTable.objects.filter(campaign=campaign)
    assert sorted(t.dice for t in tables) == ["1d2", "1d5", "1d7", "1d9"]
    assert tables.get(purpose="impressive").rows[5] == [6, 6, "+1 harm."]


# --- The log's exports and the offline check ----------------------------------------------------


def test_an_ended_sessions_table_roll_checks_out_offline(client, table, gm):
    campaign, session = table.campaign, table.session
    saved = weather(campaign)
    client.force_login(gm)
    roll(client, campaign, saved, nonce="n1")
    saved.rows = [[1, 6, "changed afterwards"]]
    saved.save()
    end_session(session)
    url = reverse("session_export", args=[campaign.pk, session.pk, "json"])
    report = check_document(json.loads(client.get(url).content))
    assert (report.matched, report.mismatched) == ([1], [])


def test_a_forged_table_row_in_the_export_is_caught(client, table, gm):
    campaign, session = table.campaign, table.session
    client.force_login(gm)
    roll(client, campaign, weather(campaign), nonce="n1")
    end_session(session)
    url = reverse("session_export", args=[campaign.pk, session.pk, "json"])
    document = json.loads(client.get(url).content)
    document["entries"][0]["result"]["text"] = "treasure"
    assert check_document(document).mismatched


def test_the_markdown_export_shows_the_row_read(client, monkeypatch, table, gm):
    campaign, session = table.campaign, table.session
    client.force_login(gm)
    deal(monkeypatch, 6)
    roll(client, campaign, weather(campaign))
    url = reverse("session_export", args=[campaign.pk, session.pk, "md"])
    assert "Table: Weather (1d6): **6 → 6: a clear sky** (d6:6)" in client.get(url).content.decode()


def test_a_polish_gm_reads_the_gap_in_polish(client, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    client.cookies["django_language"] = "pl"
    response = write(client, campaign, rows="1-2: wiatr\n4-6: deszcz")
    assert errors(response) == ["Żaden wiersz nie obejmuje 3 (między wierszami 1, 2)."]


# --- The dashboard's box ------------------------------------------------------------------------

HX = {"HTTP_HX_REQUEST": "true"}


def test_with_htmx_the_box_answers_with_the_rolled_entry(client, monkeypatch, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    deal(monkeypatch, 1)
    url = reverse("random_table_roll", args=[campaign.pk, weather(campaign).pk])
    response = client.post(url, {"key": str(uuid.uuid4()), "visibility": "hidden"}, **HX)
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="random-tables"' in body
    assert "1 → 1-3:</span> a gust of wind" in body


def tables_box(html: str) -> str:
    """The GM's tables box of a page or a refresh (no other part is inside it)."""
    start = html.index('id="random-tables"')
    return html[start : html.index("</section>", start)]


def test_the_table_events_own_refresh_of_the_box_shows_the_roll_too(client, monkeypatch, table, gm):
    """CI saw the rolled entry vanish: the roll's own table event refreshes the dashboard's parts,
    and that answer, landing after the roll's, morphed the box back to one with no entry."""
    campaign = table.campaign
    client.force_login(gm)
    deal(monkeypatch, 6)
    roll(client, campaign, weather(campaign), visibility="hidden", **HX)
    live = reverse("dashboard_live", args=[campaign.pk])
    refreshed = client.get(live, {"event": "table:entry"}).content.decode()
    assert "6 → 6:</span> a clear sky" in tables_box(refreshed)


def test_a_reload_of_the_dashboard_shows_the_latest_table_roll(client, monkeypatch, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    deal(monkeypatch, 4)
    roll(client, campaign, weather(campaign))
    page = client.get(reverse("dashboard", args=[campaign.pk])).content.decode()
    assert "4 → 4-5:</span> rain" in tables_box(page)


def test_with_htmx_a_refusal_is_shown_in_the_box(client, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    url = reverse("random_table_roll", args=[campaign.pk, weather(campaign).pk])
    response = client.post(url, {"key": "not-a-key", "visibility": "public"}, **HX)
    assert response.status_code == 409
    assert "This request is malformed; reload the page." in response.content.decode()


def test_the_box_refreshed_after_an_eruption_offers_the_table(
    client, monkeypatch, table, gm, player
):
    campaign, jaga, session = table.campaign, table.hero, table.session
    weather(campaign, purpose="emanation")
    client.force_login(player)
    magic_via_panel(client, campaign, jaga, spell(session, jaga), 9, monkeypatch=monkeypatch)
    assert client.get(reverse("random_tables_box", args=[campaign.pk])).status_code == 404
    client.force_login(gm)
    body = client.get(reverse("random_tables_box", args=[campaign.pk])).content.decode()
    assert "the rules call for a table after a magic die erupts (emanation)." in body


def test_a_duch_no_and_of_a_character_without_magic_offers_no_side_effect(
    make_table, client, gm, player, other_player
):
    plain = CASTER | {"traits": [{"name": "kupiec", "level": 3, "magic": False}]}
    table = make_table(**zarith(SETTINGS, plain))
    campaign, hero, session = table.campaign, table.hero, table.session
    weather(campaign, purpose="side_effect")
    actions.record_roll(
        actions.RollSpec(
            session=session,
            actor=player,
            system="fasttest",
            params={"attribute": 5},
            key=uuid.uuid4(),
            label=SPELL,
            character=hero,
        ),
        rng=Scripted(8, 6),
    )
    client.force_login(gm)
    assert client.get(reverse("dashboard", args=[campaign.pk])).context["table_offers"] == []


def test_t10_offers_its_extra_options_table_after_an_impressive_result(
    client, gm, player, other_player
):
    campaign = Campaign.objects.create(name="Moorcrest", system="t10", gm=gm)
    seat(campaign, gm, player, other_player)
    session = start_session(campaign)
    client.force_login(gm)
    impressive, _ = actions.record_roll(
        actions.RollSpec(
            session=session,
            actor=gm,
            system="t10",
            params={"pool": 4, "difficulty": 7},
            key=uuid.uuid4(),
        ),
        rng=Scripted(7, 8, 9, 9),
    )
    offers = client.get(reverse("dashboard", args=[campaign.pk])).context["table_offers"]
    assert [(o["roll"], o["table"].purpose) for o in offers] == [(impressive, "impressive")]


@pytest.mark.parametrize("system", all_systems(), ids=lambda system: system.key)
def test_every_systems_default_tables_read_and_are_offered_for_its_own_purposes(system):
    rules = table_rules(system)
    for default in rules.defaults:
        lines = "\n".join(f"{at}: {text}" for at, text in enumerate(default["rows"], start=1))
        assert parse_table(default["dice"], lines)[2] == []
        assert default["purpose"] in rules.purposes


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_hidden_table_roll_reaches_the_players_pages_as_a_hidden_roll_only(
    make_table, gm, player
):
    """Live as on a reload: a player's open page hears that a roll was made, never the table
    or a row of it (moved from the browser test of the GM's hidden table roll)."""
    table = await sync_to_async(make_table)(characters=())
    socket = await connected(player, table.campaign)
    assert await sync(socket, table.session) == []

    def roll_hidden() -> None:
        client = Client()
        client.force_login(gm)
        roll(client, table.campaign, weather(table.campaign), visibility="hidden")

    await sync_to_async(roll_hidden)()
    frame = await socket.receive_json_from(timeout=3)
    assert frame["type"] == "entry"
    assert "A hidden roll was made." in frame["html"]
    assert not any(word in frame["html"] for word in ("Weather", "gust", "rain", "clear sky"))
    await socket.disconnect()
