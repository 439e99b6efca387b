"""Scripted dice: what a test rolls, fed through ``record_roll``'s seam, never by patching random.

A roll a test makes itself takes ``rng=Scripted(...)``; a roll made through a view (which passes
no ``rng``) gets its dice from ``rolls.actions.dice_source``, which the ``dice`` fixture
(tests/web/conftest.py) swaps for the test's faces.
"""

from __future__ import annotations

import pytest

from rolls import actions


class Scripted:
    """A random source that answers with the given faces, in order; a face the die cannot show
    fails the test (so a script cannot silently roll a 7 on a d6)."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, low: int, high: int) -> int:
        assert self.faces, "the test scripted fewer dice than the roll drew"
        face = self.faces.pop(0)
        assert low <= face <= high, f"scripted face {face} is not on a d{high}"
        return face


class ScriptedDice:
    """``dice(4, 4, 1)``: every roll the server makes from now on deals these faces
    (each roll from the first of them). ``dice.queue()``: one source that the rolls
    from now on draw from in turn, its ``faces`` set by the test between rolls."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self._monkeypatch = monkeypatch

    def __call__(self, *faces: int) -> None:
        deal(self._monkeypatch, *faces)

    def queue(self) -> Scripted:
        source = Scripted()
        self._monkeypatch.setattr(actions, "dice_source", lambda *_stream: source)
        return source


def deal(monkeypatch: pytest.MonkeyPatch, *faces: int) -> None:
    """Every roll the server makes from now on (until ``monkeypatch`` undoes it) deals
    ``faces``, each roll from the first of them: for helpers that take ``monkeypatch``."""
    monkeypatch.setattr(actions, "dice_source", lambda *_stream: Scripted(*faces))
