"""What may follow a Caerbannog test's roll (RULES.md section 4) and how each is made: a
re-roll from an ability, a boost (1 Rozmach for the main skill's category bonus) and heroic
effort (exactly 1 success, paid with Wytrzymałość, Determinacja or the other resource the GM
allowed), each a panel logged as its own entry linked to the roll it follows; the chain's state
that decides whether anything may still follow, and the opponent's result heroic effort is read
against in an opposed test.

Decisions of the follow-ups (the rules leave them open):

- A test and its follow-ups form a chain: each follow-up follows the newest entry of the chain
  and carries the test's state (its faces and its boost). Follow-ups are offered only while the
  entry is the character's latest roll, in the session's current scene, and the sheet's Rozmach
  is still what that entry left; otherwise a later roll, a new scene or an edit of the sheet
  would be overwritten by an old test's pool.
- A re-roll comes from an ability (RULES.md's Decision), so a re-roll may follow a re-roll.
  Each names its ability (as the player writes it: the sheet keeps no list of abilities), the
  dice it re-rolls (none ticked means all of them) and its cost in Rozmach, paid when it is
  made. It replaces the dice and resolves them afresh from the pool the test started with, less
  the re-rolls' costs, so only the final roll generates Rozmach: the Rozmach the replaced dice
  gained never existed and cannot pay for a re-roll (**Decision**). A boost taken before the
  re-roll is undone with it (its Rozmach is not spent) and may be taken again on the new dice:
  the result is the same as carrying it over, but a boost can never land on a critical failure
  or on an empty pool.
- Heroic effort settles the test: nothing follows it, so it comes after any boost or re-roll."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rolls import labels
from rolls.actions import ActionRefused
from rolls.engine import EngineError, caerbannog
from rolls.engine.caerbannog_group import draw_reroll
from rolls.labels import words
from rolls.models import PendingTest, Roll
from rolls.opposed.actions import initiators_difficulty
from rolls.panels import FollowUp, Indices, Name, Panel, PanelForm, WholeNumber, source
from rolls.systems.caerbannog import gm_call
from rolls.systems.caerbannog.choices import SOURCE_MAX, rozmach_pool
from rolls.systems.caerbannog.panel import TEMPLATE, keep_rozmach
from sheets.systems.caerbannog import view as read_sheet

# The log's words for a re-roll an ability grants (issue 14), and for heroic effort paid with
# a number of the sheet the GM named (RULES.md 4.12).
labels.register(
    words={
        "rerolled_by": gettext_lazy("%(ability)s: %(dice)s"),
        "reroll_cost": gettext_lazy("re-roll (%(ability)s)"),
        "paid_with_other_on_sheet": gettext_lazy(
            "paid with %(amount)s %(name)s taken off the sheet, allowed by the GM"
        ),
    }
)

#: The most Rozmach one re-roll may cost (the pool never holds more, RULES.md).
REROLL_COST_MAX = 10
#: What heroic effort may be paid with: the sheet's resource key and its name.
HEROIC_RESOURCES = ("wytrzymalosc", "determinacja")
#: Heroic effort paid with another resource, the one the GM allowed on a called test.
OTHER = "other"
FOLLOW_UP_KINDS = ("test", "reroll", "boost", "heroic")


def follow_ups(roll: Roll, character, campaign) -> list[FollowUp]:
    """What may follow ``roll`` now: a re-roll, a boost, heroic effort (see the module's notes)."""
    state = _chain_state(roll, character)
    if state is None:
        return []
    params, answer = state["params"], roll.result["answer"]
    critical = answer["critical_failure"]
    offers = [
        FollowUp(
            "reroll",
            _("Re-roll (an ability allows it)"),
            (
                {
                    "type": "text",
                    "name": "ability",
                    "label": _("Ability that allows it"),
                    "max": SOURCE_MAX,
                },
                {
                    "type": "checkboxes",
                    "name": "die",
                    "label": _("Dice to re-roll (none ticked: all of them)"),
                    "choices": [
                        (index, f"d{sides}: {face}")
                        for index, (sides, face) in enumerate(
                            zip(params.dice, roll.faces, strict=True)
                        )
                    ],
                },
                {
                    "type": "number",
                    "name": "cost",
                    "label": _("Its cost in Rozmach (%(have)s to pay with)")
                    % {"have": params.rozmach},
                    "min": 0,
                    "max": min(REROLL_COST_MAX, params.rozmach),
                },
            ),
        )
    ]
    if not critical and not params.boost and params.bonus > 0 and answer["rozmach"] >= 1:
        offers.append(
            FollowUp(
                "boost",
                _("Boost: spend 1 Rozmach for %(bonus)s (category bonus)")
                % {"bonus": f"+{params.bonus}"},
            )
        )
    against = opponents_result(roll)
    cost = heroic_cost(answer, against)
    if cost is not None:
        offers.append(
            FollowUp(
                "heroic",
                _("Heroic effort: pay %(cost)s for exactly 1 success") % {"cost": cost},
                (heroic_field(roll, character, cost),),
            )
        )
    return offers


def heroic_cost(answer: dict[str, Any], against: int | None) -> int | None:
    """What heroic effort costs after a test whose engine answer is ``answer``, read against
    ``against`` (the opponent's result, or 0): the failure plus 1 (RULES.md 4.6); None when
    there is none to make (no failure, a critical failure, or nothing to read it against)."""
    if against is None or answer["critical_failure"] or answer["result"] - against > 0:
        return None
    return 1 - (answer["result"] - against)


def heroic_field(roll: Roll, character, cost: int | None) -> dict[str, Any]:
    """The heroic offer's "Pay with" choice: the sheet's resources (each with what the sheet
    holds, and "not enough" below ``cost``; None: a cost not known yet) and the other resource
    the GM allowed on the called test, if any."""
    sheet = read_sheet(character.data)
    names = resource_names()
    choices = [
        (key, _resource_choice(names[key], sheet.resource(key), cost or 0))
        for key in HEROIC_RESOURCES
    ]
    other = heroic_other(roll)
    if other is not None:
        choices.append((OTHER, _other_choice(other, sheet)))
    if cost is not None:
        # What the player can pay first (the first choice is the one ticked), the sheet's before
        # the GM's; what the sheet cannot pay last.
        short = {key for key in HEROIC_RESOURCES if sheet.resource(key) < cost}
        if other is not None and other.on_sheet and sheet.resource(other.resource) < other.amount:
            short.add(OTHER)
        choices.sort(key=lambda choice: choice[0] in short)
    return {"type": "radio", "name": "resource", "label": _("Pay with"), "choices": choices}


def build_follow_up(kind: str, roll: Roll, character, campaign, choices) -> Panel:
    """The follow-up's panel: the parent's params changed as ``kind`` says, and a resolver that
    re-reads (boost, heroic effort) or re-rolls (re-roll) the parent's dice."""
    panel = Panel(system="caerbannog", template=TEMPLATE, label=roll.label_words)
    state = _chain_state(roll, character)
    if state is None or kind not in ("reroll", "boost", "heroic"):
        panel.errors[""] = [_("That can no longer be done with this roll.")]
        return panel
    # Paid for from the pool the parent left; the roll is refused if the sheet's has changed.
    panel.on_result = keep_rozmach(roll.result["answer"]["rozmach"])
    if kind == "boost":
        _boost(panel, roll)
    elif kind == "heroic":
        _heroic(panel, roll, character, choices)
    else:
        _reroll(panel, roll, choices)
    return panel


def _boost(panel: Panel, roll: Roll) -> None:
    """Spend 1 Rozmach for the category bonus: the same dice read again with it."""
    panel.params = {**roll.params, "boost": True}
    panel.sources = list(roll.sources) + [
        source("boost", roll.params["bonus"], words("boost_spent"))
    ]
    panel.resolver = _reread(list(roll.faces))


def _heroic(panel: Panel, roll: Roll, character, choices) -> None:
    """Pay for exactly 1 success from the resource chosen, if the sheet holds enough of it."""
    params, faces = {**roll.params, "heroic": True}, list(roll.faces)
    against = opponents_result(roll)
    if against is None:  # not offered (``follow_ups``): its cost would tell the hidden result
        panel.errors[""] = [_("That can no longer be done with this roll.")]
        return
    if against:
        params["difficulty"] = against
    other = heroic_other(roll)
    paid_with = HeroicChoice.read(choices, other)
    if paid_with.messages:
        panel.errors |= paid_with.messages
        return
    resource = paid_with.cleaned["resource"]
    try:
        cost = caerbannog.resolve(caerbannog.parse_params(params), faces).heroic_cost
    except EngineError as error:
        panel.errors[""] = [str(error)]
        return
    # OTHER is refused where the GM allowed no other resource (``HeroicChoice``).
    if resource == OTHER and other is not None and not other.on_sheet:
        # The GM's resource and price (RULES.md 4.12): nothing is taken from the sheet, the log
        # says what was paid; the Rozmach is kept as for any follow-up (``build_follow_up``).
        panel.params = params
        panel.sources = list(roll.sources) + [
            *([source("difficulty", against)] if against else []),
            source("heroic", cost, words("paid_with_other", **other.as_words())),
        ]
        panel.resolver = _reread(faces)
        return
    if resource == OTHER and other is not None:
        # A number on the sheet (Kapitał Społeczny): the GM's price is taken off it, and only
        # when the sheet holds that much (RULES.md 4.6: never paid in part).
        have = read_sheet(character.data).resource(other.resource)
        if have < other.amount:
            panel.errors["resource"] = [_other_short(other, have)]
            return
        panel.params = params
        panel.sources = list(roll.sources) + [
            *([source("difficulty", against)] if against else []),
            source(
                "heroic",
                cost,
                words("paid_with_other_on_sheet", amount=other.amount, name=other.name),
            ),
        ]
        panel.resolver = _reread(faces)
        panel.on_result = _pay_other(panel.on_result, other)
        return
    name = resource_names()[resource]
    have = read_sheet(character.data).resource(resource)
    if have < cost:
        panel.errors["resource"] = [
            _("Heroic effort costs %(cost)s %(name)s; the sheet has %(have)s.")
            % {"cost": cost, "name": name, "have": have}
        ]
        return
    panel.params = params
    panel.sources = list(roll.sources) + [
        *([source("difficulty", against)] if against else []),
        source("heroic", cost, words("paid_with", name=words(resource))),
    ]
    panel.resolver = _reread(faces)
    panel.on_result = _pay_heroic(panel.on_result, resource, name)


def _reroll(panel: Panel, roll: Roll, choices) -> None:
    """Re-roll the dice ticked (none: all of them) by an ability, paying its cost."""
    # The pool the test started with: the re-rolled dice alone generate Rozmach, and a boost
    # taken before is undone with the dice it was taken on (see the module's notes).
    params = {**roll.params, "boost": False, "heroic": False}
    faces = list(roll.faces)
    sources = [s for s in roll.sources if s.get("kind") not in ("boost", "heroic")]
    have = params["rozmach"]
    reroll = RerollChoices.read(choices, have, len(faces))
    if reroll.messages:
        panel.errors |= reroll.messages
        return
    ability, cost, which = (reroll.cleaned[name] for name in ("ability", "cost", "die"))
    dice_words: str | dict[str, Any]
    if len(which) in (0, len(faces)):
        dice_words = words("all_dice")
        count, which_arg = len(faces), None
    else:
        dice_words = ", ".join(f"d{params['dice'][i]} ({faces[i]})" for i in which)
        count, which_arg = len(which), which
    sources.append(source("reroll", count, words("rerolled_by", ability=ability, dice=dice_words)))
    if cost:
        params["rozmach"] = have - cost
        sources.append(source("rozmach_spent", cost, words("reroll_cost", ability=ability)))
    panel.params = params
    panel.sources = sources
    panel.resolver = _redraw(faces, which_arg)


class HeroicChoice(PanelForm):
    """What heroic effort is paid with: a resource of the sheet, or ``OTHER`` when the GM allowed
    another one on the called test (``other``, see ``heroic_other``)."""

    resource = Name()

    other: gm_call.HeroicOther | None

    @classmethod
    def read(cls, choices, other: gm_call.HeroicOther | None) -> HeroicChoice:
        form = cls(choices)
        form.other = other
        return form

    def clean_resource(self) -> str:
        resource = self.cleaned_data["resource"]
        if resource == OTHER and self.other is None:
            raise ValidationError(
                _("The GM has not allowed heroic effort with another resource on this test.")
            )
        if resource != OTHER and resource not in HEROIC_RESOURCES:
            raise ValidationError(_("Choose what heroic effort is paid with."))
        return resource


def heroic_other(roll: Roll) -> gm_call.HeroicOther | None:
    """The other resource the GM allowed heroic effort to be paid with on the called test
    ``roll`` belongs to (RULES.md 4.12), or None. Read defensively: the operation
    (``rolls.pending.forms.HeroicOtherForm``) and the card's panel checked it on the way in."""
    root = roll
    while root.kind in ("reroll", "boost", "heroic") and root.parent is not None:
        root = root.parent
    called = PendingTest.objects.filter(roll=root).only("modifiers").first()
    other, _wrong = gm_call.heroic_other(called.modifiers if called is not None else None)
    return other


class RerollChoices(PanelForm):
    """A re-roll: the ability that allows it, its cost in Rozmach (paid from ``have``, the pool
    the test started with) and the dice it re-rolls (a box the roll never had is ignored)."""

    ability = Name()
    cost = WholeNumber(
        0,
        REROLL_COST_MAX,
        gettext_lazy("A re-roll costs a whole number of Rozmach from 0 to %(max)s."),
        max=REROLL_COST_MAX,
    )
    die = Indices()

    have: int
    dice: int

    @classmethod
    def read(cls, choices, have: int, dice: int) -> RerollChoices:
        form = cls(choices)
        form.have, form.dice = have, dice
        return form

    def clean_ability(self) -> str:
        ability = self.cleaned_data["ability"].strip()
        if not ability:
            raise ValidationError(
                _("Name the ability that allows this re-roll (e.g. Inspirująca osobowość).")
            )
        if len(ability) > SOURCE_MAX:
            raise ValidationError(
                _("Keep the ability's name to %(max)s characters.") % {"max": SOURCE_MAX}
            )
        return ability

    def clean_cost(self) -> int:
        cost = self.cleaned_data["cost"]
        if cost > self.have:
            raise ValidationError(
                _(
                    "This re-roll costs %(cost)s Rozmach and %(have)s is there to pay with "
                    "(what the replaced dice gained does not count)."
                )
                % {"cost": cost, "have": self.have}
            )
        return cost

    def clean_die(self) -> list[int]:
        return sorted({i for i in self.cleaned_data["die"] if 0 <= i < self.dice})


def _reread(faces: list[int]):
    def resolver(module, params, rng):
        return module.resolve(params, module.parse_faces(params, faces))

    return resolver


def _redraw(faces: list[int], which: list[int] | None):
    def resolver(module, params, rng):
        return draw_reroll(params, faces, rng, which)

    return resolver


def _pay_other(keep_rozmach, other: gm_call.HeroicOther):
    """``on_result``: the GM's price taken off the locked sheet's number, refused when the
    sheet no longer holds it."""

    def on_result(sheet: dict, result: Any) -> None:
        keep_rozmach(sheet, result)
        have = read_sheet(sheet).resource(other.resource)
        if have < other.amount:
            raise ActionRefused(_other_short(other, have))
        sheet.setdefault("resources", {})[other.resource] = have - other.amount

    return on_result


def _pay_heroic(keep_rozmach, resource: str, name: str):
    def on_result(sheet: dict, result: Any) -> None:
        keep_rozmach(sheet, result)
        resources = sheet.setdefault("resources", {})
        have = read_sheet(sheet).resource(resource)
        if have < result.heroic_cost:
            raise ActionRefused(
                _("Heroic effort costs %(cost)s %(name)s; the sheet has %(have)s.")
                % {"cost": result.heroic_cost, "name": name, "have": have}
            )
        resources[resource] = have - result.heroic_cost

    return on_result


def may_follow(roll: Roll, character) -> bool:
    """Whether something may still follow ``roll`` (``_chain_state``)."""
    return _chain_state(roll, character) is not None


def _chain_state(roll: Roll, character) -> dict[str, Any] | None:
    """The test ``roll`` belongs to, if something may still follow it, else None.

    Something may follow only the newest entry of a test that has not been settled by heroic
    effort, while it is the character's latest roll in the session's current scene and the
    sheet still holds the Rozmach it left.
    """
    if roll.system != "caerbannog" or roll.kind not in FOLLOW_UP_KINDS:
        return None
    try:
        params = caerbannog.parse_params(roll.params)
        caerbannog.parse_faces(params, roll.faces)
        answer = roll.result["answer"]
        pool_left = answer["rozmach"]
    except (EngineError, KeyError, TypeError):
        return None
    if params.heroic or roll.follow_ups.exists():
        return None
    latest = (
        Roll.objects.filter(session_id=roll.session_id, character_id=character.pk)
        .order_by("-seq")
        .values_list("pk", flat=True)
        .first()
    )
    if latest != roll.pk:
        return None
    current_scene = roll.session.scenes.aggregate(last=Max("number"))["last"]
    if roll.scene is not None and roll.scene.number != current_scene:
        return None
    if rozmach_pool(character.data) != pool_left:
        return None
    return {"params": params}


def opponents_result(roll: Roll) -> int | None:
    """In an opposed test, the opponent's result is the initiator's difficulty (the seed: "może
    też być wynikiem testu wykonanego przez oponenta"); heroic effort reads the failure against
    it. **Decision**: a result below 0 is a difficulty of 0 (a difficulty never is below 0).
    0 outside an opposed test's turn to settle; None when the opponent's roll is hidden from
    someone who sees ``roll``: heroic effort's cost would tell its result (issue 23)."""
    against = initiators_difficulty(roll)
    if against is None:
        return 0
    if against.roll is None:
        return None
    try:
        return max(0, int(against.roll.result["answer"]["result"]))
    except (KeyError, TypeError, ValueError):
        return 0


def resource_names() -> dict[str, str]:
    return {"wytrzymalosc": _("Wytrzymałość"), "determinacja": _("Determinacja")}


def _other_choice(other: gm_call.HeroicOther, sheet) -> str:
    if not other.on_sheet:
        return _("%(name)s, allowed by the GM: %(price)s") % other.as_words()
    have = sheet.resource(other.resource)
    args = {"amount": other.amount, "name": other.name, "have": have}
    if have < other.amount:
        return _("%(amount)s %(name)s off the sheet, allowed by the GM (you have %(have)s: not "
                 "enough)") % args  # fmt: skip
    return _("%(amount)s %(name)s off the sheet, allowed by the GM (you have %(have)s)") % args


def _other_short(other: gm_call.HeroicOther, have: int) -> str:
    return _("Heroic effort paid with %(name)s costs %(amount)s; the sheet has %(have)s.") % {
        "name": other.name,
        "amount": other.amount,
        "have": have,
    }


def _resource_choice(name: str, have: int, cost: int) -> str:
    if have < cost:
        return _("%(name)s (you have %(have)s: not enough)") % {"name": name, "have": have}
    return _("%(name)s (you have %(have)s)") % {"name": name, "have": have}
