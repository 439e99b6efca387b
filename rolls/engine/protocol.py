"""The JSON Lines contract of ENGINE.md: one request object in, one answer object out."""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import IO, Any

from .core import EngineError, check_fields
from .fair import FairDice, commitment, seed_bytes
from .registry import system_module

_OPS = ("resolve", "odds", "opposed", "draw")


def answer(request: Any) -> dict[str, Any]:
    """Answer one decoded request: its result, or ``{"error": ...}``."""
    try:
        return _dispatch(request)
    except EngineError as error:
        return {"error": str(error)}
    except RecursionError:
        return {"error": "This request is nested too deeply to read."}


def _dispatch(request: Any) -> dict[str, Any]:
    if not isinstance(request, Mapping):
        raise EngineError("Each request must be a JSON object.")
    if request.get("op") == "verify":
        check_fields(request, ("op", "seed", "commitment"), "the request")
        return {"ok": _verify(request.get("seed"), request.get("commitment"))}
    system = request.get("system")
    op = request.get("op")
    if "system" not in request:
        raise EngineError("The request does not say which 'system' to use.")
    module = system_module(system)
    if op not in _OPS:
        raise EngineError(f"Unknown op {op!r}; use one of: resolve, odds, opposed, draw, verify.")
    if op == "resolve":
        check_fields(request, ("system", "op", "params", "faces"), "the request")
        if "faces" not in request:
            raise EngineError("'resolve' needs the rolled 'faces'.")
        return _resolve_side(module, request).contract()
    if op == "draw":
        check_fields(request, ("system", "op", "params", "seed", "seq", "nonce"), "the request")
        return draw(module, request.get("params", {}), request.get("seed"),
                    request.get("seq"), request.get("nonce"))  # fmt: skip
    if op == "odds":
        if "faces" in request:
            raise EngineError("'odds' computes every possible roll; it takes no 'faces'.")
        check_fields(request, ("system", "op", "params"), "the request")
        return module.odds(module.parse_params(request.get("params", {})))
    if not hasattr(module, "opposed"):
        raise EngineError(f"The {system} system has no opposed tests.")
    check_fields(request, ("system", "op", "a", "b"), "the request")
    sides = []
    for name in ("a", "b"):
        if name not in request:
            raise EngineError(f"An opposed test needs side '{name}'.")
        side = check_fields(request[name], ("params", "faces"), f"side '{name}'")
        if "faces" not in side:
            raise EngineError(f"Side '{name}' needs its rolled 'faces'.")
        sides.append(_resolve_side(module, side))
    return module.opposed(*sides).contract()


def draw(module: ModuleType, raw_params: Any, seed: Any, seq: Any, nonce: Any) -> dict[str, Any]:
    """Roll ``raw_params`` with the fair stream of (seed, seq, nonce): resolve's answer + faces."""
    params = module.parse_params(raw_params)
    dice = FairDice(seed_bytes(seed), seq, nonce)
    result = module.roll(params, dice)
    return result.contract() | {"faces": contract_faces(result, dice.drawn)}


def contract_faces(result: Any, drawn: list[tuple[int, int]]) -> Any:
    """The faces of a fresh roll in ENGINE.md's format for its system, from the dice drawn."""
    if hasattr(result, "d10") and hasattr(result, "d6"):  # fasttest: the d10s, then the d6s
        return {"d10": list(result.d10), "d6": list(result.d6)}
    if hasattr(result, "black") and hasattr(result, "white"):  # ast: the black die, the whites
        return {"black": result.black, "white": list(result.white)}
    return [face for _sides, face in drawn]


def _verify(seed: Any, claimed: Any) -> bool:
    if not isinstance(claimed, str):
        raise EngineError("The 'commitment' must be 64 lowercase hex characters.")
    seed_bytes(seed)
    return hmac.compare_digest(commitment(seed), claimed)


def _resolve_side(module: ModuleType, request: Mapping[str, Any]) -> Any:
    params = module.parse_params(request.get("params", {}))
    return module.resolve(params, module.parse_faces(params, request["faces"]))


def serve(lines: Iterable[str], out: IO[str]) -> int:
    """Answer each JSON line; return the exit code (1 only if no line was JSON at all)."""
    seen = parsed = 0
    for line in lines:
        if not line.strip():
            continue
        seen += 1
        try:
            request = json.loads(line)
        except (ValueError, RecursionError):
            reply: dict[str, Any] = {"error": "This line is not valid JSON."}
        else:
            parsed += 1
            reply = answer(request)
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()
    return 1 if seen and not parsed else 0
