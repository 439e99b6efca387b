"""The resolution engine: the five rule systems of RULES.md, pure Python, standard library only.

Each system module offers ``parse_params``, ``parse_faces``, ``resolve`` (deterministic), ``roll``
(draws faces from an injected random source, then resolves), ``odds`` (exact) and, where the rules
have them, ``opposed``. Results are frozen dataclasses; ``contract()`` gives ENGINE.md's answer.
"""

from .core import MAX_DICE, OUTCOMES, RANK, EngineError
from .registry import SYSTEMS, system_module

__all__ = ["MAX_DICE", "OUTCOMES", "RANK", "SYSTEMS", "EngineError", "system_module"]
