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


def test_an_unknown_key_says_so():
    from campaigns.systems import UnknownSystem

    with pytest.raises(UnknownSystem, match="No rule system is registered under 'chess'"):
        get_system("chess")
