"""The GM's card follows the player's panel on a called test: the player's current choices are
kept as a small draft (no new revision), the card's odds are the ones the player will roll, and
after the roll the card shows the entry."""

import uuid

import pytest
from django.urls import reverse

from campaigns.live import user_group
from rolls.models import PendingTest
from rolls.pending import actions as pending
from rolls.templatetags.roll_log import percent
from tests.web.test_pending_tests import TABLE, roll_form

pytestmark = [pytest.mark.django_db, TABLE]


@pytest.fixture
def called(table, gm):
    hero, session = table.hero, table.session
    return pending.call_test(
        session=session, character=hero, gm=gm, target={"attribute": "BUDOWA", "skill": ["WALKA"]}
    )


@pytest.fixture
def announced(monkeypatch):
    sent = []
    monkeypatch.setattr(
        pending, "broadcast_on_commit", lambda group, event: sent.append((group, event))
    )
    return sent


def change_panel(client, test, **choices):
    hero = test.character
    url = reverse("test_panel", args=[hero.campaign_id, hero.pk])
    return client.post(url, {"pending": test.pk, "revision": test.revision, **choices})


def card_html(client, test, gm):
    client.force_login(gm)
    return client.get(
        reverse("dashboard_pending", args=[test.character.campaign_id])
    ).content.decode()


def test_a_players_change_on_a_called_test_is_kept_as_the_draft(client, called, player):
    client.force_login(player)
    change_panel(client, called, trait=["0"], visibility="public")
    called.refresh_from_db()
    assert called.draft == {"trait": ["0"], "visibility": ["public"]}
    assert called.revision == 1


def test_the_draft_tells_the_gms_pages_only(client, called, player, gm, announced):
    client.force_login(player)
    change_panel(client, called, trait=["0"])
    assert [group for group, _event in announced] == [user_group(gm.pk)]
    assert announced[0][1]["draft"] is True


def test_the_same_choices_again_tell_nobody(client, called, player, announced):
    client.force_login(player)
    change_panel(client, called, trait=["0"])
    change_panel(client, called, trait=["0"])
    assert len(announced) == 1


def test_the_gms_card_shows_the_odds_the_player_will_roll(client, called, player, gm):
    client.force_login(player)
    panel = change_panel(client, called, trait=["0", "1"]).context["panel"]
    html = card_html(client, called, gm)
    assert f"<b>{percent(panel.success)}</b> success, as the player will roll it now" in html
    assert "+3 bonus dice: traits (Rycerz 2, szermierka 1)" in html


def test_the_card_without_a_draft_shows_the_test_as_called(client, called, gm):
    html = card_html(client, called, gm)
    assert "success, as the player will roll it now" in html
    assert "traits (" not in html


def test_the_gm_viewing_the_players_panel_does_not_change_the_draft(client, called, gm):
    client.force_login(gm)
    change_panel(client, called, trait=["0"])
    called.refresh_from_db()
    assert called.draft == {}


def test_another_player_cannot_write_the_draft(client, called, other_player):
    client.force_login(other_player)
    assert change_panel(client, called, trait=["0"]).status_code == 404
    called.refresh_from_db()
    assert called.draft == {}


def test_the_panel_opened_again_after_a_gm_change_keeps_the_players_choices(
    client, called, player, gm
):
    client.force_login(player)
    change_panel(client, called, trait=["1"])
    pending.change_test(called.pk, gm, "add_dice", kind="penalty", amount=2, source="błoto")
    url = reverse("test_panel", args=[called.character.campaign_id, called.character.pk])
    panel = client.get(url, {"pending": called.pk}).context["panel"]
    assert panel.context["ticked"] == [1]
    assert (panel.params["bonus"], panel.params["penalty"]) == (1, 2)


def test_a_forged_huge_draft_is_kept_small(client, called, player):
    client.force_login(player)
    change_panel(client, called, trait=["x" * 5000] * 500, **{f"f{i}": "1" for i in range(300)})
    called.refresh_from_db()
    assert len(called.draft) <= pending.DRAFT_KEYS
    assert all(len(v) <= pending.DRAFT_VALUES for v in called.draft.values())
    assert all(len(s) <= pending.DRAFT_CHARS for v in called.draft.values() for s in v)


def test_after_the_roll_the_card_shows_the_entry(client, called, player, gm):
    client.force_login(player)
    hero = called.character
    client.post(reverse("test_roll", args=[hero.campaign_id, hero.pk]),
                roll_form(called, revision=1, trait=["0"]))  # fmt: skip
    called.refresh_from_db()
    html = card_html(client, called, gm)
    assert f'data-rolled-seq="{called.roll.seq}"' in html
    assert "traits (Rycerz 2)" in html
    assert 'name="op" value="add_dice"' not in html


def test_a_new_call_replaces_the_rolled_card(client, called, player, gm):
    client.force_login(player)
    hero = called.character
    client.post(reverse("test_roll", args=[hero.campaign_id, hero.pk]), roll_form(called, 1))
    pending.call_test(session=called.session, character=hero, gm=gm, target={"attribute": "DUCH"})
    html = card_html(client, called, gm)
    assert "data-rolled-seq" not in html
    assert "Brunhilda: DUCH 4" in html


def test_a_called_off_test_leaves_no_card(client, called, gm):
    pending.cancel_test(called.pk, gm)
    assert "pending-card" not in card_html(client, called, gm)


def test_the_draft_keeps_neither_the_key_nor_the_revision(client, called, player):
    client.force_login(player)
    change_panel(client, called, trait=["0"], key=str(uuid.uuid4()))
    assert set(PendingTest.objects.get(pk=called.pk).draft) == {"trait"}
