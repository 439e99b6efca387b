"""Fair dice (ENGINE.md, "Fair dice"): the stream, the ``draw`` and ``verify`` ops, the checker.

The derivation is written out again here with ``hmac``/``hashlib`` alone, from ENGINE.md's words,
so the engine is compared with an independent reading of the contract, face by face.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import subprocess

import pytest

from rolls.engine import fair
from rolls.engine.check import check_document
from rolls.engine.protocol import answer
from tests.engine.test_protocol import ROOT, bare_python_env


class Stream:
    """ENGINE.md's stream, independently: HMAC-SHA256(seed, "{seq}:{nonce}:{j}"), 4 bytes a die."""

    def __init__(self, seed_hex: str, seq: int, nonce: str) -> None:
        self.key, self.seq, self.nonce = bytes.fromhex(seed_hex), seq, nonce
        self.data, self.j, self.at = b"", 0, 0

    def word(self) -> int:
        while self.at + 4 > len(self.data):
            message = f"{self.seq}:{self.nonce}:{self.j}".encode()
            self.data += hmac.new(self.key, message, hashlib.sha256).digest()
            self.j += 1
        x = int.from_bytes(self.data[self.at : self.at + 4], "big")
        self.at += 4
        return x

    def die(self, s: int) -> int:
        while True:
            x = self.word()
            if x < 2**32 - (2**32 % s):
                return x % s + 1


def expected_faces(system: str, params: dict, stream: Stream):
    """The faces of a fresh roll in ENGINE.md's order and format, for each system."""
    if system == "fasttest":
        extra = abs(fasttest_net(params))
        extra_d10 = params.get("extra_d10", extra)  # RULES.md step 6: all d10 unless chosen
        d10 = [stream.die(10) for _ in range(1 + extra_d10)]
        d6 = [stream.die(6) for _ in range(1 + extra - extra_d10)]
        return {"d10": d10, "d6": d6}
    if system == "ast":
        black = stream.die(6)
        return {"black": black, "white": [stream.die(6) for _ in range(params["white"] or 2)]}
    if system == "t10":
        faces, batch = [], params["pool"]
        while batch:
            new = [stream.die(10) for _ in range(batch)]
            faces += new
            tens, ones = new.count(10), new.count(1)
            batch = max(0, tens - ones)
        return faces
    if system == "caerbannog":
        return [stream.die(s) for s in params["dice"]]
    return [stream.die(6), stream.die(6)]


def fasttest_net(params: dict) -> int:
    """RULES.md's FastTest steps 1-5: the chance's overflow, bonus, NPC traits, wounds, netted."""
    chance_raw = params["attribute"] + sum(params.get("skills", []))
    traits = params.get("npc_traits", [])
    npc = max(traits) + len(traits) - 1 if traits else 0
    bonus = params.get("bonus", 0) + max(chance_raw - 9, 0)
    penalty = params.get("penalty", 0) + max(1 - chance_raw, 0) + npc + params.get("wounds", 0)
    return bonus - penalty


def random_params(system: str, rnd: random.Random) -> dict:
    if system == "fasttest":
        # A chance from -2 to 12 (overflow dice both ways), NPC traits and wounds now and then.
        params = {"attribute": rnd.randint(-1, 8), "skills": [rnd.randint(-1, 4)],
                  "bonus": rnd.randint(0, 5), "penalty": rnd.randint(0, 5)}  # fmt: skip
        if rnd.random() < 0.3:
            params["npc_traits"] = [rnd.randint(1, 4) for _ in range(rnd.randint(1, 3))]
        if rnd.random() < 0.3:
            params["wounds"] = rnd.randint(1, 3)
        if rnd.random() < 0.7:  # else every extra die is a d10 (ENGINE.md's default)
            params["extra_d10"] = rnd.randint(0, abs(fasttest_net(params)))
        return params
    if system == "ast":
        return {"white": rnd.randint(0, 8), "level_mod": rnd.randint(0, 3)}
    if system == "t10":
        return {"pool": rnd.randint(1, 25), "difficulty": rnd.randint(4, 10)}
    if system == "caerbannog":
        dice = [rnd.choice((4, 6, 8, 10, 12)) for _ in range(rnd.randint(1, 6))]
        return {"dice": dice, "difficulty": rnd.randint(0, 12), "ease": rnd.randint(-1, 1),
                "modifier": rnd.randint(-2, 2), "bonus": rnd.randint(0, 3),
                "rozmach": rnd.randint(0, 10)}  # fmt: skip
    return {"attribute": rnd.randint(1, 8), "skill": rnd.randint(0, 8),
            "difficulty": rnd.randint(10, 18)}  # fmt: skip


def random_nonce(rnd: random.Random) -> str:
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-"
    return "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 64)))


SYSTEMS = ("fasttest", "ast", "t10", "caerbannog", "2d6")


@pytest.mark.parametrize("system", SYSTEMS)
def test_draw_gives_the_faces_of_an_independent_reading_of_the_contract(system):
    rnd = random.Random(f"fair-{system}")
    for _ in range(150):
        seed = rnd.randbytes(32).hex()
        seq, nonce, params = rnd.randint(1, 10**6), random_nonce(rnd), random_params(system, rnd)
        request = {"system": system, "op": "draw", "params": params, "seed": seed, "seq": seq,
                   "nonce": nonce}  # fmt: skip
        reply = answer(request)
        assert reply["faces"] == expected_faces(system, params, Stream(seed, seq, nonce)), request


@pytest.mark.parametrize("system", SYSTEMS)
def test_draw_answers_what_resolve_answers_for_the_drawn_faces(system):
    rnd = random.Random(f"resolve-{system}")
    seed, params = rnd.randbytes(32).hex(), random_params(system, rnd)
    drawn = answer({"system": system, "op": "draw", "params": params, "seed": seed, "seq": 7,
                    "nonce": "n"})  # fmt: skip
    faces = drawn.pop("faces")
    assert drawn == answer({"system": system, "op": "resolve", "params": params, "faces": faces})


def test_exploding_t10_pools_draw_their_explosion_batches_from_the_same_stream():
    rnd = random.Random("explosions")
    exploded = 0
    for _ in range(300):
        seed, nonce = rnd.randbytes(32).hex(), random_nonce(rnd)
        params = {"pool": 20, "difficulty": 7}
        reply = answer({"system": "t10", "op": "draw", "params": params, "seed": seed, "seq": 1,
                        "nonce": nonce})  # fmt: skip
        exploded += len(reply["faces"]) > 20
        assert reply["faces"] == expected_faces("t10", params, Stream(seed, 1, nonce))
    assert exploded > 50


def test_a_die_throws_away_words_from_the_biased_remainder():
    # A die of 2^31 + 1 sides rejects almost half the words: find a stream whose first is one.
    sides = 2**31 + 1
    limit = 2**32 - 2**32 % sides
    seed = "11" * 32
    nonce = next(f"n{i}" for i in range(100) if Stream(seed, 1, f"n{i}").word() >= limit)
    stream = Stream(seed, 1, nonce)
    stream.word()
    assert fair.FairDice(seed, 1, nonce).die(sides) == stream.word() % sides + 1


def test_dice_in_bulk_are_the_dice_one_by_one_even_when_a_word_is_thrown_away():
    sides = 2**31 + 1  # about every other word is thrown away
    for number in range(20):
        bulk = fair.FairDice("22" * 32, number + 1, "bulk")
        single = fair.FairDice("22" * 32, number + 1, "bulk")
        assert bulk.dice(sides, 5) + bulk.dice(6, 9) == tuple(
            [single.die(sides) for _ in range(5)] + [single.die(6) for _ in range(9)]
        )
        assert bulk.drawn == single.drawn


def test_verify_agrees_with_hashlib():
    seed = fair.new_seed()
    right = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert answer({"op": "verify", "seed": seed, "commitment": right}) == {"ok": True}
    assert answer({"op": "verify", "seed": seed, "commitment": "0" * 64}) == {"ok": False}


def test_a_new_seed_is_64_lowercase_hex_and_its_commitment_is_its_sha256():
    seed = fair.new_seed()
    assert len(seed) == 64
    assert seed == seed.lower()
    assert bytes.fromhex(seed)
    assert fair.commitment(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def test_a_server_nonce_is_a_valid_nonce():
    assert fair.check_nonce(fair.new_nonce())
    assert len(fair.new_nonce()) == 32


BASE = {"system": "2d6", "op": "draw", "params": {"attribute": 4, "skill": 7, "difficulty": 15},
        "seed": "ab" * 32, "seq": 1, "nonce": "abc"}  # fmt: skip


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("seed", "AB" * 32, "'seed'"),
        ("seed", "ab" * 31, "'seed'"),
        ("seed", None, "'seed'"),
        ("nonce", "", "'nonce'"),
        ("nonce", "a b", "'nonce'"),
        ("nonce", "é", "'nonce'"),
        ("nonce", "x" * 65, "'nonce'"),
        ("nonce", 12, "'nonce'"),
        ("seq", 0, "'seq'"),
        ("seq", "1", "'seq'"),
        ("seq", True, "'seq'"),
    ],
)
def test_draw_refuses_a_bad_seed_nonce_or_seq_with_a_sentence(field, value, says):
    reply = answer(BASE | {field: value})
    assert list(reply) == ["error"]
    assert says in reply["error"]


def test_draw_refuses_unknown_fields():
    assert "Unknown field 'faces'" in answer(BASE | {"faces": [1, 2]})["error"]


def test_verify_refuses_a_malformed_seed():
    assert "'seed'" in answer({"op": "verify", "seed": "zz", "commitment": "0" * 64})["error"]


def test_the_command_line_answers_draw_and_verify_lines_with_the_bare_python():
    lines = [BASE, {"op": "verify", "seed": "ab" * 32, "commitment": "x"}, BASE | {"seq": -1}]
    result = subprocess.run(
        ["/usr/bin/env", "python3", "-m", "rolls.engine"],
        input="\n".join(json.dumps(line) for line in lines).encode(),
        capture_output=True, cwd=ROOT, env=bare_python_env(), timeout=60,
    )  # fmt: skip
    replies = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert replies[0]["faces"] == expected_faces("2d6", {}, Stream("ab" * 32, 1, "abc"))
    assert replies[1] == {"ok": False}
    assert "error" in replies[2]


# --- The offline checker on a hand-made export (the web tests run it on a real one) ---------


def export_of(seed: str, entries: list[dict]) -> dict:
    return {"fair": {"commitment": fair.commitment(seed), "seed": seed}, "entries": entries}


def entry_for(system: str, params: dict, seed: str, seq: int, nonce: str) -> dict:
    reply = answer({"system": system, "op": "draw", "params": params, "seed": seed, "seq": seq,
                    "nonce": nonce})  # fmt: skip
    faces = reply.pop("faces")
    dice = fair.FairDice(seed, seq, nonce)
    flat = expected_faces(system, params, Stream(seed, seq, nonce))
    sides = {"fasttest": None, "ast": 6, "t10": 10, "2d6": 6}
    drawn = []
    if system == "caerbannog":
        drawn = [[s, dice.die(s)] for s in params["dice"]]
    elif system == "fasttest":
        drawn = [[10, dice.die(10)] for _ in flat["d10"]] + [[6, dice.die(6)] for _ in flat["d6"]]
    else:
        count = len(flat) if isinstance(flat, list) else 1 + len(flat["white"])
        drawn = [[sides[system], dice.die(sides[system])] for _ in range(count)]
    return {"seq": seq, "nonce": nonce, "system": system, "params": params, "faces": faces,
            "result": reply, "drawn": drawn, "parent_seq": None, "redacted": False,
            "dice": [{"sides": s, "face": f} for s, f in drawn]}  # fmt: skip


def test_the_checker_passes_an_honest_export():
    seed = fair.new_seed()
    entries = [entry_for("t10", {"pool": 9}, seed, 1, "a"), entry_for("2d6", BASE["params"],
               seed, 2, "b")]  # fmt: skip
    report = check_document(export_of(seed, entries))
    assert report.ok
    assert report.matched == [1, 2]


def test_the_checker_reports_a_forged_face():
    seed = fair.new_seed()
    entry = entry_for("caerbannog", {"dice": [6, 6], "difficulty": 3}, seed, 1, "a")
    entry["faces"][0] = entry["faces"][0] % 6 + 1
    report = check_document(export_of(seed, [entry]))
    assert not report.ok
    assert report.mismatched[0][0] == 1


def test_the_checker_reports_a_seed_that_is_not_the_commitment():
    seed = fair.new_seed()
    document = export_of(seed, [entry_for("2d6", BASE["params"], seed, 1, "a")])
    document["fair"]["commitment"] = fair.commitment(fair.new_seed())
    assert not check_document(document).ok


def test_the_checker_says_an_export_without_a_seed_cannot_be_checked():
    report = check_document({"fair": {"commitment": "0" * 64, "seed": None}, "entries": []})
    assert not report.ok
    assert "has not ended" in report.problems[0]
