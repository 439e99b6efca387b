"""Each rule system's web side is one package, ``rolls/systems/<key>/``: its System object, its
panel, its demo campaign and its rules page (rolls/systems/__init__.py says why the sheet schema
and the engine live elsewhere)."""

import pkgutil
import sys

import pytest

import rolls.systems
from campaigns.systems import all_systems
from rolls.systems import register_all

PACKAGES = sorted(p.name for p in pkgutil.iter_modules(rolls.systems.__path__) if p.ispkg)
SYSTEMS = [s for s in all_systems() if type(s).__module__.startswith("rolls.systems.")]


def test_every_package_registers_one_system_of_its_own():
    assert sorted(type(s).__module__ for s in SYSTEMS) == sorted(
        f"rolls.systems.{name}.system" for name in PACKAGES
    )


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.key)
def test_a_systems_panel_demo_and_rules_page_are_in_its_own_package(system):
    package = type(system).__module__.rpartition(".")[0]
    assert system.panel.__name__ == f"{package}.panel"
    assert system.demo.__name__ == f"{package}.demo"
    assert system.rules_page is sys.modules[f"{package}.rules_page"].PAGE


def test_registering_them_all_again_changes_nothing():
    before = all_systems()
    register_all()
    assert all_systems() == before
