"""What may follow an AST roll (RULES.md section 2): the FUNT re-roll (once per test, N FUNTs
re-roll N white dice) and, when the test is eased, the player's choice of the white die read
("choose": the same faces read again with another die); when it is hindered, the GM's choice of
that die. Either one settles the test's first entry; a re-roll may still be read with another
die when eased. The FUNT a multiple gives follows the test's final reading: a reading that
replaces another adds or takes back the difference (never below 0; the panel's ``gain_funt``).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, ngettext_lazy

from rolls import labels
from rolls.engine import EngineError
from rolls.engine import ast as engine
from rolls.engine.core import RANK
from rolls.labels import OUTCOME_LABELS, words
from rolls.panels import FollowUp, Indices, Name, Panel, PanelForm, source
from rolls.systems.ast.panel import TEMPLATE, gain_funt
from sheets.systems.ast import view as read_sheet

# The GM's pick of the white die read when the test is hindered ("the white 6, read by the GM's
# choice: white die 3").
labels.register(
    counted={
        "gm_read": ngettext_lazy(
            "the white %(n)s read by the GM's choice",
            "the white %(n)s read by the GM's choice",
            "n",
        )
    },
    unsigned={"gm_read"},
    sources={"gm_read": gettext_lazy("white die read by the GM's choice")},
    words={"white_die_n": gettext_lazy("white die %(n)s")},
)


def follow_ups(roll, character, campaign) -> list[FollowUp]:
    """What the rules allow after this entry: nothing once something followed it."""
    if roll.system != "ast" or roll.kind not in ("test", "reroll") or roll.follow_ups.exists():
        return []
    try:
        first = _rebuild(roll)
    except EngineError:
        return []
    offered = []
    funt = _sheet_funt(character)
    if roll.kind == "test" and funt >= 1:
        dice = [
            (str(index), _die_text(index, face, index == first.read_index))
            for index, face in enumerate(first.white)
        ]
        offered.append(
            FollowUp(
                "reroll",
                _("Re-roll the ticked dice with FUNT"),
                (
                    {
                        "type": "checkboxes",
                        "name": "die",
                        "label": _(
                            "FUNT re-roll, once per test: tick the white dice to re-roll, "
                            "one FUNT each (you have %(n)s)"
                        )
                        % {"n": funt},
                        "choices": dice,
                    },
                ),
            )
        )
    readings = _other_readings(first)
    if readings:
        offered.append(
            FollowUp(
                "choose",
                _("Read this die instead"),
                (
                    {
                        "type": "radio",
                        "name": "choice",
                        "label": _(
                            "Eased: you choose the white die read. Reading another one settles "
                            "the test (no re-roll afterwards)."
                        ),
                        "choices": readings,
                    },
                ),
            )
        )
    return offered


def build_follow_up(kind: str, roll, character, campaign, choices) -> Panel:
    panel = Panel(system="ast", template=TEMPLATE, label=roll.label_words)
    try:
        first = _rebuild(roll)
    except EngineError as error:
        panel.errors[""] = [str(error)]
        return panel
    if kind == "reroll":
        _reroll(panel, roll, first, character, choices)
    elif kind == "choose":
        _choose(panel, roll, first, choices)
    else:
        panel.errors[""] = [_("That can no longer be done with this roll.")]
    return panel


# --- after the roll -------------------------------------------------------------------------


def _rebuild(roll) -> engine.Result:
    """The entry's result, re-resolved from its stored params and faces."""
    params = engine.parse_params(roll.params)
    return engine.resolve(params, engine.parse_faces(params, roll.faces))


def _sheet_funt(character) -> int:
    return read_sheet(character.data).funt


def _die_text(index: int, face: int, read: bool) -> str:
    text = _("die %(n)s: %(face)s") % {"n": index + 1, "face": face}
    return _("%(die)s (read)") % {"die": text} if read else text


def _other_readings(first: engine.Result, mode: str = engine.EASED) -> list[tuple[str, str]]:
    """When the test is ``mode`` and a white die is read, one white die per other face that may
    be read instead: best first when eased (the player's choice), worst first when hindered
    (the GM's)."""
    if first.mode != mode or first.read != "white":
        return []
    readings = []
    seen = {first.face}
    sign = -1 if mode == engine.EASED else 1
    order = sorted(range(len(first.white)), key=lambda i: sign * RANK[_outcome(first.white[i])])
    for index in order:
        face = first.white[index]
        if face in seen:
            continue
        seen.add(face)
        text = _("%(face)s: %(outcome)s") % {
            "face": face,
            "outcome": OUTCOME_LABELS[_outcome(face)],
        }
        extra = first.white.count(face) - 1
        if extra:
            text += " " + _("(+%(n)s “and”, +1 FUNT)") % {"n": extra}
        readings.append((str(index), text))
    return readings


def _outcome(face: int) -> str:
    return engine.FACE_OUTCOME[face]


class DiceToReroll(PanelForm):
    """The white dice ticked for the FUNT re-roll, one FUNT each; a box the roll never had is
    ignored."""

    die = Indices()

    # The white dice rolled and the FUNT the sheet holds, as ``read`` gets them.
    dice: int
    funt: int

    @classmethod
    def read(cls, choices, dice: int, funt: int) -> DiceToReroll:
        form = cls(choices)
        form.dice, form.funt = dice, funt
        return form

    def clean_die(self) -> list[int]:
        indices = sorted({i for i in self.cleaned_data["die"] if 0 <= i < self.dice})
        if not indices:
            raise ValidationError(_("Tick the white dice to re-roll (one FUNT each)."))
        if len(indices) > self.funt:
            raise ValidationError(
                ngettext(
                    "Re-rolling %(n)s die costs %(n)s FUNT; you have %(have)s.",
                    "Re-rolling %(n)s dice costs %(n)s FUNT; you have %(have)s.",
                    len(indices),
                )
                % {"n": len(indices), "have": self.funt}
            )
        return indices


def _reroll(panel: Panel, roll, first: engine.Result, character, choices) -> None:
    form = DiceToReroll.read(choices, len(first.white), _sheet_funt(character))
    if form.messages:
        panel.errors |= form.messages
        return
    indices = form.cleaned["die"]
    dice = ", ".join(f"{i + 1} ({first.white[i]})" for i in indices)
    panel.params = {key: value for key, value in roll.params.items() if key != "choice"}
    panel.sources = [source("funt", len(indices), words("rerolled_white_dice", dice=dice))]
    panel.spend = {"funt": len(indices)}
    panel.on_result = gain_funt(first.funt_gained)
    panel.resolver = lambda module, params, rng: engine.roll_reroll(first, indices, rng)


class DieToRead(PanelForm):
    """Which of the white dice offered is read instead: the player's choice when eased, the
    GM's when hindered."""

    choice = Name()

    # The dice offered, as ``read`` gets them.
    offered: set[str]

    @classmethod
    def read(cls, choices, offered: set[str]) -> DieToRead:
        form = cls(choices)
        form.offered = offered
        return form

    def clean_choice(self) -> int:
        try:
            index = int(self.cleaned_data["choice"])
        except ValueError:
            index = None
        if index is None or str(index) not in self.offered:
            raise ValidationError(_("Choose one of the white dice offered."))
        return index


def _choose(panel: Panel, roll, first: engine.Result, choices) -> None:
    _read_instead(panel, roll, first, choices, engine.EASED)


def _read_instead(panel: Panel, roll, first: engine.Result, choices, mode: str) -> None:
    """Another white die of the same faces read: the player's when eased, the GM's when
    hindered; the FUNT of a multiple follows the new reading."""
    form = DieToRead.read(choices, {value for value, _text in _other_readings(first, mode)})
    if form.messages:
        panel.errors |= form.messages
        return
    index = form.cleaned["choice"]
    faces = engine.Faces(first.black, first.white)
    panel.params = {**roll.params, "choice": index}
    if mode == engine.HINDERED:
        # The log names the GM's pick: which white die, and the face it shows.
        panel.sources = [source("gm_read", first.white[index], words("white_die_n", n=index + 1))]
    panel.on_result = gain_funt(first.funt_gained)
    panel.resolver = lambda module, params, rng: engine.resolve(params, faces)


# --- the GM's choice of the white die read, when hindered ----------------------------------------

#: The log's kind of the GM's reading of another white die (rolls.labels.KIND_LABELS).
GM_CHOOSE = "gm_choose"
#: Why the GM has nothing to choose after a roll: only a hindered test's white die is the GM's.
GM_NOTHING_TO_CHOOSE = gettext_lazy(
    "This roll is not hindered, or its white dice all show one face: there is no die for you "
    "to choose."
)


def gm_follow_ups(roll, character, campaign) -> list[FollowUp]:
    """Hindered, the GM chooses the white die read (RULES.md 2.3; the worst is read by default):
    offered on the test or its re-roll until something follows it."""
    if roll.system != "ast" or roll.kind not in ("test", "reroll") or roll.follow_ups.exists():
        return []
    try:
        first = _rebuild(roll)
    except EngineError:
        return []
    readings = _other_readings(first, engine.HINDERED)
    if not readings:
        return []
    label = _(
        "Hindered: you choose the white die read (now %(face)s: %(outcome)s, the worst). "
        "Reading another one settles the test."
    ) % {"face": first.face, "outcome": OUTCOME_LABELS[first.outcome]}
    field = {"type": "radio", "name": "choice", "label": label, "choices": readings}
    return [FollowUp(GM_CHOOSE, _("Read this die instead"), (field,))]


def build_gm_follow_up(kind: str, roll, character, campaign, choices) -> Panel:
    """The GM's reading of another white die of a hindered test: the same faces read again."""
    panel = Panel(system="ast", template=TEMPLATE, label=roll.label_words)
    try:
        first = _rebuild(roll)
    except EngineError as error:
        panel.errors[""] = [str(error)]
        return panel
    if kind != GM_CHOOSE:
        panel.errors[""] = [_("That can no longer be done with this roll.")]
        return panel
    _read_instead(panel, roll, first, choices, engine.HINDERED)
    return panel
