"""A sixth rule system, a toy: a coin (one d2, heads succeeds), laid out as a real system is.

It is the worked example of ``docs/adding-a-system.md``: its own folder, in the shape of
``rolls/systems/<key>/`` (``engine.py``, ``panel.py``, ``demo.py``, ``system.py``), and one
registry entry. It lives under ``tests/`` so that it is never offered to a real table: its tests
(``tests/web/test_system_coin.py``) register it for each test and take it away again, and it
passes the whole conformance suite with nothing of the app edited for it. Its sheet is the
generic one (``sheets.systems.generic``), its panel the generic template.
"""
