"""Every registered rule system passes the same conformance suite (tests/web/system_conformance).

The per-system modules (test_panel_*, test_pending_*) keep only what is their system's own: the
suite is where a panel's access, session, double-submit and export checks live."""

import pytest

from campaigns.systems import all_systems, get_system
from tests.web.system_conformance import SystemConformance

pytestmark = pytest.mark.django_db

KEYS = [system.key for system in all_systems()]


def test_the_registry_holds_the_five_systems_of_the_rules():
    assert len(KEYS) == 5
    assert [get_system(key).position for key in KEYS] == [1, 2, 3, 4, 5]


class TestEverySystem(SystemConformance):
    @pytest.fixture(params=KEYS)
    def system(self, request):
        return get_system(request.param)


def test_a_second_system_under_a_taken_key_is_refused():
    from campaigns.systems import BaseSystem, register

    class Impostor(BaseSystem):
        key = "t10"

    with pytest.raises(ValueError, match="already registered under 't10'"):
        register(Impostor())
    assert get_system("t10").__class__.__name__ == "T10"


def test_an_object_without_the_protocols_members_is_refused():
    from campaigns.systems import register

    class Half:
        key = "half"

    with pytest.raises(TypeError, match="does not implement the System protocol"):
        register(Half())


def test_a_system_listing_two_parts_of_one_kind_is_refused():
    from campaigns.systems import BaseSystem, register
    from rolls.dashboard.system_boxes import CardTools

    class Twice(BaseSystem):
        key = "twice"
        parts = (CardTools(lambda c, campaign: {}), CardTools(lambda c, campaign: {"x": 1}))

    with pytest.raises(ValueError, match="twice lists two parts of kind 'card_tools'"):
        register(Twice())
    assert all(s.key != "twice" for s in all_systems())


def test_a_box_at_a_place_the_dashboard_has_not_is_refused():
    from rolls.dashboard.system_boxes import Box, DashboardBoxes

    with pytest.raises(ValueError, match="No place on the dashboard is called"):
        DashboardBoxes((Box("sidebar", "x.html", lambda campaign, session: {}),))


def test_a_place_of_the_dashboard_holds_one_box():
    from rolls.dashboard.system_boxes import Box, DashboardBoxes

    box = Box("results", "x.html", lambda campaign, session: {})
    with pytest.raises(ValueError, match="holds one box"):
        DashboardBoxes((box, box))


def test_a_system_without_a_part_offers_nothing_in_that_feature():
    from campaigns.systems import BaseSystem
    from rolls.conditions.in_force import NO_CONDITIONS, condition_rules
    from rolls.opposed.rules import OpposedRules
    from rolls.tables.random_tables import NO_TABLE_RULES, table_rules

    class Bare(BaseSystem):
        key = "bare"

    bare = Bare()
    assert bare.part(OpposedRules) is None
    assert condition_rules(bare) is NO_CONDITIONS
    assert table_rules(bare) is NO_TABLE_RULES
    assert bare.offered == {}


def test_a_part_of_another_type_under_the_same_key_is_not_taken_for_it():
    from campaigns.systems import BaseSystem
    from rolls.dashboard.system_boxes import DashboardBoxes

    class Lookalike:
        key = "dashboard_boxes"

    class Odd(BaseSystem):
        key = "odd"
        parts = (Lookalike(),)

    assert Odd().part(DashboardBoxes) is None


def test_an_unknown_key_says_so():
    from campaigns.systems import UnknownSystem

    with pytest.raises(UnknownSystem, match="No rule system is registered under 'chess'"):
        get_system("chess")
