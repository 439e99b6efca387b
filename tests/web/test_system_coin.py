"""A sixth rule system, a toy that exists only in the tests: the coin (``tests/coin/``, one d2,
heads succeeds; the worked example of docs/adding-a-system.md).

It registers for each test and leaves again, and passes the whole conformance suite with nothing
of the app edited for it: proof that a new system is its own folder and one registry entry.
"""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from campaigns import sessions
from campaigns.models import Campaign
from campaigns.sessions import end_session, new_scene
from campaigns.systems import UnknownSystem, get_system, register, unregister
from rolls import actions
from rolls.engine.core import EngineError
from rolls.pending import actions as pending_actions
from rolls.pending.actions import CalledTestKind
from tests.coin import engine as coin_engine
from tests.coin.engine import HEADS, TAILS
from tests.coin.system import Coin
from tests.web.dice import Scripted
from tests.web.sheet_conformance import (
    NamedList,
    NamedListConformance,
    NamedLists,
    SheetCase,
    SheetConformance,
)
from tests.web.system_conformance import SystemConformance, Table

pytestmark = pytest.mark.django_db

#: Its row of the sheet suite's table (tests/web/test_sheet_conformance.py): one list of values.
COIN_LISTS = NamedLists(blank={"attributes": []}, lists={"attributes": NamedList({"value": 7})})


@pytest.fixture
def coin():
    system = register(Coin())
    yield system
    unregister(system.key)


class TestTheCoin(SystemConformance):
    @pytest.fixture
    def system(self, coin):
        return coin


class TestTheCoinsSheet(SheetConformance):
    @pytest.fixture
    def system(self, coin):
        return coin

    @pytest.fixture
    def case(self):
        return SheetCase(named_lists=COIN_LISTS)


class TestTheCoinsSheetOfNamedLists(NamedListConformance):
    @pytest.fixture
    def system(self, coin):
        return coin

    @pytest.fixture
    def lists(self):
        return COIN_LISTS


def test_a_registered_system_is_offered_for_a_new_campaign_with_no_list_to_edit(
    coin, client, outsider
):
    client.force_login(outsider)
    form = client.get(reverse("campaign_create")).content.decode()
    assert '<option value="coin">Coin (a toy system)</option>' in form
    client.post(reverse("campaign_create"), {"name": "Heads or tails", "system": "coin"})
    assert Campaign.objects.get(name="Heads or tails").system == "coin"


def test_the_coin_leaves_the_registry_after_its_tests():
    with pytest.raises(UnknownSystem):
        get_system("coin")


@pytest.mark.parametrize(("face", "outcome"), [(HEADS, "success"), (TAILS, "failure")])
def test_heads_succeeds_and_tails_fails(coin, gm, player, other_player, face, outcome):
    table = Table(coin, gm, player, other_player)
    roll, _created = actions.record_roll(
        actions.RollSpec(
            session=table.session, actor=player, system="coin", params={}, key=uuid.uuid4()
        ),
        rng=Scripted(face),
    )
    assert roll.faces == [face]
    assert roll.result["answer"]["outcome"] == outcome
    assert roll.result["dice"] == [
        {"sides": 2, "face": face, "kept": True, "group": "coin", "why": "read"}
    ]


def test_the_coin_engine_refuses_params_it_does_not_know():
    with pytest.raises(EngineError):
        coin_engine.parse_params({"bias": 1})


class Noting(Coin):
    """The coin, noting when the table's shared moments reach its receivers, and calling the
    roll of a called test a "coin_call"."""

    parts = (CalledTestKind(of=lambda pending: "coin_call"),)

    def __init__(self) -> None:
        self.moments: list[tuple[str, int]] = []

    def scene_started(self, sender, campaign, scene, **kwargs):
        self.moments.append(("scene", scene.number))

    def session_ended(self, sender, session, **kwargs):
        self.moments.append(("session ended", session.pk))

    def pending_rolled(self, sender, pending, roll, **kwargs):
        self.moments.append(("pending rolled", roll.seq))


@pytest.fixture
def noting():
    system = register(Noting())
    moments = (
        (sessions.scene_started, system.scene_started),
        (sessions.session_ended, system.session_ended),
        (pending_actions.after_pending_roll, system.pending_rolled),
    )
    for signal, receiver in moments:
        signal.connect(receiver, sender=system)
    yield system
    for signal, receiver in moments:
        signal.disconnect(receiver, sender=system)
    unregister(system.key)


def test_scene_start_session_end_and_a_rolled_call_reach_the_systems_receivers(
    client, noting, gm, player, other_player
):
    table = Table(noting, gm, player, other_player)
    new_scene(table.session, "Most")
    called = pending_actions.call_test(
        session=table.session, character=table.hero, gm=gm, target={"attribute": "Pluck"}
    )
    roll, _created = pending_actions.roll_pending(
        pending_id=called.pk, revision=called.revision, actor=player, choices={},
        key=uuid.uuid4(), visibility="public",
    )  # fmt: skip
    end_session(table.session)
    assert roll.kind == "coin_call"
    assert roll.label == "Pluck: heads?"
    assert noting.moments == [
        ("scene", 1),
        ("scene", 2),
        ("pending rolled", 1),
        ("session ended", table.session.pk),
    ]
