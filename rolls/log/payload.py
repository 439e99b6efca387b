"""A roll as the log shows it: one JSON-able dict built once, then filtered per viewer.

The page and the websocket broadcast both render ``templates/rolls/log/_entry.html`` from this dict,
so a live entry and a reloaded one can never disagree, and a consumer never queries the database
per event.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from campaigns.systems import get_system
from rolls.engine.dice import QUICK_KIND
from rolls.engine.note import NOTE_KINDS
from rolls.models import Roll, Seal, Strike, Visibility

# Facts that say nothing when 0: Caerbannog's heroic effort costs 0 only when it was not made, and
# a failed test showing "heroic effort cost 0" beside the offer to pay 2 reads as a contradiction.
SILENT_WHEN_ZERO = frozenset({"heroic_cost"})


def engine_faces(system: str, dice: list[dict[str, Any]]) -> Any:
    """The faces of a roll in ENGINE.md's format, so anyone can re-resolve it and check it."""
    return get_system(system).engine_faces(dice)


def result_document(result: Any) -> dict[str, Any]:
    """What is stored of an engine result: ENGINE.md's answer and every die with its fate."""
    return {"answer": result.contract(), "dice": [asdict(die) for die in result.dice]}


def sealed_for(roll: Roll) -> list[int] | None:
    """Who besides the GM sees ``roll`` whole while it is sealed (rolls.models.Seal), or None
    when it is not (never sealed, or revealed). Reads ``roll.seal``: one query unless it was
    selected with the roll (``select_related("seal")``) or cached as the roll was made."""
    try:
        seal = roll.seal
    except Seal.DoesNotExist:
        return None
    return None if seal.revealed_at is not None else list(seal.viewers)


def struck_of(roll: Roll) -> dict[str, Any] | None:
    """Who struck ``roll`` (rolls.strikes), why, and with which entry; None when nobody did.
    Reads ``roll.strike``: one query unless selected with the roll or cached as it was made."""
    try:
        strike = roll.strike
    except Strike.DoesNotExist:
        return None
    return {"seq": strike.entry_seq, "by": strike.by_name, "reason": strike.reason}


#: Entries a viewer who may not see them never learns of, not even that they were made: a chat
#: line (rolls.chat) to the GM or to another member, and what follows one (the GM's strike). A
#: roll kept from a viewer still shows that it was made (a hidden roll is part of the evening);
#: a word between two people is not.
UNSHOWN_KINDS = frozenset({"chat"})
#: The log's kind of the GM's strike of an earlier entry (rolls.strikes writes it): the one
#: entry that changes how another, earlier one reads (struck).
STRUCK = "struck"
#: Entries whose readers are those of the entry they follow, whoever wrote them: the GM's strike
#: (rolls.strikes) of a player's secret roll reaches that player, of a whisper its two people.
AUDIENCE_OF_PARENT = frozenset({STRUCK})


def audience_of(roll: Roll) -> dict[str, Any]:
    """Who may see ``roll`` as its visibility says: its ``author`` (a secret's roller, a
    whisper's writer), a whisper's ``recipient``, whether it is ``unshown`` to the others
    (``UNSHOWN_KINDS``), and its seal. Reads ``roll.parent`` where the parent decides."""
    decides = roll.parent if roll.kind in AUDIENCE_OF_PARENT and roll.parent_id else roll
    return {
        "visibility": roll.visibility,
        "author_id": decides.actor_id,
        "recipient_id": decides.recipient_id,
        "unshown": decides.kind in UNSHOWN_KINDS,
        "sealed": sealed_for(roll),
    }


def roll_payload(roll: Roll) -> dict[str, Any]:
    """Everything a log entry shows. Needs ``actor`` (and ``parent``, ``seal``) loaded or
    cached."""
    answer = roll.result.get("answer", {})
    # The numbers of the engine's answer the entry shows beside the dice (System.facts).
    facts = [
        (key, answer[key])
        for key in get_system(roll.system).entry_facts(roll)
        if key in answer and not (key in SILENT_WHEN_ZERO and answer[key] == 0)
    ]
    note = roll.kind in NOTE_KINDS  # a condition added or cleared, options chosen: no dice
    if roll.kind == QUICK_KIND or note:  # no outcome of the system's: its facts are not its
        facts = []
    return {
        "id": roll.pk,
        "session_id": roll.session_id,
        "seq": roll.seq,
        "kind": roll.kind,
        "note": note,
        "parent_seq": roll.parent.seq if roll.parent_id else None,
        # Who may see it (``audience_of``). Sealed: the GM and these users alone see it whole
        # until it is revealed; None: not.
        **audience_of(roll),
        # Struck by the GM (rolls.strikes): who, why, with which entry; None: it stands.
        "struck": struck_of(roll),
        "actor_id": roll.actor_id,
        "actor_name": roll.actor.get_username(),
        "character_id": roll.character_id,
        "character_name": roll.character_name,
        "system": roll.system,
        # Data (rolls.labels) where the roll has it, else the plain text of an older row.
        "label": roll.label_words,
        "sources": roll.sources,
        "dice": roll.result.get("dice", []),
        "outcome": answer.get("outcome", ""),
        "facts": facts,
        "faces": roll.faces,
        "params": roll.params,
        "result": answer,
        # Fair dice: what a checker needs with the seed (ENGINE.md); hidden with the faces.
        "nonce": roll.nonce,
        "server_nonce": roll.server_nonce,
        "drawn": roll.drawn,
        # Real dice typed in by the actor (rolls.real_dice): nothing drawn, nothing to check.
        "typed": roll.typed,
        "created_at": roll.created_at.isoformat(),
        "redacted": False,
    }


def _visible(payload: dict[str, Any], user_id: int, is_gm: bool) -> bool:
    """Server-side visibility: public to the table, secret to roller and GM, hidden to the GM,
    a whisper to its author, its recipient and the GM."""
    visibility = payload["visibility"]
    if visibility == Visibility.PUBLIC or is_gm:
        return True
    if visibility == Visibility.WHISPER:
        return user_id in (payload["author_id"], payload["recipient_id"])
    return visibility == Visibility.SECRET and payload["author_id"] == user_id


def _unsealed(payload: dict[str, Any], user_id: int, is_gm: bool) -> bool:
    """A sealed roll (rolls.models.Seal) is the GM's and its viewers' alone until revealed."""
    sealed = payload.get("sealed")
    return sealed is None or is_gm or user_id in sealed


def unknown_to(payload: dict[str, Any], user_id: int, is_gm: bool) -> bool:
    """Whether this viewer gets nothing of the entry at all (``UNSHOWN_KINDS``)."""
    return payload["unshown"] and not may_see(payload, user_id, is_gm)


def may_see(payload: dict[str, Any], user_id: int, is_gm: bool) -> bool:
    """Whether this viewer may see the entry whole: its visibility allows it and no seal hides
    it from them."""
    return _visible(payload, user_id, is_gm) and _unsealed(payload, user_id, is_gm)


def for_viewer(payload: dict[str, Any], user_id: int, is_gm: bool) -> dict[str, Any]:
    """The payload itself, or only that a hidden roll happened: no faces, no outcome, no who.
    A roll hidden by its seal alone says whose it is and that it waits to be revealed."""
    if may_see(payload, user_id, is_gm):
        return payload
    redacted = {
        "id": payload["id"],
        "session_id": payload["session_id"],
        "seq": payload["seq"],
        "visibility": payload["visibility"],
        "created_at": payload["created_at"],
        "redacted": True,
    }
    if _visible(payload, user_id, is_gm):
        redacted |= {"sealed": True, "character_name": payload["character_name"]}
    return redacted
