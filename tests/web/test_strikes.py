"""The GM's correction, append-only (issue 28 item 4): the GM strikes an entry with a reason;
it stays in the log struck through, with who and why, for everyone who could see it; nothing is
deleted, its dice can still be checked, the statistics count it, and the conditions it left may
go in the same step. Players, outsiders, a finished session and bad input are refused."""

from __future__ import annotations

import html
import re
import uuid

import pytest
from django.urls import reverse

from campaigns.models import Membership
from campaigns.sessions import end_session
from rolls.conditions import actions as conditions
from rolls.conditions.in_force import Spec
from rolls.log.export import as_csv, as_markdown
from rolls.log.reading import entries_for, page_before
from rolls.models import Condition, Roll, Seal, Strike, Visibility
from rolls.strikes.actions import STRUCK
from sheets.actions import changed_numbers
from tests.web.live import panel_url, roll
from tests.web.test_panel_fasttest import SHEET

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table("fasttest", characters=[("Brunhilda", {}), ("Ulryk", {})]),
]

HX = {"HTTP_HX_REQUEST": "true"}


def strike(client, table, target: Roll, reason="zła umiejętność", *, htmx=True, **fields):
    data = {"roll": str(target.pk), "reason": reason, "key": str(uuid.uuid4()), **fields}
    url = reverse("strike_entry", args=[table.campaign.pk])
    return client.post(url, data, **(HX if htmx else {}))


def text(response) -> str:
    return html.unescape(response.content.decode())


def shown(user, table, seq) -> dict | None:
    entries, _ = page_before(table.session, user, table.campaign.is_gm(user))
    return next((e for e in entries if e["seq"] == seq), None)


def test_the_gm_strikes_an_entry_with_a_reason_and_it_stays_in_the_log(client, table, gm, player):
    mistaken = roll(table.session, player)
    client.force_login(gm)
    response = strike(client, table, mistaken, "zła umiejętność")
    assert response.status_code == 200
    struck = Strike.objects.get(roll=mistaken)
    assert (struck.by_id, struck.reason) == (gm.pk, "zła umiejętność")
    assert Roll.objects.filter(pk=mistaken.pk, faces=mistaken.faces).exists()  # nothing deleted
    entry = struck.entry
    assert (entry.kind, entry.parent_id, entry.seq) == (STRUCK, mistaken.pk, mistaken.seq + 1)
    assert f"#{mistaken.seq} struck" in response.content.decode()


def test_every_member_who_could_see_it_reads_it_struck_with_who_and_why(
    client, table, gm, player, other_player
):
    mistaken = roll(table.session, player)
    client.force_login(gm)
    strike(client, table, mistaken, "pomyłka")
    for member in (gm, player, other_player):
        assert shown(member, table, mistaken.seq)["struck"] == {
            "seq": mistaken.seq + 1, "by": gm.get_username(), "reason": "pomyłka"
        }  # fmt: skip
    client.force_login(other_player)
    page = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert "struck" in page
    assert f"Struck by {gm.get_username()} (#{mistaken.seq + 1}): pomyłka" in page


def test_a_secret_rolls_strike_is_as_secret_as_the_roll(client, table, gm, player, other_player):
    secret = roll(table.session, player, visibility=Visibility.SECRET)
    client.force_login(gm)
    strike(client, table, secret, "tajny błąd")
    entry = Strike.objects.get(roll=secret).entry
    assert entry.visibility == Visibility.SECRET
    assert shown(player, table, entry.seq)["redacted"] is False
    assert shown(other_player, table, entry.seq)["redacted"] is True
    assert "tajny błąd" not in str(shown(other_player, table, secret.seq))


def test_a_whispers_strike_reaches_only_those_who_read_the_whisper(
    client, table, gm, player, other_player, make_user
):
    third = make_user("trzeci")
    Membership.objects.create(campaign=table.campaign, user=third)
    client.force_login(player)
    client.post(
        reverse("say_line", args=[table.campaign.pk]),
        {"text": "Sekret.", "to": f"u{other_player.pk}", "key": str(uuid.uuid4())},
        **HX,
    )
    whisper = Roll.objects.get(kind="chat")
    client.force_login(gm)
    strike(client, table, whisper, "nie na miejscu")
    entry = Strike.objects.get(roll=whisper).entry
    assert (entry.visibility, entry.recipient_id) == (Visibility.WHISPER, other_player.pk)
    assert shown(other_player, table, entry.seq) is not None
    assert shown(third, table, entry.seq) is None
    assert shown(third, table, whisper.seq) is None


def test_a_struck_entry_can_still_be_checked_once_the_session_ends(client, table, gm, player):
    mistaken = roll(table.session, player)
    client.force_login(gm)
    strike(client, table, mistaken)
    end_session(table.session)
    table.session.refresh_from_db()
    client.force_login(player)
    page = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    assert f'id="roll-{table.session.pk}-{mistaken.seq}"' in page
    assert "data-fair-check" in page


def test_the_statistics_say_how_many_entries_were_struck(client, table, gm, player):
    for _ in range(2):
        mistaken = roll(table.session, player)
        client.force_login(gm)
        strike(client, table, mistaken)
    url = reverse("session_stats", args=[table.campaign.pk, table.session.pk])
    assert "2 entries of this log were struck by the GM" in client.get(url).content.decode()


def test_the_exports_say_who_struck_an_entry_and_why(client, table, gm, player):
    mistaken = roll(table.session, player)
    client.force_login(gm)
    strike(client, table, mistaken, "pomyłka")
    entries = entries_for(table.session, gm, True, newest_first=False)
    assert f"struck by {gm.get_username()} (#{mistaken.seq + 1}): pomyłka" in as_csv(entries)
    markdown = as_markdown(table.session, entries)
    assert f"- **#{mistaken.seq}** " in markdown
    assert "~~" in markdown


def test_the_conditions_a_struck_entry_left_are_cleared_in_the_same_step_when_asked(
    client, table, gm
):
    hero = table.characters[0]
    condition = conditions.add_condition(
        character=hero, actor=gm, spec=Spec(name="oślepiony", effect="penalty", amount=2)
    )
    added = condition.added_entry
    client.force_login(gm)
    strike(client, table, added, "nie ten bohater", clear_conditions="on")
    condition.refresh_from_db()
    assert condition.cleared_entry is not None
    assert condition.cleared_entry.parent_id == Strike.objects.get(roll=added).entry_id


def test_the_conditions_stay_when_the_gm_does_not_ask_to_clear_them(client, table, gm):
    hero = table.characters[0]
    condition = conditions.add_condition(
        character=hero, actor=gm, spec=Spec(name="oślepiony", effect="penalty", amount=2)
    )
    client.force_login(gm)
    strike(client, table, condition.added_entry, "tylko zapis")
    assert Condition.objects.get(pk=condition.pk).cleared_entry is None


def test_the_box_names_the_conditions_an_entry_left(client, table, gm):
    hero = table.characters[0]
    conditions.add_condition(
        character=hero, actor=gm, spec=Spec(name="oślepiony", effect="penalty", amount=2)
    )
    client.force_login(gm)
    page = client.get(reverse("dashboard", args=[table.campaign.pk])).content.decode()
    assert 'id="strike-box"' in page
    assert "left: oślepiony" in page


def test_a_player_cannot_strike(client, table, player):
    mistaken = roll(table.session, player)
    client.force_login(player)
    assert strike(client, table, mistaken).status_code == 404
    assert not Strike.objects.exists()


def test_an_outsider_cannot_strike(client, table, outsider, player):
    mistaken = roll(table.session, player)
    client.force_login(outsider)
    assert strike(client, table, mistaken).status_code == 404
    assert not Strike.objects.exists()


@pytest.mark.parametrize(
    ("reason", "message"),
    [
        ("", "Say why it does not stand."),
        ("   ", "Say why it does not stand."),
        ("x" * 201, "at most 200 characters"),
        ("zły\x00powód", "remove it"),
    ],
    ids=["empty", "blank", "too long", "control character"],
)
def test_a_strike_without_a_good_reason_is_refused(client, table, gm, player, reason, message):
    mistaken = roll(table.session, player)
    client.force_login(gm)
    response = strike(client, table, mistaken, reason)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Strike.objects.exists()


def test_an_entry_of_another_campaign_cannot_be_struck(client, table, gm, make_table):
    other = make_table("fasttest", name="Inny stół", gm=gm, players=1)
    elsewhere = roll(other.session, gm)
    client.force_login(gm)
    response = strike(client, table, elsewhere)
    assert response.status_code == 422
    assert "cannot be struck now" in response.content.decode()
    assert not Strike.objects.exists()


def test_an_entry_is_struck_once(client, table, gm, player):
    mistaken = roll(table.session, player)
    client.force_login(gm)
    strike(client, table, mistaken, "raz")
    response = strike(client, table, mistaken, "dwa")
    assert response.status_code == 422
    assert Strike.objects.get().reason == "raz"


def test_a_strike_sent_twice_with_its_key_strikes_once(client, table, gm, player):
    mistaken = roll(table.session, player)
    client.force_login(gm)
    key = str(uuid.uuid4())
    assert strike(client, table, mistaken, key=key).status_code == 200
    assert Strike.objects.count() == 1
    assert Roll.objects.filter(kind=STRUCK).count() == 1


def test_a_strike_entry_itself_is_not_offered_to_strike(client, table, gm, player):
    mistaken = roll(table.session, player)
    client.force_login(gm)
    strike(client, table, mistaken)
    entry = Strike.objects.get().entry
    assert strike(client, table, entry).status_code == 422


def test_a_sealed_roll_is_not_offered_to_strike(client, table, gm, player):
    sealed = roll(table.session, player)
    Seal.objects.create(roll=sealed, viewers=[player.pk])
    client.force_login(gm)
    assert strike(client, table, sealed).status_code == 422
    assert not Strike.objects.exists()


def test_a_finished_sessions_log_stands(client, table, gm, player):
    mistaken = roll(table.session, player)
    end_session(table.session)
    client.force_login(gm)
    response = strike(client, table, mistaken)
    assert response.status_code == 422
    assert not Strike.objects.exists()


def test_a_plain_post_goes_back_to_the_dashboards_box_with_a_message(client, table, gm, player):
    mistaken = roll(table.session, player)
    client.force_login(gm)
    response = strike(client, table, mistaken, htmx=False)
    assert response.status_code == 302
    assert response["Location"].endswith("#strike-box")
    page = client.get(response["Location"]).content.decode()
    assert f"#{mistaken.seq} struck." in page


def test_the_struck_entry_is_marked_struck_and_the_strike_entry_is_not(client, table, gm, player):
    mistaken = roll(table.session, player)
    client.force_login(gm)
    strike(client, table, mistaken)
    page = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    marked = re.findall(r'<li class="entry [^"]*\bis-struck\b[^"]*" id="roll-\d+-(\d+)"', page)
    assert marked == [str(mistaken.seq)]


# --- Giving back what a struck roll spent or gained on the sheet --------------------------------


@pytest.fixture
def spender(make_table):
    """Brunhilda with two experience dice to spend (FastTest, experience dice on)."""
    return make_table(
        "fasttest",
        settings={"fasttest": {"experience_dice": True}},
        characters=[("Brunhilda", {**SHEET, "experience_dice": 2})],
    )


def spend_one(client, table, player) -> Roll:
    client.force_login(player)
    data = {"attribute": "BUDOWA", "experience": "1", "key": str(uuid.uuid4())}
    client.post(panel_url(table.hero, "test_roll"), data)
    return Roll.objects.get(kind="test")


def experience_dice(table) -> int:
    table.hero.refresh_from_db()
    return table.hero.data["experience_dice"]


def test_a_roll_keeps_what_it_spent_on_the_sheet(client, spender, player):
    spent = spend_one(client, spender, player)
    assert spent.sheet_change == {
        "character": spender.hero.pk, "numbers": [[["experience_dice"], 2, 1]]
    }  # fmt: skip


def test_striking_a_roll_may_give_back_the_experience_die_it_spent(client, spender, gm, player):
    spent = spend_one(client, spender, player)
    client.force_login(gm)
    response = strike(client, spender, spent, "zły test", give_back="on")
    assert response.status_code == 200
    assert experience_dice(spender) == 2


def test_without_asking_a_strike_gives_nothing_back(client, spender, gm, player):
    spent = spend_one(client, spender, player)
    client.force_login(gm)
    strike(client, spender, spent, "zły test")
    assert experience_dice(spender) == 1


def test_the_box_says_what_a_strike_would_give_back(client, spender, gm, player):
    spend_one(client, spender, player)
    client.force_login(gm)
    page = client.get(reverse("dashboard", args=[spender.campaign.pk])).content.decode()
    assert "gives back: Experience dice 1 → 2" in page


def test_a_number_changed_since_the_roll_is_not_given_back_and_nothing_is_struck(
    client, spender, gm, player
):
    spent = spend_one(client, spender, player)
    spender.hero.refresh_from_db()
    spender.hero.data["experience_dice"] = 5  # the GM gave some since
    spender.hero.save()
    client.force_login(gm)
    response = strike(client, spender, spent, "zły test", give_back="on")
    assert response.status_code == 409
    assert "Experience dice changed on Brunhilda's sheet since this roll" in text(response)
    assert experience_dice(spender) == 5
    assert not Strike.objects.exists()


def test_a_roll_that_changed_nothing_on_the_sheet_keeps_no_change(client, spender, player):
    client.force_login(player)
    data = {"attribute": "BUDOWA", "key": str(uuid.uuid4())}
    client.post(panel_url(spender.hero, "test_roll"), data)
    assert Roll.objects.get(kind="test").sheet_change == {}


def test_the_numbers_a_write_changed_are_found_at_any_depth():
    before = {"resources": {"rozmach": 6, "pd": 3}, "funt": 1, "name": "A", "flag": True}
    after = {"resources": {"rozmach": 4, "pd": 3}, "funt": 2, "name": "B", "flag": False}
    assert changed_numbers(before, after) == [[["resources", "rozmach"], 6, 4], [["funt"], 1, 2]]
