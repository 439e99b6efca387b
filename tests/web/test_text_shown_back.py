"""Members' text shown back as it may be shown (issue 37 item 3): no control character a person
typed comes back in a refusal or a field (the hostile sweep holds every form to it), and text
whose direction could reorder the app's words around it (right-to-left letters, U+202E RIGHT-TO-
LEFT OVERRIDE) is isolated: ``<bdi>`` in a page, U+2068...U+2069 in a plain export."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from config.member_text import isolated, isolated_text
from rolls.turns import fight
from tests.web.test_chat import say
from tests.web.test_quick_dice import log_html, quick

pytestmark = [pytest.mark.django_db, pytest.mark.table(characters=[("Brunhilda", {})])]

RLO = "\u202e"


def test_a_nul_in_quick_dice_is_named_not_shown_back(client, table, player):
    client.force_login(player)
    page = quick(client, table.campaign, "2d6\x00+1").content.decode()
    assert "\x00" not in page
    assert "Cannot read “U+0000” at position 4" in page
    assert 'value="2d6+1"' in page


def test_an_escape_sequence_in_a_refused_line_of_chat_is_not_shown_back(client, table, player):
    client.force_login(player)
    response = say(client, table, "hej\x1b[31m!")
    page = response.content.decode()
    assert response.status_code == 422
    assert "\x1b" not in page
    assert "hej[31m!" in page  # the rest of what was typed stays in the box


def test_a_line_of_chat_that_overrides_direction_is_isolated_in_the_log(client, table, player):
    client.force_login(player)
    say(client, table, f"abc{RLO}def")
    assert f'<p class="chat-text"><bdi>abc{RLO}def</bdi></p>' in log_html(client, table.campaign)


def test_a_name_that_overrides_direction_cannot_reorder_who_rolled_it(client, table, player):
    table.hero.name = f"Zła{RLO}"
    table.hero.save()
    client.force_login(player)
    say(client, table, "hej", speaker=f"c{table.hero.pk}")
    page = log_html(client, table.campaign)
    assert f'<strong class="who"><bdi>Zła{RLO}</bdi></strong>' in page
    assert re.search(r"\(by (<bdi>)?player(</bdi>)?\)", page)


def test_a_name_that_overrides_direction_is_isolated_in_the_turn_bar(client, table, other_player):
    table.hero.name = f"Zła{RLO}"
    table.hero.save()
    fight.start_turn(table.session, table.hero)
    client.force_login(other_player)
    bar = client.get(reverse("turn_bar", args=[table.campaign.pk])).content.decode()
    assert f"<bdi>Zła{RLO}</bdi>" in bar


def test_left_to_right_text_is_written_as_it_is():
    assert (isolated("Brunhilda <z Gór>"), isolated_text("Brunhilda")) == (
        "Brunhilda &lt;z Gór&gt;",
        "Brunhilda",
    )


def test_right_to_left_letters_are_isolated_too():
    assert isolated("שלום") == "<bdi>שלום</bdi>"
    assert isolated_text("שלום") == "\u2068שלום\u2069"


def test_the_markdown_export_isolates_a_line_that_overrides_direction(client, table, player):
    client.force_login(player)
    say(client, table, f"abc{RLO}def")
    url = reverse("session_export", args=[table.campaign.pk, table.session.pk, "md"])
    assert f"player — \u2068abc{RLO}def\u2069\n" in client.get(url).content.decode()


def test_a_refusal_shown_back_without_a_control_character_says_its_own_length(
    client, table, player
):
    """The character is taken out after the answer's length was counted: a length left as it
    was is longer than the answer, and the server dropped it (uvicorn: "Response content
    shorter than Content-Length"), so a page that sent a bell in a line of chat got nothing."""
    client.force_login(player)
    response = say(client, table, "hej\x07!")
    assert response.status_code == 422
    assert int(response["Content-Length"]) == len(response.content)
