"""The table's chat (issue 28 item 1): a line from any member goes into the session's log as an
entry of its own, to everyone, to the GM only, or whispered to one member; bad input, a forged
recipient or speaker, an outsider and a removed member are refused with a sentence and send
nothing."""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import cache
from django.urls import reverse

from campaigns.models import Membership
from campaigns.sessions import end_session
from rolls.log.export import as_csv
from rolls.log.reading import entries_for, page_before
from rolls.models import Roll, Visibility

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table("fasttest", characters=[("Brunhilda", {}), ("Ulryk", {})]),
]

HX = {"HTTP_HX_REQUEST": "true"}


def say(client, table, text="Witajcie!", *, htmx=True, **fields):
    url = reverse("say_line", args=[table.campaign.pk])
    data = {"text": text, "to": "all", "key": str(uuid.uuid4()), **fields}
    return client.post(url, data, **(HX if htmx else {}))


def lines():
    return list(Roll.objects.filter(kind="chat").order_by("seq"))


def seen_by(user, table) -> list[str]:
    """The chat texts this user's log page shows, oldest first."""
    is_gm = table.campaign.is_gm(user)
    entries, _earlier = page_before(table.session, user, is_gm)
    return [e["params"]["text"] for e in reversed(entries) if e.get("kind") == "chat"]


def test_a_players_line_to_everyone_is_an_entry_of_the_log_with_its_author(client, table, player):
    client.force_login(player)
    response = say(client, table, "  Witajcie,   drużyno! ")
    assert response.status_code == 200
    [line] = lines()
    assert (line.kind, line.visibility, line.actor_id) == ("chat", Visibility.PUBLIC, player.pk)
    assert line.params == {"note": "chat", "text": "Witajcie, drużyno!"}
    assert line.seq == table.session.rolls.count()
    assert f"Sent (#{line.seq})." in response.content.decode()


def test_every_member_reads_a_line_to_everyone(client, table, player, other_player, gm):
    client.force_login(player)
    say(client, table, "Na most!")
    for member in (player, other_player, gm):
        assert seen_by(member, table) == ["Na most!"]


def test_a_line_spoken_as_the_players_character_carries_the_characters_name(client, table, player):
    client.force_login(player)
    hero = table.characters[0]
    say(client, table, "Za mną!", speaker=f"c{hero.pk}")
    [line] = lines()
    assert (line.character_id, line.character_name) == (hero.pk, "Brunhilda")
    client.force_login(player)
    page = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert "Brunhilda" in page
    assert "Za mną!" in page


def test_a_player_cannot_speak_as_another_players_character(client, table, player):
    client.force_login(player)
    other = table.characters[1]
    response = say(client, table, speaker=f"c{other.pk}")
    assert response.status_code == 422
    assert "not at this table now" in response.content.decode()
    assert lines() == []


def test_the_gm_speaks_as_an_npc(client, make_table, gm):
    table = make_table("fasttest", npcs=[("Troll", [])])
    client.force_login(gm)
    say(client, table, "Kto idzie?", speaker=f"n{table.npc.pk}")
    [line] = lines()
    assert (line.npc_id, line.character_name) == (table.npc.pk, "Troll")


def test_a_line_to_the_gm_reaches_its_author_and_the_gm_only(
    client, table, player, other_player, gm, third
):
    client.force_login(player)
    say(client, table, "Mam plan.", to="gm")
    [line] = lines()
    assert line.visibility == Visibility.SECRET
    assert seen_by(player, table) == seen_by(gm, table) == ["Mam plan."]
    assert seen_by(other_player, table) == seen_by(third, table) == []


def test_a_whisper_reaches_its_author_its_reader_and_the_gm_only(
    client, table, player, other_player, gm, third
):
    client.force_login(player)
    say(client, table, "Nie ufaj mu.", to=f"u{other_player.pk}")
    [line] = lines()
    assert (line.visibility, line.recipient_id) == (Visibility.WHISPER, other_player.pk)
    for member in (player, other_player, gm):
        assert seen_by(member, table) == ["Nie ufaj mu."]
    assert seen_by(third, table) == []


def test_a_whisper_names_its_reader_in_the_log(client, table, player, other_player):
    client.force_login(player)
    say(client, table, "Cicho.", to=f"u{other_player.pk}")
    client.force_login(other_player)
    page = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert f"whisper to {other_player.get_username()}" in page


def test_someone_else_gets_not_even_a_trace_of_a_whisper(
    client, table, player, other_player, third
):
    client.force_login(player)
    say(client, table, "Sekret.", to=f"u{other_player.pk}")
    [line] = lines()
    entries = entries_for(table.session, third, False)
    assert [e["seq"] for e in entries if e["seq"] == line.seq] == []
    client.force_login(third)
    page = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert f'id="roll-{line.session_id}-{line.seq}"' not in page
    assert "A hidden roll was made" not in page


def test_the_gms_note_to_self_is_the_gms_alone(client, table, gm, player):
    client.force_login(gm)
    say(client, table, "Troll czeka pod mostem.", to="gm")
    [line] = lines()
    assert line.visibility == Visibility.HIDDEN
    assert seen_by(gm, table) == ["Troll czeka pod mostem."]
    assert seen_by(player, table) == []


def test_the_gm_whispers_to_a_player(client, table, gm, player, other_player):
    client.force_login(gm)
    say(client, table, "Słyszysz szept.", to=f"u{player.pk}")
    assert seen_by(player, table) == ["Słyszysz szept."]
    assert seen_by(other_player, table) == []


def test_a_line_is_escaped_where_the_log_shows_it(client, table, player, other_player):
    client.force_login(player)
    say(client, table, "<script>alert(1)</script> & <b>bold</b>")
    client.force_login(other_player)
    page = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in page


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Write something first."),
        ("   \t ", "Write something first."),
        ("x" * 401, "at most 400 characters"),
        ("zły\x00znak", "remove it"),
        ("dzwonek\x07", "remove it"),
    ],
    ids=["empty", "blank", "too long", "NUL", "control character"],
)
def test_a_bad_line_is_refused_with_the_reason_and_kept_in_the_box(
    client, table, player, text, message
):
    client.force_login(player)
    response = say(client, table, text)
    assert response.status_code == 422
    body = response.content.decode()
    assert message in body
    assert 'role="alert"' in body
    assert lines() == []


def test_a_line_of_the_longest_length_is_sent(client, table, player):
    client.force_login(player)
    assert say(client, table, "y" * 400).status_code == 200
    assert len(lines()[0].params["text"]) == 400


@pytest.mark.parametrize("to", ["u999999", "everyone", "u", "uabc", ""])
def test_a_forged_recipient_is_refused_and_nothing_is_sent(client, table, player, to):
    client.force_login(player)
    response = say(client, table, "Psst.", to=to)
    assert response.status_code == 422
    assert lines() == []


def test_a_whisper_to_someone_who_left_the_table_is_refused(client, table, player, other_player):
    Membership.objects.filter(campaign=table.campaign, user=other_player).delete()
    client.force_login(player)
    response = say(client, table, "Jesteś tam?", to=f"u{other_player.pk}")
    assert response.status_code == 422
    assert "not at this table now" in response.content.decode()
    assert lines() == []


def test_a_whisper_to_an_outsider_is_refused(client, table, player, outsider):
    client.force_login(player)
    assert say(client, table, to=f"u{outsider.pk}").status_code == 422
    assert lines() == []


def test_an_outsider_cannot_speak_at_the_table(client, table, outsider):
    client.force_login(outsider)
    assert say(client, table).status_code == 404
    assert lines() == []


def test_a_removed_member_cannot_speak_at_the_table(client, table, other_player):
    Membership.objects.filter(campaign=table.campaign, user=other_player).delete()
    client.force_login(other_player)
    assert say(client, table).status_code == 404
    assert lines() == []


def test_a_visitor_who_is_not_logged_in_is_sent_to_log_in(client, table):
    response = say(client, table, htmx=False)
    assert response.status_code == 302
    assert reverse("login") in response["Location"]
    assert lines() == []


def test_nothing_is_said_without_a_running_session(client, table, player):
    end_session(table.session)
    client.force_login(player)
    response = say(client, table, "Halo?")
    assert response.status_code == 409
    assert "No game session is running" in response.content.decode()
    assert "Halo?" in response.content.decode()  # the line stays in the box
    assert lines() == []


def test_a_line_sent_twice_with_its_key_is_said_once(client, table, player):
    client.force_login(player)
    key = str(uuid.uuid4())
    say(client, table, "Raz.", key=key)
    say(client, table, "Raz.", key=key)
    assert len(lines()) == 1


def test_a_line_without_a_key_is_refused_as_malformed(client, table, player):
    client.force_login(player)
    response = say(client, table, key="not-a-key")
    assert response.status_code in (400, 422)
    assert lines() == []


def test_a_member_writing_faster_than_a_table_reads_is_refused_and_keeps_the_line(
    client, table, player, settings
):
    cache.clear()  # the count starts at 0: a user of an earlier test may have this pk
    settings.CHAT_RATE_LIMIT = 3
    settings.RATE_WINDOW_SECONDS = 3600  # the whole test in one window
    client.force_login(player)
    for n in range(3):
        assert say(client, table, f"Linia {n}").status_code == 200
    response = say(client, table, "Czwarta")
    assert response.status_code == 429
    assert "faster than any table reads" in response.content.decode()
    # Shown where the page shows refusals: the box, and the line typed in it, stay as they are.
    assert response["HX-Retarget"] == "#request-refusal"
    assert len(lines()) == 3
    cache.clear()


def test_a_plain_post_goes_back_to_the_page_it_came_from(client, table, player):
    client.force_login(player)
    sheet = reverse("character_detail", args=[table.campaign.pk, table.characters[0].pk])
    response = say(client, table, "Bez skryptów.", htmx=False, next=sheet)
    assert (response.status_code, response["Location"]) == (302, sheet)
    assert lines()[0].params["text"] == "Bez skryptów."


def test_a_plain_post_never_goes_back_to_another_site(client, table, player):
    client.force_login(player)
    response = say(client, table, "Hej.", htmx=False, next="https://evil.example/")
    assert response.status_code == 302
    assert "evil.example" not in response["Location"]


def test_the_box_is_beside_the_log_on_the_sheet_and_the_dashboard(client, table, player, gm):
    client.force_login(player)
    sheet = reverse("character_detail", args=[table.campaign.pk, table.characters[0].pk])
    assert 'id="say"' in client.get(sheet).content.decode()
    client.force_login(gm)
    page = client.get(reverse("dashboard", args=[table.campaign.pk])).content.decode()
    assert 'id="say"' in page
    assert "to the GM only" not in page
    assert "to me only (a note)" in page


def test_the_box_offers_the_other_players_but_not_the_player_themself(
    client, table, player, other_player
):
    client.force_login(player)
    page = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert f'value="u{other_player.pk}"' in page
    assert f'value="u{player.pk}"' not in page


def test_the_log_offers_to_show_rolls_only(client, table, player):
    client.force_login(player)
    say(client, table, "Hej.")
    page = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert "data-log-rolls-only" in page
    assert 'data-kind="chat"' in page


def test_a_chat_line_is_not_counted_among_the_dice_of_the_statistics(client, table, player):
    client.force_login(player)
    say(client, table, "Hej.")
    response = client.get(reverse("session_stats", args=[table.campaign.pk, table.session.pk]))
    assert response.status_code == 200


def test_the_csv_export_of_the_author_holds_the_whisper_and_names_its_reader(
    client, table, player, other_player
):
    client.force_login(player)
    say(client, table, "Tylko dla ciebie.", to=f"u{other_player.pk}")
    text = as_csv(entries_for(table.session, player, False))
    assert f"whispered to {other_player.get_username()}: Tylko dla ciebie." in text


def test_the_line_says_it_in_polish_for_a_polish_reader(client, table, player, other_player):
    client.force_login(player)
    say(client, table, "Cicho.", to=f"u{other_player.pk}")
    client.force_login(other_player)
    page = client.get(
        reverse("session_log", args=[table.campaign.pk]), HTTP_ACCEPT_LANGUAGE="pl"
    ).content.decode()
    assert "Cicho." in page


def test_seating_more_players_offers_each_of_them(client, table, player, make_user):
    fourth = make_user("czwarty")
    Membership.objects.create(campaign=table.campaign, user=fourth)
    client.force_login(player)
    page = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert f'value="u{fourth.pk}"' in page
