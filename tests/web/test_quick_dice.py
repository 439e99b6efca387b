"""Quick dice on every table page: any member types an expression and the server rolls it into
the log, with fair dice, its seq, an idempotency key and the visibility chosen (issue 18)."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from campaigns.systems import get_system
from rolls.engine.check import check_document
from rolls.models import Roll
from sheets.models import Character
from tests.web.live import socket_for
from tests.web.test_after_roll import HX
from tests.web.test_fair_dice import end, export, run_checker

TABLE = pytest.mark.table(characters=())
pytestmark = [pytest.mark.django_db, TABLE]


def quick(client, campaign, expression="2d6+3", headers=HX, **form):
    data = {"expression": expression, "key": str(uuid.uuid4()), "nonce": "page-nonce", **form}
    return client.post(reverse("quick_roll", args=[campaign.pk]), data, **(headers or {}))


def log_html(client, campaign) -> str:
    return client.get(reverse("session_log", args=[campaign.pk])).content.decode()


# --- Rolling ------------------------------------------------------------------------------------


def test_a_player_rolls_an_expression_into_the_log(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    response = quick(client, campaign, "2d6+3")
    roll = Roll.objects.get()
    assert response.status_code == 200
    assert (roll.kind, roll.seq, roll.params) == ("quick", 1, {"expression": "2d6+3"})
    assert roll.result["answer"]["total"] == sum(roll.faces) + 3


def test_the_answer_says_what_was_rolled_and_gives_a_fresh_box(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    html = quick(client, campaign, "d20").content.decode()
    roll = Roll.objects.get()
    assert f"Rolled d20 = {roll.result['answer']['total']} (#1)." in html
    assert 'name="expression" value=""' in html


def test_every_die_is_shown_with_the_dropped_ones_marked(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    quick(client, campaign, "4d6kh3")
    html = log_html(client, campaign)
    assert html.count('class="die d6 kept') == 3
    assert html.count('class="die d6 dropped') == 1


def test_the_log_entry_shows_the_expression_and_its_total(client, table, player, other_player):
    campaign = table.campaign
    client.force_login(player)
    quick(client, campaign, "1d20 + 5")
    total = Roll.objects.get().result["answer"]["total"]
    client.force_login(other_player)
    html = log_html(client, campaign)
    assert '<div class="what">1d20+5</div>' in html
    assert f'<span class="quick-total">= {total}</span>' in html


def test_a_quick_roll_draws_its_dice_from_the_sessions_fair_stream(client, table, player):
    from rolls.engine import dice
    from rolls.engine.protocol import draw

    campaign, session = table.campaign, table.session
    client.force_login(player)
    quick(client, campaign, "3d10!+d66")
    roll = Roll.objects.get()
    answer = draw(dice, roll.params, session.seed, roll.seq, "page-nonce")
    assert roll.faces == answer["faces"]
    assert roll.result["answer"]["total"] == answer["total"]


def test_a_quick_roll_works_whatever_the_campaigns_system(client, make_table, player):
    campaign = make_table("2d6", players=1, characters=()).campaign
    client.force_login(player)
    quick(client, campaign, "2d6+1")
    html = log_html(client, campaign)
    assert Roll.objects.get().system == "2d6"
    assert '<dl class="facts">' not in html  # the system's facts are not a quick roll's


def test_the_gm_rolls_too(client, table, gm):
    campaign = table.campaign
    client.force_login(gm)
    quick(client, campaign, "d100")
    assert Roll.objects.get().actor == gm


# --- Visibility ---------------------------------------------------------------------------------


def test_a_secret_roll_is_shown_to_the_roller_and_the_gm_only(
    client, table, gm, player, other_player
):
    campaign = table.campaign
    client.force_login(player)
    quick(client, campaign, "2d6+3", visibility="secret")
    assert '<div class="what">2d6+3</div>' in log_html(client, campaign)
    client.force_login(gm)
    assert '<div class="what">2d6+3</div>' in log_html(client, campaign)
    client.force_login(other_player)
    html = log_html(client, campaign)
    assert '<div class="what">2d6+3</div>' not in html
    assert "A hidden roll was made." in html


def test_the_gms_hidden_roll_shows_players_only_that_a_roll_was_made(client, table, gm, player):
    campaign = table.campaign
    client.force_login(gm)
    quick(client, campaign, "3d6", visibility="hidden")
    client.force_login(player)
    html = log_html(client, campaign)
    assert '<div class="what">3d6</div>' not in html
    assert "A hidden roll was made." in html


def test_a_player_cannot_roll_hidden(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    response = quick(client, campaign, "d6", visibility="hidden")
    assert response.status_code == 422
    assert "Choose who may see this roll." in response.content.decode()
    assert not Roll.objects.exists()


def test_a_players_secret_box_offers_public_and_secret_the_gms_public_and_hidden(
    client, table, gm, player
):
    campaign = table.campaign
    client.force_login(player)
    html = log_html(client, campaign)
    assert 'value="secret"' in html
    assert 'value="hidden"' not in html
    client.force_login(gm)
    html = log_html(client, campaign)
    assert 'value="hidden"' in html


# --- Idempotency and the sequence ---------------------------------------------------------------


def test_a_repeated_key_rolls_once(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    key = str(uuid.uuid4())
    first = quick(client, campaign, "2d6", key=key)
    again = quick(client, campaign, "2d6", key=key)
    assert Roll.objects.count() == 1
    assert first.status_code == again.status_code == 200


def test_quick_rolls_and_tests_share_the_sessions_sequence(client, table, player):
    campaign, session = table.campaign, table.session
    client.force_login(player)
    quick(client, campaign, "d6")
    quick(client, campaign, "d8")
    assert list(Roll.objects.order_by("seq").values_list("seq", flat=True)) == [1, 2]
    session.refresh_from_db()
    assert session.last_seq == 2


# --- Who may roll -------------------------------------------------------------------------------


def test_an_outsider_gets_404_and_rolls_nothing(client, table, outsider):
    campaign = table.campaign
    client.force_login(outsider)
    assert quick(client, campaign).status_code == 404
    assert not Roll.objects.exists()


def test_an_anonymous_visitor_is_sent_to_log_in(client, table):
    campaign = table.campaign
    response = quick(client, campaign)
    # The page's htmx request takes the whole page there (config.redirects.HtmxLoginMiddleware).
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(f"{reverse('login')}?next=")
    assert not Roll.objects.exists()


# --- Messages -----------------------------------------------------------------------------------


def test_a_bad_expression_is_refused_with_where_it_cannot_be_read(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    response = quick(client, campaign, "2d6+x")
    html = response.content.decode()
    assert response.status_code == 422
    assert "Cannot read “x” at position 5" in html
    assert 'value="2d6+x"' in html  # what was typed is kept
    assert not Roll.objects.exists()


def test_more_than_two_hundred_dice_are_refused(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    response = quick(client, campaign, "201d6")
    assert response.status_code == 422
    assert "at most 200 dice can be rolled at once" in response.content.decode()


def test_an_explosion_chain_that_could_pass_the_cap_is_refused(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    response = quick(client, campaign, "20d6!")
    assert response.status_code == 422
    assert "explosions counted" in response.content.decode()


def test_a_bad_expression_is_refused_in_polish_for_a_polish_reader(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    response = quick(client, campaign, "2d6+x", headers={**HX, "HTTP_ACCEPT_LANGUAGE": "pl"})
    html = response.content.decode()
    assert "Nie da się odczytać „x” na pozycji 5: oczekiwano: liczba, kość taka jak d6" in html


def test_a_malformed_key_is_refused_and_the_expression_kept(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    response = quick(client, campaign, "2d6", key="not-a-uuid")
    html = response.content.decode()
    assert response.status_code == 400
    assert "malformed" in html
    assert 'value="2d6"' in html


def test_no_running_session_is_refused_with_a_message(client, table, player):
    campaign, session = table.campaign, table.session
    end(session)
    client.force_login(player)
    response = quick(client, campaign, "d6")
    assert response.status_code == 409
    assert "No game session is running" in response.content.decode()


def test_a_malformed_nonce_is_refused(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    response = quick(client, campaign, "d6", nonce="not a nonce!")
    assert response.status_code == 409
    assert "malformed" in response.content.decode()


def test_without_javascript_a_roll_returns_to_the_page_it_came_from(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    page = reverse("dashboard", args=[campaign.pk])
    response = quick(client, campaign, "d6", headers={}, next=page)
    assert (response.status_code, response["Location"]) == (302, page)


def test_without_javascript_a_foreign_next_is_not_followed(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    response = quick(client, campaign, "d6", headers={}, next="https://evil.example/")
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])


def test_without_javascript_a_bad_expression_comes_back_on_a_page_with_the_message(
    client, table, player
):
    campaign = table.campaign
    client.force_login(player)
    response = quick(client, campaign, "2d", headers={})
    html = response.content.decode()
    assert response.status_code == 422
    assert "<html" in html
    assert "the number of sides expected" in html


# --- On every table page ------------------------------------------------------------------------


def test_the_box_is_on_the_sheet_the_session_page_and_the_dashboard(client, table, gm, player):
    campaign, session = table.campaign, table.session
    data = get_system(campaign.system).sheet.default_data(campaign)
    hero = Character.objects.create(campaign=campaign, owner=player, name="Hero", data=data)
    client.force_login(player)
    url = reverse("quick_roll", args=[campaign.pk])
    sheet = client.get(reverse("character_detail", args=[campaign.pk, hero.pk]))
    page = client.get(reverse("session_detail", args=[campaign.pk, session.pk]))
    assert url in sheet.content.decode()
    assert url in page.content.decode()
    client.force_login(gm)
    assert url in client.get(reverse("dashboard", args=[campaign.pk])).content.decode()


def test_the_box_is_gone_once_the_session_has_ended(client, table, player):
    campaign, session = table.campaign, table.session
    end(session)
    client.force_login(player)
    assert reverse("quick_roll", args=[campaign.pk]) not in log_html(client, campaign)


# --- Live and checkable -------------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_quick_roll_reaches_another_players_socket(make_table, player, other_player):
    table = await sync_to_async(make_table)(characters=())
    campaign, session = table.campaign, table.session
    socket = await sync_to_async(socket_for)(other_player, campaign)
    assert (await socket.connect())[0]
    await socket.send_json_to({"type": "since", "session": session.pk, "seq": 0})
    assert (await socket.receive_json_from(timeout=3))["type"] == "synced"

    def roll_as_player():
        client = Client()
        client.force_login(player)
        quick(client, campaign, "2d6+3")

    await sync_to_async(roll_as_player)()
    message = await socket.receive_json_from(timeout=3)
    assert message["type"] == "entry"
    assert '<div class="what">2d6+3</div>' in message["html"]
    await socket.disconnect()


def test_the_export_of_quick_rolls_checks_out(client, table, gm, player):
    campaign, session = table.campaign, table.session
    client.force_login(player)
    quick(client, campaign, "4d6kh3+2")
    quick(client, campaign, "3d10!-d4", visibility="secret")
    end(session)
    client.force_login(gm)
    report = check_document(json.loads(export(client, session)))
    assert report.matched == [1, 2]
    assert report.ok


def test_the_offline_checker_verifies_a_quick_roll(client, table, player, tmp_path):
    campaign, session = table.campaign, table.session
    client.force_login(player)
    quick(client, campaign, "2d20dl1+d66")
    end(session)
    result = run_checker(tmp_path, export(client, session))
    assert result.returncode == 0, result.stdout
    assert "1 of 1 entries match" in result.stdout


def test_the_offline_checker_catches_a_forged_quick_total(client, table, player, tmp_path):
    campaign, session = table.campaign, table.session
    client.force_login(player)
    quick(client, campaign, "2d6+3")
    end(session)
    document = json.loads(export(client, session))
    document["entries"][0]["result"]["total"] += 1
    result = run_checker(tmp_path, json.dumps(document))
    assert result.returncode == 1
    assert "#1: MISMATCH" in result.stdout


def test_the_markdown_export_gives_a_quick_rolls_total(client, table, player):
    campaign, session = table.campaign, table.session
    client.force_login(player)
    quick(client, campaign, "d6+1")
    total = Roll.objects.get().result["answer"]["total"]
    assert f"**= {total}**" in export(client, session, "md")


# --- Again: the member's last expressions (issue 28 item 5) -------------------------------------


def test_the_box_offers_the_members_last_expressions_newest_first_each_once(client, table, player):
    client.force_login(player)
    for expression in ("d20", "2d6+3", "d20", "4d6kh3"):
        quick(client, table.campaign, expression)
    html = quick(client, table.campaign, "d100").content.decode()
    offered = re.findall(r'name="again" value="([^"]+)"', html)
    assert offered == ["d100", "4d6kh3", "d20", "2d6+3"]


def test_the_box_offers_at_most_five_expressions(client, table, player):
    client.force_login(player)
    for sides in (4, 6, 8, 10, 12, 20):
        quick(client, table.campaign, f"d{sides}")
    html = log_html(client, table.campaign)
    assert re.findall(r'name="again" value="([^"]+)"', html) == ["d20", "d12", "d10", "d8", "d6"]


def test_another_members_expressions_are_not_offered(client, table, player, other_player):
    client.force_login(player)
    quick(client, table.campaign, "3d10!")
    client.force_login(other_player)
    assert 'name="again"' not in log_html(client, table.campaign)


def test_a_click_on_an_offered_expression_rolls_it_again(client, table, player):
    client.force_login(player)
    quick(client, table.campaign, "4d6kh3")
    response = quick(client, table.campaign, "", again="4d6kh3")
    assert response.status_code == 200
    assert [r.params["expression"] for r in Roll.objects.order_by("seq")] == ["4d6kh3", "4d6kh3"]


def test_a_forged_expression_to_roll_again_is_refused_like_a_typed_one(client, table, player):
    client.force_login(player)
    response = quick(client, table.campaign, "", again="999d999")
    assert response.status_code == 422
    assert not Roll.objects.exists()
