"""Every kind of roll in every rule system runs a pinned list of SQL statements (issue 42).

A roll is the busiest request of a game night: each statement it runs, every player pays on every
click. So the statements of a warm roll (the second of its kind: caches filled by the first) are
pinned here by name, a statement named by its verb and its main table, so a change shows which
statement came or went. Transaction control (BEGIN, SAVEPOINT, RELEASE, COMMIT, ROLLBACK) is left
out: it follows from the atomic blocks, not from what is read or written.
"""

from __future__ import annotations

import difflib
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rolls.models import GroupTest, OpposedTest, PendingTest, Roll
from rolls.pending import actions as pending
from tests.web.live import panel_url
from tests.web.test_group_test import sheet as caerbannog_sheet
from tests.web.test_opposed import roll_side
from tests.web.test_opposed import start as start_opposed
from tests.web.test_panel_ast import FIVE
from tests.web.test_panel_ast import SHEET as AST_SHEET
from tests.web.test_panel_caerbannog import SHEET as CAERBANNOG_SHEET
from tests.web.test_panel_fasttest import SHEET as FASTTEST_SHEET
from tests.web.test_panel_t10 import SHEET as T10_SHEET
from tests.web.test_panel_twod6 import NOMAD

pytestmark = pytest.mark.django_db

# The statements of each kind of roll, pinned. A change that adds a statement to a roll must say
# why here, beside it; one that removes a statement drops it. A roll reads who asks for what
# (ASKED), builds its panel (CONDITIONS: whether the character has any, issue 15), logs its entry
# (LOGGED) and answers; a called test's roll also reads and marks the call (CALL, CALL_ROLLED).
# The names say where each statement comes from; "again" marks one this request has already run.

#: The user (read by the rate limit, rolls.limits), the character with its campaign (the
#: membership checked in the join), the open session.
ASKED = ("SELECT auth_user", "SELECT sheets_character", "SELECT campaigns_gamesession")
CONDITIONS = "SELECT rolls_condition"
#: The entry logged (rolls.actions._record): the session's seq bumped in one statement under its
#: row lock, its latest scene with whether the campaign posts to Discord (issue 40), the entry.
LOGGED = ("UPDATE campaigns_gamesession", "SELECT campaigns_scene+rolls_discordbridge",
          "INSERT rolls_roll")  # fmt: skip
#: The call is the character's (the view), the call locked with its session, campaign and
#: character (roll_pending), the opposed test it is a side of (opposed_of: as the initiator,
#: else as the opponent; the seal's question, before the roll).
CALL = ("SELECT rolls_pendingtest", "SELECT rolls_pendingtest", "SELECT rolls_opposedtest",
        "SELECT rolls_opposedtest")  # fmt: skip
#: The call marked rolled, and the opposed test it is a side of again (opposed_of, after the
#: roll: rolls.opposed.actions.side_rolled).
CALL_ROLLED = ("UPDATE rolls_pendingtest", "SELECT rolls_opposedtest", "SELECT rolls_opposedtest")
#: The answer to a called test's roll: the character refreshed, the call's target again.
CALL_PANEL = ("SELECT sheets_character", "SELECT rolls_pendingtest")
#: The character's campaign, which the refresh dropped, for the panel's opposed settling box
#: (rolls.opposed.readers_views.settle_view).
CAMPAIGN_AGAIN = "SELECT campaigns_campaign"
#: An opposed test's two sides, each with its character and roll (side_pending).
SIDES = ("SELECT rolls_pendingtest", "SELECT rolls_pendingtest")
#: The sheet changed by the roll: the character locked (with its campaign where the character
#: came without it), written.
SHEET_CHANGED = ("SELECT sheets_character", "UPDATE sheets_character")
SHEET_CHANGED_CALLED = ("SELECT sheets_character", "SELECT campaigns_campaign",
                        "UPDATE sheets_character")  # fmt: skip
#: What may follow a Caerbannog roll, on the whole panel again (rolls.panels.panel_view).
CAERBANNOG_AFTER = (
    "SELECT rolls_opposedtest",  # settle_view: an opposed test the character's side waits in
    "SELECT rolls_opposedtest",  # settled_in_turn: the opposed test the roll is a side of,
    "SELECT rolls_opposedtest",  # as the initiator's roll, else the opponent's
    "SELECT rolls_roll",  # _chain_state: what followed the roll,
    "SELECT rolls_roll",  # the character's latest roll in the session,
    "SELECT campaigns_scene",  # the session's last scene number,
    "SELECT campaigns_scene",  # the roll's scene
    "SELECT rolls_opposedtest",  # opponents_result: the opposed test of the roll again,
    "SELECT rolls_opposedtest",  # both ways
    "SELECT rolls_pendingtest",  # heroic_other: the call the roll answered
    "SELECT rolls_opposedtest",  # initiator_only: whether the roll is an opponent's side
)
#: Both sides rolled: the opposed test locked, its sides, its session with its campaign.
BOTH_ROLLED = ("SELECT rolls_opposedtest", *SIDES, "SELECT campaigns_gamesession")
#: The result entry (FastTest, 2d6): its actor, the GM who started the test; the entry; the test
#: resolved.
RESULT = ("SELECT auth_user", *LOGGED, "UPDATE rolls_opposedtest")
#: The sides told (tell_sides): the opposed test's session and campaign again, its sides again.
SIDES_TOLD = ("SELECT campaigns_gamesession", "SELECT campaigns_campaign", *SIDES)
#: The seal's question (_seals) for the opponent's roll: the opposed test's session and campaign.
SEAL_ASKED = ("SELECT campaigns_gamesession", "SELECT campaigns_campaign")
#: 2d6's panel: the names of the other characters, who may help.
HELPERS = "SELECT sheets_character"

# The phases of a roll read as one line each: the formatter leaves the table as it is.
# fmt: off
PINNED: dict[tuple[str, str], tuple[str, ...]] = {
    # --- free: a player's roll from their sheet's panel -----------------------------------------
    ("fasttest", "free"): (*ASKED, CONDITIONS, *LOGGED),
    ("ast", "free"): (
        *ASKED, CONDITIONS, *LOGGED,
        *SHEET_CHANGED,  # the FUNT the roll gains
        "UPDATE rolls_roll",  # the entry notes what it changed on the sheet
        CONDITIONS,  # again: the whole panel again, as the sheet changed
        "SELECT rolls_roll",  # whether anything follows the roll yet (follow_ups)
    ),
    ("t10", "free"): (
        *ASKED, CONDITIONS, *LOGGED,
        "SELECT rolls_randomtable",  # the options menu: the tables a result may roll on,
        "SELECT rolls_roll",  # and the options already picked after the roll
    ),
    ("caerbannog", "free"): (
        *ASKED, CONDITIONS, *LOGGED,
        *SHEET_CHANGED,  # the Rozmach after the roll
        CONDITIONS,  # again: the whole panel again, as the sheet changed
        *CAERBANNOG_AFTER,
    ),
    ("2d6", "free"): (*ASKED, HELPERS, CONDITIONS, *LOGGED),
    # --- called: the player rolls the test the GM called ----------------------------------------
    ("fasttest", "called"): (
        *ASKED, *CALL, CONDITIONS,
        "SELECT rolls_appliedwound",  # the entry's kind: is the call a wound's test
        *LOGGED, *CALL_ROLLED, *CALL_PANEL, CONDITIONS, CAMPAIGN_AGAIN,
    ),
    ("ast", "called"): (
        *ASKED, *CALL, CONDITIONS, *LOGGED,
        *SHEET_CHANGED_CALLED,  # the FUNT the roll gains
        "UPDATE rolls_roll",  # the entry notes what it changed on the sheet
        *CALL_ROLLED, *CALL_PANEL, CONDITIONS, CAMPAIGN_AGAIN,
        "SELECT rolls_roll",  # whether anything follows the roll yet (follow_ups)
    ),
    ("t10", "called"): (
        *ASKED, *CALL, CONDITIONS, *LOGGED, *CALL_ROLLED, *CALL_PANEL, CONDITIONS, CAMPAIGN_AGAIN,
        "SELECT rolls_randomtable",  # the options menu: the tables a result may roll on,
        "SELECT rolls_roll",  # and the options already picked after the roll
    ),
    ("caerbannog", "called"): (
        *ASKED, *CALL, CONDITIONS, *LOGGED,
        *SHEET_CHANGED_CALLED,  # the Rozmach after the roll
        *CALL_ROLLED, *CALL_PANEL, CONDITIONS, CAMPAIGN_AGAIN,
        *CAERBANNOG_AFTER,
    ),
    ("2d6", "called"): (
        *ASKED, *CALL, HELPERS, CONDITIONS, *LOGGED, *CALL_ROLLED, *CALL_PANEL,
        HELPERS, CONDITIONS, CAMPAIGN_AGAIN,  # the panel built again
    ),
    # --- opposed: the second side's roll (FastTest and 2d6 log who won with it) -----------------
    ("fasttest", "opposed"): (
        *ASKED, *CALL, *SEAL_ASKED, CONDITIONS,
        "SELECT rolls_appliedwound",  # the entry's kind: is the call a wound's test
        *LOGGED, *CALL_ROLLED, *BOTH_ROLLED, *RESULT, *SIDES_TOLD,
        *CALL_PANEL, CONDITIONS, CAMPAIGN_AGAIN,
    ),
    ("caerbannog", "opposed"): (
        *ASKED, *CALL, *SEAL_ASKED, CONDITIONS, *LOGGED,
        "INSERT rolls_seal",  # the opponent's roll sealed until the initiator reveals theirs
        *SHEET_CHANGED_CALLED,  # the Rozmach after the roll
        *CALL_ROLLED,
        *BOTH_ROLLED,  # no result yet: each side settles first (RULES.md 4.10)
        *SIDES_TOLD, *CALL_PANEL, CONDITIONS, CAMPAIGN_AGAIN,
        "SELECT rolls_opposedtest",  # settle_view: the opposed test the side waits in,
        *SIDES,  # its sides' rolls,
        *SIDES,  # its sides again,
        "SELECT rolls_pendingtest",  # the result each side sees (_seen_result): the side,
        "SELECT rolls_roll",  # the last roll of its chain (final_roll),
        "SELECT rolls_seal",  # whether the reader may see it;
        "SELECT rolls_pendingtest",  # the other side,
        "SELECT rolls_roll",
        "SELECT rolls_seal",
        "SELECT rolls_roll",  # _settling: each side's final roll again
        "SELECT rolls_roll",
        "SELECT rolls_opposedtest",  # settled_in_turn: the opposed test the roll is a side
        "SELECT rolls_opposedtest",  # of, as the initiator's roll, else the opponent's
    ),
    ("2d6", "opposed"): (
        *ASKED, *CALL, *SEAL_ASKED, HELPERS, CONDITIONS, *LOGGED, *CALL_ROLLED, *BOTH_ROLLED,
        *RESULT, *SIDES_TOLD, *CALL_PANEL,
        HELPERS, CONDITIONS, CAMPAIGN_AGAIN,  # the panel built again
    ),
    # --- group: a helper's dice, after the initiator's ------------------------------------------
    ("caerbannog", "group"): (
        "SELECT auth_user",  # the user (the rate limit)
        "SELECT campaigns_campaign",  # the campaign, of which the user is a member
        "SELECT rolls_grouptest",  # the group test, of this campaign
        "SELECT rolls_grouptest",  # locked, with its session and campaign
        "SELECT sheets_character",  # may the user roll for the participant: its owner
        "SELECT sheets_character",  # the participant
        *LOGGED,
        "UPDATE rolls_grouptest",  # the participant's dice on the test
        "SELECT campaigns_gamesession",  # the answer, the group section: the open session,
        "SELECT rolls_grouptest",  # its current group test,
        "SELECT sheets_character",  # the user's characters,
        "SELECT sheets_character",  # the campaign's characters
    ),
}
# fmt: on

#: The headers of the panel's htmx post, and of the group screen's.
HX = {"HX-Request": "true", "HX-Target": "test-panel"}
GROUP_HX = {"HX-Request": "true"}
TRANSACTION_CONTROL = ("BEGIN", "SAVEPOINT", "RELEASE", "COMMIT", "ROLLBACK")

#: Each system's hero, the choices a player's panel posts for a free roll, and the target the GM
#: calls a test for (AST's GM fixes nothing: the player ticks what applies).
SHEETS = {
    "fasttest": FASTTEST_SHEET,
    "ast": AST_SHEET,
    "t10": T10_SHEET,
    "caerbannog": CAERBANNOG_SHEET,
    "2d6": NOMAD,
}
FREE = {
    "fasttest": {"attribute": "BUDOWA", "skill": "WALKA"},
    "ast": FIVE,
    "t10": {"attribute": "Styrka", "skill": "Svärd"},
    "caerbannog": {"skill": "Atletyka", "difficulty": "5"},
    "2d6": {"attribute": "Percepcja", "skill": "Przetrwanie", "difficulty": "15"},
}
CALLED = {
    "fasttest": {"attribute": "BUDOWA", "skill": "WALKA"},
    "ast": {},
    "t10": {"attribute": "Styrka", "skill": "Svärd"},
    "caerbannog": {"skill": ["Dociekliwość"], "defence": [], "form": "combined", "difficulty": "3"},
    "2d6": {"attribute": "Percepcja", "skill": "Przetrwanie", "difficulty": "15"},
}
#: The dashboard's form of an opposed test between Ala and Bartek, in the systems that have them.
OPPOSED = {
    "fasttest": {"a-attribute": "BUDOWA", "a-skill": "WALKA",
                 "b-attribute": "BUDOWA", "b-skill": "WALKA"},
    "caerbannog": {"a-skill": "Atletyka", "b-skill": "Dociekliwość"},
    "2d6": {"difficulty": "15", "a-attribute": "Percepcja", "a-skill": "Przetrwanie",
            "b-attribute": "Zręczność", "b-skill": "Skradanie"},
}  # fmt: skip
#: Every die any roll here draws shows 3, a face of every die of every system: each roll takes
#: the same path through the rules every time.
THREES = (3,) * 40


def at_table(system: str, sheet: dict | None = None):
    """``system`` as a test's parameter, its table Ala (the player's) and Bartek (the other
    player's), both on the system's sheet, in a running session."""
    sheet = SHEETS[system] if sheet is None else sheet
    characters = [("Ala", sheet), ("Bartek", sheet)]
    return pytest.param(system, marks=pytest.mark.table(system, characters=characters), id=system)


# --- Naming a statement ---------------------------------------------------------------------------

_LITERAL = re.compile(r"'(?:[^']|'')*'")
_INNER = re.compile(r"\([^()]*\)")
_TABLE = r'"?(\w+)"?'


def name_of(sql: str) -> str:
    """``"SELECT auth_user"``: a statement's verb and its main table (a SELECT's, the one its
    outer FROM reads; one without, the tables its subqueries read)."""
    verb = sql.split(None, 1)[0].upper()
    if verb in ("INSERT", "UPDATE", "DELETE"):
        table = re.search(rf"^(?:INSERT INTO|UPDATE|DELETE FROM)\s+{_TABLE}", sql, re.I)
        return f"{verb} {table.group(1)}" if table else verb
    outer = _LITERAL.sub("''", sql)
    while _INNER.search(outer):
        outer = _INNER.sub("[]", outer)
    tables = re.findall(rf"\bFROM\s+{_TABLE}", outer, re.I) or re.findall(
        rf"\bFROM\s+{_TABLE}", sql, re.I
    )
    return f"{verb} {'+'.join(dict.fromkeys(tables))}" if tables else verb


@dataclass
class Captured:
    """A request's answer and the statements it ran (their names and their SQL), transaction
    control left out."""

    response: HttpResponse
    sql: list[str]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name_of(sql) for sql in self.sql)

    def against(self, expected: tuple[str, ...]) -> str:
        """What came (+) and went (-) against the pinned list, then the statements run."""
        return "\n".join([*difflib.ndiff(expected, self.names), "", "Run:", *self.sql])


def captured(post: Callable[[], HttpResponse]) -> Captured:
    with CaptureQueriesContext(connection) as queries:
        response = post()
    return Captured(
        response, [q["sql"] for q in queries if not q["sql"].startswith(TRANSACTION_CONTROL)]
    )


# --- The rolls ------------------------------------------------------------------------------------


def free_roll(client, hero) -> HttpResponse:
    """The panel's Roll, as the page posts it."""
    form = {**FREE[hero.campaign.system], "visibility": "public", "key": str(uuid.uuid4())}
    return client.post(panel_url(hero, "test_roll"), form, headers=HX)


def called(table, hero) -> tuple[PendingTest, Callable[[Client], HttpResponse]]:
    """The GM calls a test for ``hero``: the call, and its roll as the player's panel posts it."""
    system = table.campaign.system
    test = pending.call_test(
        session=table.session, character=hero, gm=table.gm, target=dict(CALLED[system])
    )
    form = {
        **FREE[system], "pending": test.pk, "revision": test.revision, "visibility": "public",
        "key": str(uuid.uuid4()),
    }  # fmt: skip
    return test, lambda client: client.post(panel_url(hero, "test_roll"), form, headers=HX)


@pytest.mark.parametrize("system", [at_table(system) for system in SHEETS])
def test_a_free_roll_from_the_sheet_runs_its_pinned_statements(client, table, player, dice, system):
    dice(*THREES)
    client.force_login(player)
    free_roll(client, table.hero)
    roll = captured(lambda: free_roll(client, table.hero))
    assert roll.response.status_code == 200
    assert Roll.objects.filter(character=table.hero, seq=2, kind="test").exists()
    assert roll.names == PINNED[system, "free"], roll.against(PINNED[system, "free"])


@pytest.mark.parametrize("system", [at_table(system) for system in SHEETS])
def test_the_players_roll_of_a_called_test_runs_its_pinned_statements(
    client, table, player, dice, system
):
    dice(*THREES)
    client.force_login(player)
    _first, roll_it = called(table, table.hero)
    roll_it(client)
    test, roll_it = called(table, table.hero)
    roll = captured(lambda: roll_it(client))
    assert roll.response.status_code == 200
    test.refresh_from_db()
    assert (test.status, test.roll.seq) == (PendingTest.Status.ROLLED, 2)
    assert roll.names == PINNED[system, "called"], roll.against(PINNED[system, "called"])


def opposed_test(client, table) -> OpposedTest:
    """The GM starts an opposed test of Ala against Bartek from the dashboard."""
    ala, bartek = table.characters
    start_opposed(
        client, table.gm, table.campaign, initiator=ala.pk, opponent=f"character-{bartek.pk}",
        **OPPOSED[table.campaign.system],
    )  # fmt: skip
    return OpposedTest.objects.latest("pk")


@pytest.mark.parametrize("system", [at_table(system) for system in OPPOSED])
def test_the_roll_of_an_opposed_tests_second_side_runs_its_pinned_statements(
    client, table, player, other_player, dice, system
):
    """The opponent's roll after the initiator's, in the evening's second opposed test; in
    FastTest and 2d6 it logs who won too (the entry after it), in Caerbannog the result waits
    for both sides to settle."""
    dice(*THREES)
    first = opposed_test(client, table)
    roll_side(client, player, first.initiator)
    roll_side(client, other_player, first.opponent)
    second = opposed_test(client, table)
    roll_side(client, player, second.initiator)
    side, bartek = second.opponent, table.client(other_player)
    side.refresh_from_db()
    url = panel_url(side.character, "test_roll")
    form = {"pending": side.pk, "revision": side.revision, "visibility": "public",
            "key": str(uuid.uuid4())}  # fmt: skip
    roll = captured(lambda: bartek.post(url, form, headers=HX))
    assert roll.response.status_code == 200
    side.refresh_from_db()
    assert (side.roll.character, side.roll.seq) == (table.characters[1], SECOND_SIDES_SEQ[system])
    assert roll.names == PINNED[system, "opposed"], roll.against(PINNED[system, "opposed"])


#: The second opposed test's opponent's entry: after both sides of the first, and its result
#: where it is logged on the second side's roll.
SECOND_SIDES_SEQ = {"fasttest": 5, "2d6": 5, "caerbannog": 4}


def group_post(client, table, name, group, **form) -> HttpResponse:
    """A step of ``group`` (as it stands), as the group screen posts it."""
    url = reverse(name, args=[table.campaign.pk, group.pk])
    return client.post(url, {"revision": group.revision, **form}, headers=GROUP_HX)


def group_test(table, ala_client) -> GroupTest:
    """Ala starts a group test on her Atletyka and gathers Bartek's Dociekliwość."""
    ala, bartek = table.characters
    url = reverse("group_start", args=[table.campaign.pk])
    ala_client.post(url, {"pick": f"{ala.pk}|skill:Atletyka", "difficulty": 5}, headers=GROUP_HX)
    group = GroupTest.objects.latest("pk")
    group_post(ala_client, table, "group_add", group, pick=f"{bartek.pk}|skill:Dociekliwość")
    group.refresh_from_db()
    return group


def group_roll(client, table, group, character) -> HttpResponse:
    response = group_post(
        client, table, "group_roll", group, character=character.pk, key=str(uuid.uuid4())
    )
    group.refresh_from_db()
    return response


@pytest.mark.parametrize("system", [at_table("caerbannog", caerbannog_sheet(rozmach=1))])
def test_a_helpers_roll_in_a_group_test_runs_its_pinned_statements(
    table, player, other_player, dice, system
):
    """Bartek's dice after Ala's (which closed the gathering), in the evening's second group
    test."""
    dice(*THREES)
    ala, bartek = table.characters
    alas, barteks = table.client(player), table.client(other_player)
    first = group_test(table, alas)
    group_roll(alas, table, first, ala)
    group_roll(barteks, table, first, bartek)
    group_post(alas, table, "group_settle", first)
    second = group_test(table, alas)
    group_roll(alas, table, second, ala)
    url = reverse("group_roll", args=[table.campaign.pk, second.pk])
    form = {"revision": second.revision, "character": bartek.pk, "key": str(uuid.uuid4())}
    roll = captured(lambda: barteks.post(url, form, headers=GROUP_HX))
    assert roll.response.status_code == 200
    assert Roll.objects.filter(character=bartek, kind="group_die").latest("seq").seq == 5
    assert roll.names == PINNED[system, "group"], roll.against(PINNED[system, "group"])
