"""Fair dice (ENGINE.md, "Fair dice"): a committed seed, the roller's nonce, an HMAC-SHA256 stream.

The server makes a secret seed per game session and shows its SHA-256 (the commitment) from the
start; each roll's dice come from HMAC-SHA256(seed, "{seq}:{nonce}:{j}") for j = 0, 1, 2, ...,
and once the seed is published anyone can recompute every face. ``FairDice`` is a random source
like ``secrets.SystemRandom`` for every system's ``roll``: ``core.draw`` asks it for one die at a
time, so the dice come out in the order the roll needs them (explosion batches included), and it
keeps what it drew (``drawn``) so a follow-up that draws only some dice can be checked too.
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
import struct
from typing import Any

from .core import MAX_DICE, EngineError

SEED_BYTES = 32
NONCE_MAX = 64
_HEX64 = re.compile(r"[0-9a-f]{64}")
_NONCE = re.compile(r"[0-9A-Za-z_-]{1,64}")
_NONCE_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-"
_SPAN = 1 << 32
_WORD = struct.Struct(">I")


def new_seed() -> str:
    """A fresh secret seed: 32 bytes from the OS random source, as 64 lowercase hex characters."""
    return secrets.token_bytes(SEED_BYTES).hex()


def commitment(seed: str) -> str:
    """The SHA-256 of the seed's 32 bytes (lowercase hex): shown before any roll."""
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


def new_nonce(length: int = 32) -> str:
    """A nonce made by the server, for a request whose page sent none (ENGINE.md's charset)."""
    return "".join(secrets.choice(_NONCE_ALPHABET) for _ in range(length))


def seed_bytes(seed: Any, name: str = "seed") -> bytes:
    """The 32 bytes of a seed written as 64 lowercase hex characters, or an error."""
    if not isinstance(seed, str) or not _HEX64.fullmatch(seed):
        raise EngineError(f"The '{name}' must be 64 lowercase hex characters (32 bytes).")
    return bytes.fromhex(seed)


def check_nonce(nonce: Any) -> str:
    """A nonce of 1 to 64 characters from [0-9A-Za-z_-], or an error."""
    if not isinstance(nonce, str) or not _NONCE.fullmatch(nonce):
        raise EngineError(
            f"The 'nonce' must be 1 to {NONCE_MAX} characters, each a letter, a digit, '_' or '-'."
        )
    return nonce


def check_seq(seq: Any) -> int:
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise EngineError(f"The 'seq' must be a whole number of at least 1, not {seq!r}.")
    return seq


@functools.lru_cache(maxsize=MAX_DICE + 1)
def _words(count: int) -> struct.Struct:
    return struct.Struct(f">{count}I")


@functools.lru_cache(maxsize=256)
def _hmac_pads(key: bytes) -> tuple[Any, Any]:
    """HMAC-SHA256 (RFC 2104) with the key's inner and outer hashes started once per seed:
    ``hmac.digest`` starts them again for every 32 bytes, which made a fair roll 2-3x slower."""
    padded = key.ljust(64, b"\0")
    inner = hashlib.sha256(bytes(byte ^ 0x36 for byte in padded))
    outer = hashlib.sha256(bytes(byte ^ 0x5C for byte in padded))
    return inner, outer


class FairDice:
    """The dice of one roll: the HMAC-SHA256 stream of (seed, seq, nonce), read 4 bytes a die.

    ``randint(1, s)`` takes the next 4 bytes as a big-endian unsigned x, throws away an x at or
    above 2^32 - (2^32 mod s) and takes the next, and answers (x mod s) + 1. ``drawn`` lists
    ``(sides, face)`` of every die given out, in order.
    """

    __slots__ = ("_pads", "_prefix", "_block", "_buffer", "_at", "drawn")

    def __init__(self, seed: str | bytes, seq: int, nonce: str) -> None:
        key = seed if type(seed) is bytes else seed_bytes(seed)
        if len(key) != SEED_BYTES:
            raise EngineError("The seed must be 32 bytes.")
        self._pads = _hmac_pads(key)
        self._prefix = f"{check_seq(seq)}:{check_nonce(nonce)}:"
        self._block = 0
        self._buffer = b""
        self._at = 0
        self.drawn: list[tuple[int, int]] = []

    def _take(self, size: int) -> int:
        """Make sure ``size`` unread bytes are buffered; return where they start."""
        at = self._at
        end = at + size
        if end <= len(self._buffer):
            self._at = end
            return at
        buffer = self._buffer[at:]
        inner_pad, outer_pad = self._pads
        block, prefix = self._block, self._prefix
        while len(buffer) < size:
            inner, outer = inner_pad.copy(), outer_pad.copy()
            inner.update(f"{prefix}{block}".encode())
            outer.update(inner.digest())
            buffer += outer.digest()
            block += 1
        self._buffer, self._block, self._at = buffer, block, size
        return 0

    def _word(self) -> int:
        start = self._take(4)  # first: it may refill the buffer
        return _WORD.unpack_from(self._buffer, start)[0]

    def die(self, sides: int) -> int:
        """The next die with ``sides`` sides (1..sides)."""
        if not isinstance(sides, int) or sides < 1:
            raise EngineError(f"A die needs at least one side, not {sides!r}.")
        limit = _SPAN - _SPAN % sides
        word = self._word()
        while word >= limit:
            word = self._word()
        face = word % sides + 1
        self.drawn.append((sides, face))
        return face

    def dice(self, sides: int, count: int) -> tuple[int, ...]:
        """The next ``count`` dice with ``sides`` sides, exactly as ``count`` calls of ``die``.

        One unpack for all the words; in the rare case that a word is rejected, the dice are
        read again one by one from the first word, so the order of the stream is kept.
        """
        if count <= 0:
            return ()
        limit = _SPAN - _SPAN % sides
        start = self._take(4 * count)
        words = _words(count).unpack_from(self._buffer, start)
        if max(words) >= limit:
            # Rewind (the unread bytes are still in the buffer) and go die by die.
            self._at = start
            return tuple(self.die(sides) for _ in range(count))
        faces = tuple([word % sides + 1 for word in words])
        self.drawn += [(sides, face) for face in faces]
        return faces

    def randint(self, a: int, b: int) -> int:
        """Like ``random.randint``: one die of b - a + 1 sides, shifted to start at ``a``."""
        return a - 1 + self.die(b - a + 1)
