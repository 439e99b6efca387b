"""The coin as one ``System`` (``campaigns.systems``): what it offers, the rest by default.

A real system's ``system.py`` ends with ``SYSTEM = register(TheSystem())`` and sits in
``rolls/systems/<key>/``, where ``rolls.apps`` finds it; the coin's tests register it themselves,
for one test at a time, so that no real table is ever offered it."""

from __future__ import annotations

from campaigns.systems import BaseSystem
from sheets.systems import generic
from tests.coin import demo, engine, panel


class Coin(BaseSystem):
    key = "coin"
    name = "Coin (a toy system)"
    position = 99
    engine = engine
    sheet = generic
    panel = panel
    demo = demo
    facts = ("heads",)
