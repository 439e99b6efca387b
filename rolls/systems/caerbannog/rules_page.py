"""How Caerbannog's test works, in our words, for its page under /rules/ (``rolls.rules.pages``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from rolls.rules.pages import RulesPage

PAGE = RulesPage(
    system="caerbannog",
    title="Caerbannog 2026",
    intro=_("Caerbannog 2026 rolls three dice of the skill's size and reads the middle one."),
    steps=(
        _(
            "A skill's level gives its die: 0 a d4, I a d6, II a d8, III a d10, IV a d12. "
            "Roll three of them."
        ),
        _(
            "Read the middle die, add the fixed modifiers and take away the difficulty "
            "(łatwy 2, przeciętny 3, wymagający 4, trudny 5). Above 0 is that many "
            "successes, and every full 3 successes is one przebicie; 0 or less is a failure."
        ),
        _(
            "An eased test reads the highest die, a hindered one the lowest. With factors "
            "both ways the side with more of them wins; equal counts cancel out."
        ),
        _(
            "Every die showing its highest face gives 1 Rozmach (at most 10 in the pool). "
            "After the roll you may spend 1 Rozmach on a boost: the category's bonus is "
            "added to the result. After a failure you may make a heroic effort: pay "
            "Wytrzymałość or Determinacja equal to the failure plus 1 for exactly one "
            "success."
        ),
        _(
            "In an opposed test the opponent's result is the initiator's difficulty: the "
            "initiator's result minus the opponent's is the success level. Both may roll at "
            "once, but the results are revealed in turn: the initiator settles their boosts "
            "and re-rolls (a heroic effort is theirs alone) and reveals the final result "
            "while the opponent's roll is shown only to the GM and the opponent's player; "
            "then everyone sees it, and the opponent settles theirs."
        ),
        _(
            "So the initiator may declare, as they settle, a heroic effort if it fails, and "
            "what they pay with. Once the opponent's roll is revealed its price is counted "
            "(the failure plus 1): a failure the resource covers is paid for exactly one "
            "success; otherwise nothing is spent and the log says why."
        ),
        _(
            "The GM may let heroic effort (heroiczny wysiłek) be paid with another fitting "
            "resource, one the player proposes too: Kapitał Społeczny (social capital), a "
            "piece of equipment lost, a serious turn of the story. The GM names it and its "
            "price on the called test, and the log records what was paid. Where it is a "
            "number on the sheet (Kapitał Społeczny, Żywotność, Zdrowie) the price is a "
            "whole number taken off the sheet, and like any heroic effort it is never paid "
            "in part: the sheet must hold all of it."
        ),
        _(
            "Three 1s are a critical failure: it counts as 0, and neither a boost nor a "
            "heroic effort saves it, only a re-roll."
        ),
        _(
            "Re-rolls come from abilities, so one may follow another: each names its "
            "ability, re-rolls all the dice or only those the ability allows, and pays its "
            "cost in Rozmach when it is made. Only the final roll gives Rozmach."
        ),
        _(
            "A combined test of two skills gives the first (main) skill two dice and the "
            "other one; with three skills, one each. With the GM's leave a skill can instead "
            "be added to a full roll of the main skill: three dice of the main skill and one "
            "per added skill."
        ),
        _(
            "A defence may join a combined test too; the first named, skill or defence, is "
            "the main one: Julio's Opanowanie I + Ukrycie II + Percepcja III rolls a d6, a d8 "
            "and a d10. Order them on the panel; a test the GM calls keeps the GM's order."
        ),
        _(
            "In a group test helpers join the initiator: with one helper the initiator rolls "
            "2 dice and the helper 1; with two or more helpers everyone rolls one die. Each "
            "may boost with their own Rozmach and category bonus, and the Rozmach of a die "
            "goes to whoever rolled it."
        ),
        _(
            "Rozmach (momentum) a roll gains joins the pool once the roll is read: it may pay "
            "for what acts on the test's result after the roll (a boost, an ability that "
            "asks for a certain result), never for what acts before the roll or changes the "
            "roll itself (an ability that eases the test, a reaction, a re-roll's cost)."
        ),
        _(
            "The GM's NPCs have no Rozmach of their own: their rolls gain none, and they "
            "neither boost nor react. The seed allows one pool shared by the whole group of "
            "opponents instead, and the GM may switch it on in the campaign's settings: all "
            "the GM's NPCs then fill it with their dice (at most 10), the GM spends it on "
            "their boosts and reactions as a player spends their own, and it empties at the "
            "end of every scene."
        ),
        _(
            "The Rozmach pool empties at the end of every scene. Rozmach you must spend but "
            "lack costs that much Determinacja instead. In the first round of a fight a "
            "surprised side's pool is halved (rounded down) and a surprising side's doubled "
            "(at most 10): the GM sets it on that test."
        ),
        _(
            "A reaction costs the Rozmach the GM's table names, each time it is made, and "
            "comes only outside the character's own turn, at most once per round. The GM "
            "marks each turn and any new round on the dashboard; outside a fight nothing "
            "limits it but its cost."
        ),
    ),
    example=(
        _(
            "Julio tests Dociekliwość II, three d8, against łatwy (2). The dice show 5, 7 and "
            "4: the middle one is 5, and 5 − 2 makes 3 successes, one przebicie."
        ),
        _(
            "Charyzma 0 rolls three d4 against trudny (5): 4, 4 and 1. The middle 4 falls 1 "
            "short, a failure of −1, but both 4s are the d4's highest face: +2 Rozmach."
        ),
        _(
            "Spending 1 of that Rozmach on a boost with the social bonus 3 turns the −1 into "
            "2 successes. Without the boost, a heroic effort costs 2 (the failure of 1, plus "
            "1) for exactly one success."
        ),
    ),
    checks=(
        (
            {"dice": [8, 8, 8], "difficulty": 2},
            [5, 7, 4],
            {"kept": 5, "result": 3, "przebicia": 1},
        ),
        (
            {"dice": [4, 4, 4], "difficulty": 5, "bonus": 3},
            [4, 4, 1],
            {"result": -1, "rozmach_gained": 2},
        ),
        (
            {"dice": [4, 4, 4], "difficulty": 5, "bonus": 3, "boost": True},
            [4, 4, 1],
            {"result": 2},
        ),
        (
            {"dice": [4, 4, 4], "difficulty": 5, "bonus": 3, "heroic": True},
            [4, 4, 1],
            {"result": 1, "heroic_cost": 2},
        ),
    ),  # fmt: skip
)
