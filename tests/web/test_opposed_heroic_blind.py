"""Heroic effort declared blind in a Caerbannog opposed test (docs/rules-decisions.md, "Decisions
taken for these tests"): the initiator settles without the opponent's result (RULES.md 4.10)
and may declare "heroic effort if it fails" with what they pay with (4.6, 4.12); settling
reveals the opponent's roll and, in the same transaction, a failure is paid and made exactly as
the heroic follow-up makes it, or a note says why nothing was spent."""

from __future__ import annotations

import copy
import html
import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from rolls import actions
from rolls.labels import render, source_line
from rolls.models import Roll, Visibility
from rolls.pending import actions as pending
from tests.web.test_opposed import caerbannog_duel, duel, roll_side
from tests.web.test_opposed_reveal import whole
from tests.web.test_opposed_settle import panel_of, settle
from tests.web.test_panel_caerbannog import SHEET  # Wytrzymałość 8, Determinacja 3, no Rozmach

pytestmark = pytest.mark.django_db

# Not a number on the sheet: nothing is taken off it.
NAME, PRICE = "the duke's favour", "lost for the rest of the story"
OFFER = "Heroic effort if it fails"


@pytest.fixture
def another(make_user):
    return make_user("another")


@pytest.fixture
def caerbannog(make_table, player, other_player, another):
    """Ala's Julio (Atletyka III, 3d10) against Bartek's rival (Dociekliwość II, 3d8); a third
    player without a side sits at the table too."""
    sheets = (copy.deepcopy(SHEET), copy.deepcopy(SHEET))
    return make_table(**duel("caerbannog", *sheets), players=[player, other_player, another])


@pytest.fixture
def duel_of(client, gm, player, other_player, caerbannog, dice):
    """``duel_of(a_faces, b_faces, **a_more)``: Julio rolls his side (``a_more``: the panel's
    other fields, e.g. ``visibility``), then his rival: sealed, Julio's turn to settle."""

    def make(a_faces, b_faces, **a_more):
        opposed = caerbannog_duel(client, gm, caerbannog)
        dice(*a_faces)
        roll_side(client, player, opposed.initiator, **a_more)
        dice(*b_faces)
        roll_side(client, other_player, opposed.opponent)
        opposed.refresh_from_db()
        return opposed

    return make


@pytest.fixture
def losing(duel_of):
    """Julio's 4 against the rival's sealed 7: a failure by 3, heroic effort costing 4."""
    return duel_of((4, 2, 9), (7, 1, 8))


@pytest.fixture
def winning(duel_of):
    """Julio's 9 against the rival's sealed 5 (RULES.md "Opposed 9 vs 5 → 4")."""
    return duel_of((9, 2, 9), (5, 1, 7))


def declare(client, user, opposed, side="a", key=None, **choices):
    """The settle box's form with "Heroic effort if it fails" ticked."""
    client.force_login(user)
    url = reverse("opposed_settle", args=[opposed.session.campaign_id, opposed.pk])
    form = {"side": side, "declare": "1", "key": str(key or uuid.uuid4()), **choices}
    return client.post(url, form, HTTP_HX_REQUEST="true")


def resources(character):
    character.refresh_from_db()
    return character.data["resources"]


def julio(table):
    return table.characters[0]


def box(client, user, table):
    return panel_of(client, user, julio(table)).context["opposed_settle"]


def text(response) -> str:
    return html.unescape(response.content.decode())


def the_note() -> Roll:
    return Roll.objects.get(kind="heroic_declared")


def sealed(opposed) -> bool:
    return opposed.opponent.roll.seal.revealed_at is None


# The offer ------------------------------------------------------------------------------------


def test_the_initiators_settle_box_offers_heroic_effort_if_it_fails(
    client, player, caerbannog, losing
):
    offer = box(client, player, caerbannog)["declare"]
    assert offer.kind == "heroic"
    assert "counted once the opponent's result is revealed" in offer.label
    page = text(panel_of(client, player, julio(caerbannog)))
    assert OFFER in page
    assert 'name="declare"' in page


def test_the_offer_lists_the_sheets_resources_without_a_price(client, player, caerbannog, losing):
    choices = dict(box(client, player, caerbannog)["declare"].fields[0]["choices"])
    assert choices == {
        "wytrzymalosc": "Wytrzymałość (you have 8)",
        "determinacja": "Determinacja (you have 3)",
    }


@pytest.mark.parametrize("rival", [(2, 1, 3), (8, 8, 8)])
def test_the_offer_is_the_same_whatever_the_sealed_result(
    client, player, caerbannog, losing, rival
):
    shown = box(client, player, caerbannog)["declare"]
    sealed_roll = Roll.objects.filter(pk=losing.opponent.roll.pk)
    result = sealed_roll.get().result
    result["answer"]["result"] = sorted(rival)[1]
    sealed_roll.update(result=result, faces=list(rival))  # log entries are never edited, but here
    assert box(client, player, caerbannog)["declare"] == shown


def test_the_offer_is_not_shown_after_a_critical_failure(client, player, caerbannog, duel_of):
    duel_of((1, 1, 1), (5, 1, 7))
    assert box(client, player, caerbannog)["declare"] is None
    assert OFFER not in text(panel_of(client, player, julio(caerbannog)))


def test_the_opponent_is_not_offered_it_in_their_turn(
    client, player, other_player, caerbannog, losing
):
    settle(client, player, losing, "a")
    rival = caerbannog.characters[1]
    assert panel_of(client, other_player, rival).context["opposed_settle"]["declare"] is None


def test_it_is_not_offered_against_an_opponents_roll_the_gm_rolled_hidden(
    client, gm, player, caerbannog, dice
):
    # Revealed, the result still may not be read where Julio's roll is shown: its cost tells it.
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(4, 2, 9)
    roll_side(client, player, opposed.initiator)
    dice(7, 1, 8)
    roll_side(client, gm, opposed.opponent, visibility=Visibility.HIDDEN)
    assert box(client, player, caerbannog)["declare"] is None


def test_it_is_not_offered_where_the_opponents_result_is_known_and_heroic_effort_offered(
    client, gm, other_player, caerbannog, dice
):
    # The GM rolled Julio's side hidden: what follows it may read the sealed result.
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(4, 2, 9)
    roll_side(client, gm, opposed.initiator, visibility=Visibility.HIDDEN)
    dice(7, 1, 8)
    roll_side(client, other_player, opposed.opponent)
    shown = box(client, gm, caerbannog)
    assert shown["declare"] is None
    assert "heroic" in [f.kind for f in shown["follow_ups"]]


# Declared, then revealed ----------------------------------------------------------------------


def test_declared_a_failure_paid_makes_the_heroic_effort_and_spends_the_resource(
    client, player, caerbannog, losing
):
    response = declare(client, player, losing, resource="wytrzymalosc")
    assert response.status_code == 200
    heroic = Roll.objects.get(kind="heroic")
    assert (heroic.result["answer"]["result"], heroic.result["answer"]["heroic_cost"]) == (1, 4)
    assert resources(julio(caerbannog))["wytrzymalosc"] == 8 - 4


def test_the_heroic_effort_made_reads_as_the_follow_up_makes_it(client, player, losing):
    declare(client, player, losing, resource="wytrzymalosc")
    heroic = Roll.objects.get(kind="heroic")
    assert heroic.parent == losing.initiator.roll
    assert heroic.actor == player
    lines = [source_line(s) for s in heroic.sources]
    assert "+4 heroic effort cost: paid with Wytrzymałość (endurance)" in lines
    assert "+7 difficulty" in lines  # the rival's result, read once it was revealed


def test_the_opposed_test_goes_to_the_initiator_by_exactly_one(client, player, losing):
    declare(client, player, losing, resource="wytrzymalosc")
    result = Roll.objects.get(kind="opposed")
    heroic = Roll.objects.get(kind="heroic")
    answer = result.result["answer"]
    assert (answer["winner"], answer["level"], answer["a_seq"]) == ("a", 1, heroic.seq)
    assert render(result.label_words) == "Opposed test (#3 against #2): Ala beats Bartek by 1"


def test_settling_with_a_declaration_reveals_the_opponents_roll(client, player, losing):
    assert sealed(losing)
    declare(client, player, losing, resource="wytrzymalosc")
    losing.refresh_from_db()
    assert not sealed(losing)


def test_declared_a_failure_the_resource_does_not_cover_spends_nothing(
    client, player, caerbannog, losing
):
    declare(client, player, losing, resource="determinacja")  # 3 against a cost of 4
    assert not Roll.objects.filter(kind="heroic").exists()
    have = resources(julio(caerbannog))
    assert (have["wytrzymalosc"], have["determinacja"]) == (8, 3)


def test_the_note_says_what_it_cost_and_what_the_sheet_had(client, player, losing):
    declare(client, player, losing, resource="determinacja")
    assert render(the_note().label_words) == (
        "Heroic effort declared before the reveal by Ala could not be paid: #1 failed against "
        "#2, it cost 4 Determinacja (determination) and the sheet had 3; nothing was spent."
    )


def test_unpaid_the_opponent_settles_next_and_wins(client, player, other_player, losing):
    declare(client, player, losing, resource="determinacja")
    assert not Roll.objects.filter(kind="opposed").exists()
    settle(client, other_player, losing, "b")
    answer = Roll.objects.get(kind="opposed").result["answer"]
    assert (answer["winner"], answer["level"], answer["a_seq"]) == ("b", -3, 1)


def test_declared_and_no_failure_spends_nothing_and_says_it_was_not_needed(
    client, player, caerbannog, winning
):
    declare(client, player, winning, resource="wytrzymalosc")
    assert not Roll.objects.filter(kind="heroic").exists()
    assert resources(julio(caerbannog))["wytrzymalosc"] == 8
    assert render(the_note().label_words) == (
        "Heroic effort declared before the reveal by Ala was not needed: #1 is no failure "
        "against #2; nothing was spent."
    )


def test_not_needed_the_opposed_test_reads_the_initiators_own_result(
    client, player, other_player, winning
):
    declare(client, player, winning, resource="wytrzymalosc")
    settle(client, other_player, winning, "b")
    answer = Roll.objects.get(kind="opposed").result["answer"]
    assert (answer["winner"], answer["level"], answer["a_seq"]) == ("a", 4, 1)


def test_not_declared_the_settle_is_as_it_was(client, player, other_player, caerbannog, losing):
    settle(client, player, losing, "a")
    assert not Roll.objects.filter(kind__in=("heroic", "heroic_declared")).exists()
    settle(client, other_player, losing, "b")
    assert Roll.objects.get(kind="opposed").result["answer"]["level"] == -3
    assert resources(julio(caerbannog))["wytrzymalosc"] == 8


def test_a_declaration_sent_twice_with_its_key_is_made_once(client, player, caerbannog, losing):
    key = uuid.uuid4()
    declare(client, player, losing, key=key, resource="wytrzymalosc")
    again = declare(client, player, losing, key=key, resource="wytrzymalosc")
    assert again.status_code == 200
    assert Roll.objects.filter(kind="heroic").count() == 1
    assert resources(julio(caerbannog))["wytrzymalosc"] == 4


# The other resource the GM allowed (RULES.md 4.12) --------------------------------------------


def allow_other(client, gm, side, name=NAME, price=PRICE):
    client.force_login(gm)
    url = reverse("change_test", args=[side.character.campaign_id, side.pk])
    fields = {"op": "set_heroic_other", "name": name, "price": price}
    client.post(url, fields, HTTP_HX_REQUEST="true")


@pytest.fixture
def allowed(client, gm, player, other_player, caerbannog, dice):
    """As ``losing``, with the GM's leave to pay heroic effort with the duke's favour."""
    opposed = caerbannog_duel(client, gm, caerbannog)
    allow_other(client, gm, opposed.initiator)
    opposed.initiator.refresh_from_db()
    dice(4, 2, 9)
    roll_side(client, player, opposed.initiator)
    dice(7, 1, 8)
    roll_side(client, other_player, opposed.opponent)
    return opposed


def test_the_offer_lists_the_other_resource_the_gm_allowed(client, player, caerbannog, allowed):
    choices = dict(box(client, player, caerbannog)["declare"].fields[0]["choices"])
    assert choices["other"] == f"{NAME}, allowed by the GM: {PRICE}"


def test_paid_with_the_gms_resource_it_is_made_and_the_sheet_keeps_its_own(
    client, player, caerbannog, allowed
):
    declare(client, player, allowed, resource="other")
    heroic = Roll.objects.get(kind="heroic")
    assert heroic.result["answer"]["result"] == 1
    assert f"+4 heroic effort cost: paid with {NAME}, allowed by the GM: {PRICE}" in [
        source_line(s) for s in heroic.sources
    ]
    have = resources(julio(caerbannog))
    assert (have["wytrzymalosc"], have["determinacja"]) == (8, 3)


def declared_with_kapital_spoleczny(client, gm, player, other_player, caerbannog, dice, price):
    """As ``losing``, with the GM's leave to pay heroic effort with ``price`` Kapitał Społeczny
    (Julio's sheet holds 2), declared as Julio settles."""
    opposed = caerbannog_duel(client, gm, caerbannog)
    allow_other(client, gm, opposed.initiator, name="Kapitał Społeczny", price=price)
    opposed.initiator.refresh_from_db()
    dice(4, 2, 9)
    roll_side(client, player, opposed.initiator)
    dice(7, 1, 8)
    roll_side(client, other_player, opposed.opponent)
    opposed.refresh_from_db()
    return declare(client, player, opposed, resource="other")


def test_declared_with_a_number_on_the_sheet_it_is_taken_off(
    client, gm, player, other_player, caerbannog, dice
):
    declared_with_kapital_spoleczny(client, gm, player, other_player, caerbannog, dice, "2")
    assert Roll.objects.get(kind="heroic").result["answer"]["result"] == 1
    assert resources(julio(caerbannog))["kapital_spoleczny"] == 0


def test_declared_with_more_of_a_sheets_number_than_it_holds_spends_nothing(
    client, gm, player, other_player, caerbannog, dice
):
    declared_with_kapital_spoleczny(client, gm, player, other_player, caerbannog, dice, "3")
    assert not Roll.objects.filter(kind="heroic").exists()
    assert resources(julio(caerbannog))["kapital_spoleczny"] == 2
    assert render(the_note().label_words) == (
        "Heroic effort declared before the reveal by Ala could not be paid: #1 failed against "
        "#2, it cost 3 Kapitał Społeczny and the sheet had 2; nothing was spent."
    )


# Forged declarations --------------------------------------------------------------------------


def refused_and_nothing_done(response, message: str, opposed) -> bool:
    opposed.refresh_from_db()
    return (
        response.status_code == 409
        and message in text(response)
        and not Roll.objects.filter(kind__in=("heroic", "heroic_declared")).exists()
        and not opposed.initiator_settled
    )


def test_the_opponent_declaring_it_is_refused(client, player, other_player, losing):
    settle(client, player, losing, "a")
    response = declare(client, other_player, losing, side="b", resource="wytrzymalosc")
    assert response.status_code == 409
    assert "Only the initiator of an opposed test may do that." in text(response)
    losing.refresh_from_db()
    assert not losing.opponent_settled


def test_declaring_it_after_a_critical_failure_is_refused(client, player, duel_of):
    opposed = duel_of((1, 1, 1), (5, 1, 7))
    response = declare(client, player, opposed, resource="wytrzymalosc")
    message = "No heroic effort after a critical failure: only a re-roll saves it."
    assert refused_and_nothing_done(response, message, opposed)
    assert sealed(opposed)


@pytest.mark.parametrize("resource", ["zloto", "", "kapital_spoleczny"])
def test_an_unknown_resource_is_refused(client, player, losing, resource):
    response = declare(client, player, losing, resource=resource)
    assert refused_and_nothing_done(response, "Choose what heroic effort is paid with.", losing)
    assert sealed(losing)


def test_the_other_resource_without_the_gms_leave_is_refused(client, player, losing):
    response = declare(client, player, losing, resource="other")
    message = "The GM has not allowed heroic effort with another resource on this test."
    assert refused_and_nothing_done(response, message, losing)


def test_declaring_it_after_settling_is_refused(client, player, losing):
    settle(client, player, losing, "a")
    response = declare(client, player, losing, resource="wytrzymalosc")
    assert response.status_code == 409
    assert "You have settled your side" in text(response)
    assert not Roll.objects.filter(kind__in=("heroic", "heroic_declared")).exists()


def test_declaring_it_before_both_have_rolled_is_refused(client, gm, player, caerbannog, dice):
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(4, 2, 9)
    roll_side(client, player, opposed.initiator)
    response = declare(client, player, opposed, resource="wytrzymalosc")
    assert refused_and_nothing_done(response, "Both sides roll first", opposed)


def test_declaring_it_against_a_hidden_opponent_is_refused_telling_nothing(
    client, gm, player, caerbannog, dice
):
    opposed = caerbannog_duel(client, gm, caerbannog)
    dice(4, 2, 9)
    roll_side(client, player, opposed.initiator)
    dice(7, 1, 8)
    roll_side(client, gm, opposed.opponent, visibility=Visibility.HIDDEN)
    response = declare(client, player, opposed, resource="wytrzymalosc")
    assert refused_and_nothing_done(response, "That can no longer be done with this roll.", opposed)
    assert "cost" not in text(response)


def test_a_declaration_without_its_key_is_refused(client, player, losing):
    client.force_login(player)
    url = reverse("opposed_settle", args=[losing.session.campaign_id, losing.pk])
    form = {"side": "a", "declare": "1", "key": "nope", "resource": "wytrzymalosc"}
    response = client.post(url, form, HTTP_HX_REQUEST="true")
    assert refused_and_nothing_done(response, "This request is malformed", losing)


def test_another_player_cannot_declare_it_for_the_initiator(client, another, losing):
    response = declare(client, another, losing, resource="wytrzymalosc")
    message = "Only that side's player (or the GM) settles it."
    assert refused_and_nothing_done(response, message, losing)


# Who sees the notes ---------------------------------------------------------------------------


def log_page(client, user, campaign) -> str:
    client.force_login(user)
    return client.get(reverse("session_log", args=[campaign.pk])).content.decode()


@pytest.mark.parametrize(
    ("visibility", "sees_it"),
    [(Visibility.PUBLIC, True), (Visibility.SECRET, False)],
)
def test_the_note_keeps_the_initiators_entrys_visibility(
    client, player, another, caerbannog, duel_of, visibility, sees_it
):
    opposed = duel_of((9, 2, 9), (5, 1, 7), visibility=visibility)
    declare(client, player, opposed, resource="wytrzymalosc")
    note = the_note()
    assert note.visibility == visibility
    assert whole(log_page(client, another, caerbannog.campaign), note) is sees_it
    assert whole(log_page(client, player, caerbannog.campaign), note)


# Live -----------------------------------------------------------------------------------------


def test_everyone_is_told_live_the_reveal_the_heroic_effort_and_the_result(
    client, player, losing, monkeypatch
):
    sent = []
    for module in (actions, pending):
        monkeypatch.setattr(module, "broadcast_on_commit", lambda g, e: sent.append(e))
    declare(client, player, losing, resource="wytrzymalosc")
    kinds = [e["payload"]["kind"] for e in sent if e["type"] == "table.roll"]
    assert kinds == ["heroic", "opposed"]
    assert [e["type"] for e in sent].count("table.reveal") == 1
    assert any(e["type"] == "table.pending" for e in sent)  # both panels, the GM's dashboard


# Polish ---------------------------------------------------------------------------------------


def test_the_offer_and_the_notes_read_in_polish(client, player, losing):
    client.force_login(player)
    url = reverse("test_panel", args=[losing.session.campaign_id, losing.initiator.character_id])
    page = text(client.get(url, HTTP_ACCEPT_LANGUAGE="pl"))
    assert "Heroiczny wysiłek, jeśli się nie uda" in page
    declare(client, player, losing, resource="determinacja")
    with translation.override("pl"):
        assert render(the_note().label_words) == (
            "Heroicznego wysiłku zadeklarowanego przed ujawnieniem (Ala) nie dało się "
            "opłacić: #1 to porażka wobec #2, wysiłek kosztował 4 (Determinacja), a na karcie "
            "było 3; nic nie wydano."
        )
