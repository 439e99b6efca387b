"""What people type in Roll20 and Discord, in the chat box (issue 40 item 2): ``/r`` rolls quick
dice, ``/w name`` whispers, ``/gm`` speaks to the GM only, ``/me`` is an action, and
``[[1d20+2]]`` rolls in place, with the line's own entry and its fair dice, seen by whom the line
is for. Every refusal says what is wrong, keeps the line in the box (422) and sends nothing."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from campaigns.models import Membership
from campaigns.sessions import end_session
from rolls.chat.commands import MAX_INLINE
from rolls.engine.check import check_document
from rolls.engine.dice import QUICK_KIND
from rolls.log.export import as_csv, as_markdown
from rolls.log.reading import entries_for
from rolls.models import Roll, Visibility
from tests.web.live import socket_for

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table("fasttest", characters=[("Brunhilda", {}), ("Ulryk", {})]),
]

HX = {"HTTP_HX_REQUEST": "true"}


def say(client, table, text, *, headers=None, **fields):
    url = reverse("say_line", args=[table.campaign.pk])
    data = {"text": text, "to": "all", "key": str(uuid.uuid4()), **fields}
    return client.post(url, data, **HX, **(headers or {}))


def lines():
    return list(Roll.objects.filter(kind="chat").order_by("seq"))


def entries():
    return list(Roll.objects.order_by("seq"))


def refused(response, message: str) -> None:
    """The box answers 422 with ``message`` in its alert, and keeps the line typed."""
    body = response.content.decode()
    assert response.status_code == 422, body[:300]
    assert message in body
    assert 'aria-invalid="true"' in body


# --- /r and /roll -----------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["/r", "/roll", "/R"])
def test_slash_r_rolls_quick_dice_as_the_quick_dice_box_does(client, table, player, command, dice):
    dice(4, 5)
    client.force_login(player)
    response = say(client, table, f"{command} 2d6+3")
    assert response.status_code == 200
    [roll] = entries()
    assert (roll.kind, roll.visibility, roll.params) == (
        QUICK_KIND, Visibility.PUBLIC, {"expression": "2d6+3"}
    )  # fmt: skip
    assert roll.result["answer"]["total"] == 12
    assert lines() == []


def test_slash_r_to_the_gm_only_is_a_secret_roll_of_the_player(client, table, player):
    client.force_login(player)
    say(client, table, "/r d20", to="gm")
    [roll] = entries()
    assert (roll.kind, roll.visibility) == (QUICK_KIND, Visibility.SECRET)


def test_slash_r_of_the_gm_to_the_gm_only_is_hidden(client, table, gm):
    client.force_login(gm)
    say(client, table, "/r d20", to="gm")
    assert entries()[0].visibility == Visibility.HIDDEN


def test_slash_r_with_a_bad_expression_says_where_it_is_wrong(client, table, player):
    client.force_login(player)
    response = say(client, table, "/r 2d6+")
    refused(response, "/r 2d6+: The expression ends too early")
    assert 'value="/r 2d6+"' in response.content.decode()
    assert entries() == []


def test_slash_r_cannot_be_whispered(client, table, player, other_player):
    client.force_login(player)
    response = say(client, table, "/r d6", to=f"u{other_player.pk}")
    refused(response, "A roll is for everyone or for the GM only, never a whisper")
    assert entries() == []


def test_slash_r_with_nothing_to_roll_asks_for_an_expression(client, table, player):
    client.force_login(player)
    refused(say(client, table, "/r"), "Type a dice expression, such as 2d6+3.")


# --- /w, /gm, /me -----------------------------------------------------------------------------


def test_slash_w_whispers_to_the_member_named_whatever_the_case(
    client, table, player, other_player
):
    client.force_login(player)
    assert say(client, table, "/w OTHER Nie ufaj mu.").status_code == 200
    [line] = lines()
    assert (line.visibility, line.recipient_id) == (Visibility.WHISPER, other_player.pk)
    assert line.params["text"] == "Nie ufaj mu."


def test_slash_w_to_a_name_nobody_has_is_refused_naming_who_is_there(
    client, table, player, other_player
):
    client.force_login(player)
    response = say(client, table, "/w Ala psst")
    refused(response, "Nobody at this table is called “Ala”; whisper to one of: gm, other.")
    assert 'value="/w Ala psst"' in response.content.decode()
    assert entries() == []


def test_slash_w_to_an_outsider_is_refused_as_to_nobody(client, table, player, outsider):
    client.force_login(player)
    refused(say(client, table, "/w outsider psst"), "Nobody at this table is called “outsider”")
    assert entries() == []


def test_slash_w_to_yourself_is_refused(client, table, player):
    client.force_login(player)
    refused(say(client, table, "/w Player psst"), "“Player” is you: a whisper is for another")
    assert entries() == []


def test_slash_w_without_a_name_or_text_says_how_it_reads(client, table, player):
    client.force_login(player)
    refused(say(client, table, "/w"), "Say whom to whisper to: /w name text.")
    refused(say(client, table, "/w other"), "Write what to whisper after the name: /w other text.")
    assert entries() == []


def test_slash_w_to_the_gm_is_a_line_to_the_gm_only(client, table, player, gm):
    client.force_login(player)
    say(client, table, "/w gm Mam plan.")
    [line] = lines()
    assert (line.visibility, line.recipient_id) == (Visibility.SECRET, None)


def test_slash_gm_speaks_to_the_gm_only_whatever_the_box_says(client, table, player):
    client.force_login(player)
    say(client, table, "/gm Mam plan.", to="all")
    [line] = lines()
    assert (line.visibility, line.params["text"]) == (Visibility.SECRET, "Mam plan.")


def test_slash_me_is_an_action_of_the_speakers_character(client, table, player, other_player):
    client.force_login(player)
    hero = table.characters[0]
    say(client, table, "/me dobywa miecza.", speaker=f"c{hero.pk}")
    [line] = lines()
    assert line.params == {"note": "chat", "text": "dobywa miecza.", "action": True}
    assert line.label == "*Brunhilda* dobywa miecza."
    client.force_login(other_player)
    page = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert '<span class="chat-actor">Brunhilda</span> dobywa miecza.' in page
    assert '<span class="kind">action</span>' in page


def test_slash_me_reads_as_an_action_in_polish(client, table, player):
    client.force_login(player)
    say(client, table, "/me kiwa głową.")
    page = client.get(
        reverse("session_log", args=[table.campaign.pk]), HTTP_ACCEPT_LANGUAGE="pl"
    ).content.decode()
    assert '<span class="kind">czynność</span>' in page


@pytest.mark.parametrize("command", ["/gm", "/me", "/me   "])
def test_a_command_with_nothing_after_it_is_refused(client, table, player, command):
    client.force_login(player)
    refused(say(client, table, command), f"Write something after {command.strip()}.")


@pytest.mark.parametrize("typed", ["/foo bar", "/", "/shrug"])
def test_an_unknown_command_is_refused_listing_the_commands_and_kept(client, table, player, typed):
    client.force_login(player)
    response = say(client, table, typed)
    refused(response, "is not a command here; the commands are: /r or /roll dice, /w name")
    assert f'value="{typed}"' in response.content.decode()
    assert entries() == []


def test_an_unknown_command_is_refused_in_polish(client, table, player):
    client.force_login(player)
    response = say(client, table, "/foo", headers={"HTTP_ACCEPT_LANGUAGE": "pl"})
    assert response.status_code == 422
    assert "nie jest tu poleceniem" in response.content.decode()


def test_a_line_with_a_slash_inside_is_a_plain_line(client, table, player):
    client.force_login(player)
    say(client, table, "i/lub 1/2")
    assert lines()[0].params["text"] == "i/lub 1/2"


# --- [[...]] rolls in place -------------------------------------------------------------------


def test_an_inline_roll_is_rolled_with_the_lines_entry_and_shown_in_place(
    client, table, player, other_player, dice
):
    dice(15)
    client.force_login(player)
    assert say(client, table, "Atakuję: [[1d20+2]]!").status_code == 200
    [line] = entries()
    assert line.kind == "chat"
    assert line.params["inline"] == ["1d20+2"]
    assert line.result["answer"]["inline"] == [
        {"expression": "1d20+2", "total": 17, "dice_rolled": 1}
    ]
    client.force_login(other_player)
    page = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    tip = f"inline-{line.session_id}-{line.seq}-0"
    assert (
        f'Atakuję: <span class="inline-roll" tabindex="0" aria-describedby="{tip}">'
        f'<span class="inline-total">17</span>'
        f'<span class="inline-dice" role="tooltip" id="{tip}"> (1d20+2: 15)</span></span>!'
    ) in page


def test_each_inline_roll_shows_its_own_dice(client, table, player, dice):
    dice(6, 5, 1, 4, 3)
    client.force_login(player)
    say(client, table, "[[4d6kh3]] i [[d8]]")
    page = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert "> (4d6kh3: 6, 5, 1 dropped, 4)</span>" in page
    assert "> (d8: 3)</span>" in page


def test_the_dice_of_a_line_are_its_entrys_fair_dice_and_check_out(client, table, player):
    client.force_login(player)
    say(client, table, "[[3d6]] i [[d20!]]", nonce="page-nonce-1")
    [line] = lines()
    assert line.nonce == "page-nonce-1"
    assert len(line.drawn) == len(line.result["dice"]) >= 4
    end_session(table.session)
    response = client.get(
        reverse("session_export", args=[table.campaign.pk, table.session.pk, "json"])
    )
    report = check_document(json.loads(response.content))
    assert report.ok
    assert report.matched == [line.seq]


def test_the_checker_finds_a_forged_inline_result(client, table, player):
    client.force_login(player)
    say(client, table, "[[d20]]")
    end_session(table.session)
    response = client.get(
        reverse("session_export", args=[table.campaign.pk, table.session.pk, "json"])
    )
    document = json.loads(response.content)
    [entry] = document["entries"]
    entry["result"]["inline"][0]["total"] += 1
    assert check_document(document).mismatched[0][0] == entry["seq"]


def test_the_exports_show_each_inline_roll_with_its_result_and_dice(client, table, player, dice):
    dice(15)
    client.force_login(player)
    say(client, table, "Atakuję: [[1d20+2]]")
    seen = entries_for(table.session, player, False)
    assert "Atakuję: [[1d20+2 = 17]]: (d20:15)" in as_markdown(table.session, seen)
    assert "Atakuję: [[1d20+2 = 17]],d20:15," in as_csv(seen)
    response = client.get(
        reverse("session_export", args=[table.campaign.pk, table.session.pk, "json"])
    )
    [entry] = json.loads(response.content)["entries"]
    assert entry["label"] == "Atakuję: [[1d20+2 = 17]]"
    assert [die["face"] for die in entry["dice"]] == [15]


def test_an_inline_roll_in_a_whisper_reaches_its_two_people_and_the_gm_only(
    client, table, player, other_player, gm, third
):
    client.force_login(player)
    say(client, table, "/w other Mój rzut: [[d20+7]]")
    [line] = lines()
    total = line.result["answer"]["inline"][0]["total"]
    for member in (player, other_player, gm):
        assert [e["seq"] for e in entries_for(table.session, member, member == gm)] == [line.seq]
    assert entries_for(table.session, third, False) == []
    client.force_login(third)
    page = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert "Mój rzut" not in page
    assert "inline-roll" not in page
    assert f'id="roll-{line.session_id}-{line.seq}"' not in page
    markdown = as_markdown(table.session, entries_for(table.session, third, False))
    assert f"= {total}]]" not in markdown


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_inline_roll_in_a_whisper_never_reaches_a_third_players_socket(
    make_table, make_user, player, other_player
):
    table = await sync_to_async(make_table)("fasttest", characters=[("Brunhilda", {})])
    third = await sync_to_async(make_user)("trzeci")
    await sync_to_async(Membership.objects.create)(campaign=table.campaign, user=third)
    socket = await sync_to_async(socket_for)(third, table.campaign)
    ok, _ = await socket.connect()
    assert ok
    await socket.send_json_to({"type": "since", "session": table.session.pk, "seq": 0})
    assert json.loads(await socket.receive_from(timeout=3))["type"] == "synced"
    client = await sync_to_async(table.client)(player)
    await sync_to_async(say)(client, table, "/w other Tajny rzut [[d20]]")
    await sync_to_async(say)(client, table, "Do wszystkich [[d6]]")
    frame = json.loads(await socket.receive_from(timeout=3))
    assert "Do wszystkich" in frame["html"]
    assert "Tajny rzut" not in frame["html"]
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


def test_as_many_inline_rolls_as_allowed_are_rolled(client, table, player):
    client.force_login(player)
    assert say(client, table, " ".join(["[[d6]]"] * MAX_INLINE)).status_code == 200
    assert len(lines()[0].result["answer"]["inline"]) == MAX_INLINE


def test_one_inline_roll_too_many_is_refused(client, table, player):
    client.force_login(player)
    response = say(client, table, " ".join(["[[d6]]"] * (MAX_INLINE + 1)))
    refused(response, f"A line rolls at most {MAX_INLINE} dice expressions in [[...]]; this one")
    assert entries() == []


def test_a_flood_of_inline_rolls_is_refused_and_rolls_nothing(client, table, player):
    client.force_login(player)
    response = say(client, table, "[[d6]]" * 66)
    refused(response, "this one has 66.")
    assert entries() == []


def test_inline_rolls_needing_more_dice_than_a_roll_may_are_refused(client, table, player):
    client.force_login(player)
    response = say(client, table, "[[100d6]] [[100d6]] [[1d6]]")
    refused(response, "rolls may need 201 dice (explosions counted); at most 200 dice")
    assert entries() == []


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("Cios [[2d6+]]", "[[2d6+]]: The expression ends too early"),
        ("[[]]", "[[]]: Type a dice expression, such as 2d6+3."),
        ("[[d0]]", "[[d0]]: At position 2: a die has 1 to 1000 sides, not 0."),
        ("[[[[d6]]", "[[[[d6]]: Cannot read “[” at position 1"),
        ("[[d6]] i [[d8", "A “[[” has no “]]” to close it"),
    ],
    ids=["ends early", "empty", "no sides", "nested brackets", "unclosed"],
)
def test_a_bad_inline_roll_is_refused_saying_where_and_the_line_is_kept(
    client, table, player, typed, message
):
    client.force_login(player)
    response = say(client, table, typed)
    refused(response, message)
    assert f'value="{typed}"' in response.content.decode()
    assert entries() == []


def test_a_bad_inline_roll_is_refused_in_polish(client, table, player):
    client.force_login(player)
    response = say(client, table, "[[2d6+]]", headers={"HTTP_ACCEPT_LANGUAGE": "pl"})
    assert response.status_code == 422
    assert "[[2d6+]]: Wyrażenie kończy się za wcześnie" in response.content.decode()


def test_a_line_too_long_once_its_results_are_written_in_is_refused(client, table, player):
    client.force_login(player)
    typed = "x" * 390 + " [[d6]]"  # 397 typed; 401 as "[[d6 = 6]]"
    response = say(client, table, typed)
    refused(response, "this line could reach 401 characters; a line holds at most 400.")
    assert entries() == []


def test_a_line_whose_results_just_fit_is_sent(client, table, player):
    client.force_login(player)
    assert say(client, table, "x" * 389 + " [[d6]]").status_code == 200


def test_a_forged_inline_text_in_the_log_is_only_text(client, table, player, other_player):
    client.force_login(player)
    forged = '[[d6]]<span class="inline-roll">99</span>" onmouseover="alert(1)'
    say(client, table, forged)
    client.force_login(other_player)
    page = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert '<span class="inline-roll">99</span>' not in page
    assert "&lt;span class=&quot;inline-roll&quot;&gt;99&lt;/span&gt;&quot; onmouseover" in page
    assert len(re.findall(r'<span class="inline-roll" tabindex="0"', page)) == 1


def test_a_character_named_like_a_roll_keeps_its_name_in_the_exports(client, table, player, dice):
    dice(4)
    hero = table.characters[0]
    hero.name = "[[d6]] Brunhilda"
    hero.save()
    client.force_login(player)
    say(client, table, "/me rzuca [[d6]]", speaker=f"c{hero.pk}")
    markdown = as_markdown(table.session, entries_for(table.session, player, False))
    assert "*[[d6]] Brunhilda* rzuca [[d6 = 4]]" in markdown


def test_the_help_says_the_commands_in_polish(client, table, player):
    client.force_login(player)
    page = client.get(
        reverse("session_log", args=[table.campaign.pk]), HTTP_ACCEPT_LANGUAGE="pl"
    ).content.decode()
    assert "<code>/r 2d6+3</code> rzuca kośćmi" in page
