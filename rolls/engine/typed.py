"""Real dice, typed in: a random source that hands out the faces a player rolled at the table.

A test rolled with real dice goes through its system's ``roll(params, rng)`` exactly as a drawn
one: ``TypedDice`` is the ``rng``, so the same code resolves the same faces into the same result.
It never invents a face. ``dice_needed`` says which dice a roll asks for, in the order it asks
(ENGINE.md's order of ``faces``): for most tests that is known before the roll; where the faces
decide that more dice follow (T10's explosions), it is found again with the faces typed so far,
and the dice asked for beyond them are what the player rolls and types next.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .core import MAX_DICE, EngineError

#: The face ``dice_needed`` assumes for a die not typed (or not fitting): the lowest, which in no
#: system makes a roll ask for more dice (explosions come from high faces).
_PROBE_FACE = 1


class TypedDice:
    """The faces typed, handed out in order to the dice the roll asks for.

    A face off the die asked for at its place, or a die beyond the faces typed, is an
    ``EngineError`` naming the die; ``unused`` says how many typed faces the roll did not ask
    for. With ``probe``, such a die reads as the lowest face instead, so ``asked`` (the sides of
    every die asked for, in order) can be learnt before all faces are known. It has no
    ``drawn``: nothing here comes from the fair stream.
    """

    __slots__ = ("_faces", "_probe", "asked")

    def __init__(self, faces: Sequence[int | None], *, probe: bool = False) -> None:
        self._faces = list(faces)
        self._probe = probe
        self.asked: list[int] = []

    def die(self, sides: int) -> int:
        index = len(self.asked)
        if index >= MAX_DICE:
            raise EngineError(f"This roll needs more than {MAX_DICE} dice.")
        self.asked.append(sides)
        face = self._faces[index] if index < len(self._faces) else None
        if face is not None and 1 <= face <= sides:
            return face
        if self._probe:
            return _PROBE_FACE
        if face is None:
            raise EngineError(f"Die {index + 1} (d{sides}) is missing.")
        raise EngineError(f"Die {index + 1} (d{sides}) must show 1 to {sides}, not {face}.")

    def dice(self, sides: int, count: int) -> tuple[int, ...]:
        return tuple(self.die(sides) for _ in range(count))

    def randint(self, a: int, b: int) -> int:
        return a - 1 + self.die(b - a + 1)

    @property
    def unused(self) -> int:
        return max(0, len(self._faces) - len(self.asked))


def dice_needed(
    roll: Callable[[Any, Any], Any], params: Any, faces: Sequence[int | None] = ()
) -> list[int]:
    """The sides of each die ``roll(params, rng)`` asks for, in order, given the faces typed so
    far (None, or a face off its die, reads as the lowest)."""
    source = TypedDice(faces, probe=True)
    roll(params, source)
    return source.asked
