"""Alternative Test System (RULES.md section 2, ENGINE.md ``ast``).

One black d6 (the test die) and a pool of white d6 (one per applicable positive item or FUNT
spent). The test level is the black die plus fixed modifiers; the number of white dice against
that level decides whose choice of white die is read, or whether the black die is read.

Besides the ENGINE.md interface this module offers the FUNT re-roll (``reroll`` and
``roll_reroll``: once per test, N FUNTs re-roll N white dice) and ``challenge_points``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .core import (
    OUTCOMES,
    RANK,
    SIX_OUTCOMES,
    Die,
    EngineError,
    RandomSource,
    check_dice_count,
    check_fields,
    check_probabilities,
    check_range,
    draw,
    faces_list,
    get_int,
    get_optional_int,
    int_list,
)

SIDES = 6
ALLOWED = ("white", "level_mod", "choice")

#: Its outcomes worst to best, its successes and extremes (RULES.md): the shared six.
SCALE = SIX_OUTCOMES

#: What each face of a read die answers (RULES.md 2.4; 3 is `no` by Decision).
FACE_OUTCOME: dict[int, str] = {
    1: "no_and",
    2: "yes_but",
    3: "no",
    4: "yes",
    5: "no_but",
    6: "yes_and",
}
#: Faces from best to worst for the character: 6, 4, 2, 5, 3, 1 (the outcome ranks of core).
BEST_TO_WORST: tuple[int, ...] = tuple(
    sorted(FACE_OUTCOME, key=lambda face: RANK[FACE_OUTCOME[face]], reverse=True)
)
_FACE_RANK: dict[int, int] = {face: RANK[FACE_OUTCOME[face]] for face in FACE_OUTCOME}

#: White dice rolled when the character has none at all (the test is then always hindered).
NO_WHITE_DICE = 2

EASED, HINDERED, EVEN = "eased", "hindered", "even"

# Dice are frozen, so each distinct log entry is built once and shared (resolve stays cheap).
_FACES = range(1, SIDES + 1)
_BLACK_READ = {face: Die(SIDES, face, True, "black", "read") for face in _FACES}
_BLACK_UNREAD = {face: Die(SIDES, face, False, "black") for face in _FACES}
_WHITE_READ = {face: Die(SIDES, face, True, "white", "read") for face in _FACES}
_WHITE_MATCH = {face: Die(SIDES, face, True, "white", "match") for face in _FACES}
_WHITE_UNREAD = {face: Die(SIDES, face, False, "white") for face in _FACES}


@dataclass(frozen=True, slots=True)
class Params:
    """A test as fixed before the roll.

    ``white`` counts the white dice earned (FUNT dice included); ``level_mod`` is the sum of
    negative states, temporary hindrances and challenge points; ``choice`` is the index of the
    white die read when a white die is read (None: the best when eased, the worst when hindered).
    """

    white: int
    level_mod: int = 0
    choice: int | None = None

    @property
    def rolled_white(self) -> int:
        """White dice actually rolled: ``white``, or 2 when there are none."""
        return self.white or NO_WHITE_DICE


@dataclass(frozen=True, slots=True)
class Faces:
    """The rolled faces: the black die and the white dice in roll order."""

    black: int
    white: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Result:
    """A resolved test. ``previous`` links a re-rolled test to the roll it replaced.

    ``read_index`` is the index of the white die read (None when the black die is read);
    ``rerolled`` holds the indices of the white dice re-rolled with FUNTs (one FUNT each).
    """

    params: Params
    black: int
    white: tuple[int, ...]
    level: int
    mode: str
    read: str
    read_index: int | None
    face: int
    outcome: str
    extra_and: int
    funt_gained: int
    dice: tuple[Die, ...]
    rerolled: tuple[int, ...] = ()
    previous: Result | None = None

    @property
    def funt_spent(self) -> int:
        """FUNTs spent on this result's re-roll (0 for a first roll)."""
        return len(self.rerolled)

    def contract(self) -> dict[str, Any]:
        """The resolve answer of ENGINE.md, field for field."""
        return {
            "level": self.level,
            "mode": self.mode,
            "read": self.read,
            "face": self.face,
            "outcome": self.outcome,
            "extra_and": self.extra_and,
            "funt_gained": self.funt_gained,
        }


def parse_params(raw: Any) -> Params:
    """Read and check the test's params (ENGINE.md ``ast``)."""
    raw = check_fields(raw, ALLOWED)
    white = get_int(raw, "white", lo=0)
    rolled = white or NO_WHITE_DICE
    check_dice_count(rolled + 1)  # the white dice and the black one
    level_mod = get_int(raw, "level_mod", 0, lo=0)
    # An index past the dice is refused even when the black die ends up read: it is a mistake
    # in the request whatever the roll shows.
    choice = get_optional_int(raw, "choice", lo=0, hi=rolled - 1)
    return Params(white, level_mod, choice)


def parse_faces(params: Params, raw: Any) -> Faces:
    """Check ``{"black": face, "white": [faces]}``: one white face per white die rolled."""
    raw = check_fields(raw, ("black", "white"), "faces")
    black = get_int(raw, "black", lo=1, hi=SIDES)
    if "white" not in raw:
        raise EngineError("'white' is missing from the faces.")
    white = faces_list("white", raw["white"], SIDES, params.rolled_white)
    return Faces(black, white)


def mode_for(white: int, level: int) -> str:
    """Eased, hindered or even: the white dice earned against the test level."""
    if white == 0 or white < level:  # no white die at all: hindered whatever they show
        return HINDERED
    return EASED if white > level else EVEN


def resolve(params: Params, faces: Faces) -> Result:
    """Read the test from its faces (deterministic)."""
    return _judge(params, faces.black, faces.white)


def roll(params: Params, rng: RandomSource) -> Result:
    """Roll the black die, then the white dice, and resolve."""
    black = rng.randint(1, SIDES)
    return _judge(params, black, draw(rng, SIDES, params.rolled_white))


def reroll(
    first: Result, indices: Sequence[int], faces: Sequence[int], choice: int | None = None
) -> Result:
    """The FUNT re-roll with given faces: white die ``indices[i]`` now shows ``faces[i]``.

    One FUNT per die; once per test, so a result that is itself a re-roll is refused. The level
    and mode stay those of the test; the die read is chosen anew (``choice``, None = default).
    The new result links to ``first`` through ``previous``. The engine keeps no state: the
    caller stores the re-rolled result in place of ``first`` and offers no re-roll of ``first``
    again, since a second call with the same ``first`` cannot be told apart here.
    """
    picked = _check_reroll(first, indices)
    new_faces = faces_list("faces", faces, SIDES, len(picked))
    if choice is not None:
        check_range("choice", choice, 0, len(first.white) - 1)
    white = list(first.white)
    for index, face in zip(picked, new_faces, strict=True):
        white[index] = face
    params = dataclasses.replace(first.params, choice=choice)
    return _judge(params, first.black, tuple(white), previous=first, rerolled=picked)


def roll_reroll(
    first: Result, indices: Sequence[int], rng: RandomSource, choice: int | None = None
) -> Result:
    """The FUNT re-roll with fresh faces drawn from ``rng`` (see ``reroll``)."""
    picked = _check_reroll(first, indices)
    return reroll(first, picked, draw(rng, SIDES, len(picked)), choice)


def odds(params: Params) -> dict[str, Any]:
    """Exact outcome odds with the default choices (``choice`` is ignored: no die exists yet).

    The black die is uniform; for each face the mode is fixed, and the best (worst) of n white
    dice has a closed form: with ranks 0 (worst) to 5, P(best rank <= r) = ((r + 1) / 6) ** n.
    """
    n = params.rolled_white
    best = _extreme_odds(n, best=True)
    worst = _extreme_odds(n, best=False)
    probabilities = dict.fromkeys(OUTCOMES, 0.0)
    for black in range(1, SIDES + 1):
        mode = mode_for(params.white, black + params.level_mod)
        if mode == EVEN:
            probabilities[FACE_OUTCOME[black]] += 1 / SIDES
            continue
        for outcome, p in (best if mode == EASED else worst).items():
            probabilities[outcome] += p / SIDES
    return {"odds": dict(check_probabilities(probabilities))}


def challenge_points(players: int) -> int:
    """The GM's challenge points at the start of a scene: one per player, the GM not counted.

    The count is the table's players even when only one of their characters is in the scene.
    """
    if not isinstance(players, int) or isinstance(players, bool):
        raise EngineError(f"The number of players must be a whole number, not {players!r}.")
    return check_range("players", players, 0)


def _judge(
    params: Params,
    black: int,
    white: tuple[int, ...],
    previous: Result | None = None,
    rerolled: tuple[int, ...] = (),
) -> Result:
    level = black + params.level_mod
    mode = mode_for(params.white, level)
    if mode == EVEN:
        # The black die is read; white dice showing the same face are no multiple (Decision).
        dice = (_BLACK_READ[black], *map(_WHITE_UNREAD.__getitem__, white))
        return Result(
            params=params,
            black=black,
            white=white,
            level=level,
            mode=mode,
            read="black",
            read_index=None,
            face=black,
            outcome=FACE_OUTCOME[black],
            extra_and=0,
            funt_gained=0,
            dice=dice,
            rerolled=rerolled,
            previous=previous,
        )
    index = params.choice
    if index is None:
        rank = _FACE_RANK.__getitem__
        index = white.index(max(white, key=rank) if mode == EASED else min(white, key=rank))
    face = white[index]
    extra = white.count(face) - 1
    if extra:
        dice = (
            _BLACK_UNREAD[black],
            *[(_WHITE_MATCH if shown == face else _WHITE_UNREAD)[shown] for shown in white],
        )
    else:
        dice = (_BLACK_UNREAD[black], *map(_WHITE_UNREAD.__getitem__, white))
    # The read die itself: the first of the matching faces is not always the one chosen.
    dice = (*dice[: index + 1], _WHITE_READ[face], *dice[index + 2 :])
    return Result(
        params=params,
        black=black,
        white=white,
        level=level,
        mode=mode,
        read="white",
        read_index=index,
        face=face,
        outcome=FACE_OUTCOME[face],
        extra_and=extra,
        funt_gained=1 if extra else 0,  # one FUNT for a used multiple, however large
        dice=dice,
        rerolled=rerolled,
        previous=previous,
    )


def _check_reroll(first: Result, indices: Any) -> tuple[int, ...]:
    if first.previous is not None:
        raise EngineError("This test was already re-rolled; a test can be re-rolled only once.")
    count = len(first.white)
    is_list = isinstance(indices, Sequence) and not isinstance(indices, (str, bytes))
    if is_list and len(indices) > count:
        raise EngineError(
            f"Only {count} white dice were rolled; {len(indices)} cannot be re-rolled."
        )
    picked = int_list("indices", indices, 0, count - 1)
    if not picked:
        raise EngineError("Name at least one white die to re-roll (one FUNT per die).")
    if len(set(picked)) != len(picked):
        raise EngineError("Each white die can be re-rolled only once; an index is named twice.")
    return picked


def _extreme_odds(n: int, best: bool) -> Mapping[str, float]:
    """Outcome odds of the best (or worst) of ``n`` white dice; each rank is one face in six."""
    result = {}
    for rank, outcome in enumerate(OUTCOMES):
        if best:  # P(max rank == rank)
            p = ((rank + 1) / SIDES) ** n - (rank / SIDES) ** n
        else:  # P(min rank == rank)
            p = ((SIDES - rank) / SIDES) ** n - ((SIDES - 1 - rank) / SIDES) ** n
        result[outcome] = p
    return result
