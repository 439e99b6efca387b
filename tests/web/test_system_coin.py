"""A sixth rule system that exists only here: a coin (one d2, heads succeeds).

It registers itself for each test and leaves again, and passes the whole conformance suite with
nothing outside this file: proof that a new system is its own modules and one registry entry.
Its sheet is the generic one (``sheets.systems.generic``), its panel the generic template.
"""

from __future__ import annotations

import types
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.systems import BaseSystem, UnknownSystem, get_system, register, unregister
from rolls import actions
from rolls.engine.core import Die, EngineError, check_fields
from rolls.panels import Panel, posted, source
from sheets.systems import generic
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

HEADS, TAILS = 2, 1


# --- The engine: pure rules, ENGINE.md's shape ----------------------------------------------


@dataclass(frozen=True)
class CoinResult:
    face: int

    @property
    def outcome(self) -> str:
        return "success" if self.face == HEADS else "failure"

    @property
    def dice(self) -> tuple[Die, ...]:
        return (Die(2, self.face, True, "coin", "read"),)

    def contract(self) -> dict[str, Any]:
        return {"face": self.face, "heads": self.face == HEADS, "outcome": self.outcome}


class CoinEngine:
    @staticmethod
    def parse_params(raw: Any) -> dict[str, Any]:
        check_fields(raw, ())
        return {}

    @staticmethod
    def roll(params, rng) -> CoinResult:
        return CoinResult(rng.randint(1, 2))

    @staticmethod
    def odds(params) -> dict[str, float]:
        return {"success": 0.5, "failure": 0.5}


# --- The panel: a value of the sheet names the toss ------------------------------------------


def _values(character) -> dict[str, int]:
    cleaned, _errors = generic.validate(character.data, None, creating=False)
    return {row["name"]: row["value"] for row in cleaned["attributes"]}


def build(character, campaign, choices, pending=None) -> Panel:
    values = _values(character)
    target = (pending or {}).get("target") or {}
    chosen = (
        target.get("attribute") or posted(choices).get("attribute", "") or next(iter(values), "")
    )
    panel = Panel(system=campaign.system, template="rolls/panels/generic.html")
    panel.context = {
        "choices": [
            {
                "name": "attribute",
                "legend": "Value",
                "fixed": bool(target),
                "options": [
                    {"value": name, "label": f"{name} {value}", "checked": name == chosen}
                    for name, value in values.items()
                ],
            }
        ]
    }
    if chosen not in values:
        panel.errors["attribute"] = ["Not a value on this sheet."]
        return panel
    panel.label = f"{chosen}: heads?"
    panel.params = {}
    panel.sources = [source("attribute", values[chosen], chosen)]
    panel.odds = list(CoinEngine.odds({}).items())
    panel.success = 0.5
    return panel


def target_fields(character, campaign) -> list[dict[str, Any]]:
    values = _values(character)
    choices = [(name, f"{name} {value}") for name, value in values.items()]
    return [{"name": "attribute", "label": "Value", "type": "select", "choices": choices}]


def target_from_post(post, character, campaign) -> tuple[dict[str, Any], list[str]]:
    target = {"attribute": posted(post).get("attribute", "")}
    wrong = [] if target["attribute"] in _values(character) else ["Not a value on this sheet."]
    return target, wrong


panel_module = types.SimpleNamespace(
    build=build, target_fields=target_fields, target_from_post=target_from_post
)

demo = types.SimpleNamespace(
    NAME="Coin table",
    SETTINGS={},
    NPCS={},
    CHARACTERS=[
        (
            "Ala",
            "Tosser",
            {"attributes": [{"name": "Luck", "value": 3}, {"name": "Pluck", "value": 2}]},
        )
    ],
)


#: Its row of the sheet suite's table (tests/web/test_sheet_conformance.py): one list of values.
COIN_LISTS = NamedLists(blank={"attributes": []}, lists={"attributes": NamedList({"value": 7})})


class Coin(BaseSystem):
    key = "coin"
    position = 99
    engine = CoinEngine
    sheet = generic
    panel = panel_module
    demo = demo
    facts = ("heads",)


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
    assert '<option value="coin">coin</option>' in form  # a system without a name shows its key
    client.post(reverse("campaign_create"), {"name": "Heads or tails", "system": "coin"})
    assert Campaign.objects.get(name="Heads or tails").system == "coin"


def test_the_coin_leaves_the_registry_after_its_tests():
    with pytest.raises(UnknownSystem):
        get_system("coin")


@pytest.mark.parametrize(("face", "outcome"), [(HEADS, "success"), (TAILS, "failure")])
def test_heads_succeeds_and_tails_fails(coin, gm, player, other_player, face, outcome):
    table = Table(coin, gm, player, other_player)
    roll, _created = actions.record_roll(
        session=table.session, actor=player, system="coin", params={}, key=uuid.uuid4(),
        rng=Scripted(face),
    )  # fmt: skip
    assert roll.faces == [face]
    assert roll.result["answer"]["outcome"] == outcome
    assert roll.result["dice"] == [
        {"sides": 2, "face": face, "kept": True, "group": "coin", "why": "read"}
    ]


def test_the_coin_engine_refuses_params_it_does_not_know():
    with pytest.raises(EngineError):
        CoinEngine.parse_params({"bias": 1})


class Noting(Coin):
    """The coin, noting when the table's shared moments reach its hooks."""

    def __init__(self) -> None:
        self.moments: list[tuple[str, int]] = []

    def scene_started(self, campaign, scene):
        self.moments.append(("scene", scene.number))

    def session_ended(self, session):
        self.moments.append(("session ended", session.pk))

    def pending_roll_kind(self, pending):
        return "coin_call"

    def pending_rolled(self, pending, roll):
        self.moments.append(("pending rolled", roll.seq))


@pytest.fixture
def noting():
    system = register(Noting())
    yield system
    unregister(system.key)


def test_scene_start_session_end_and_a_rolled_call_reach_the_systems_hooks(
    client, noting, gm, player, other_player
):
    from rolls.pending import actions as pending_actions

    table = Table(noting, gm, player, other_player)
    actions.new_scene(table.session, "Most")
    called = pending_actions.call_test(
        session=table.session, character=table.hero, gm=gm, target={"attribute": "Pluck"}
    )
    roll, _created = pending_actions.roll_pending(
        pending_id=called.pk, revision=called.revision, actor=player, choices={},
        key=uuid.uuid4(), visibility="public",
    )  # fmt: skip
    actions.end_session(table.session)
    assert roll.kind == "coin_call"
    assert roll.label == "Pluck: heads?"
    assert noting.moments == [
        ("scene", 1),
        ("scene", 2),
        ("pending rolled", 1),
        ("session ended", table.session.pk),
    ]
