"""Every kind of log entry of every system, written in one language, reads in the other (issue 25,
item 9): nothing the writer's words left in the log, on a sheet or on a card shows to a reader of
the other language.

Each system's table plays its entries through the views, as its people would, in the writer's
language; then its GM and its player read the log, the sheets, the dashboard and its parts and
the exports through the pseudo-locale (tests/web/pseudo_locale.py): a word outside every marker
that is neither a name the table typed nor a game term fails the test.
"""

from __future__ import annotations

import copy
import uuid

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from rolls.labels import KIND_LABELS
from rolls.models import Condition, GroupTest, OpposedTest, PendingTest, RandomTable, Roll
from tests.web.dice import ScriptedDice, deal
from tests.web.pseudo_locale import marked, readable_response, typed_phrases, unmarked_words_of

pytestmark = pytest.mark.django_db

LANGUAGES = [("en", "pl"), ("pl", "en")]
HX = {"HTTP_HX_REQUEST": "true"}


def post(client, name, *args, data=None, **extra):
    response = client.post(reverse(name, args=args), data or {}, **extra)
    assert response.status_code < 400, (name, response.status_code, response.content[:500])
    return response


def roll(client, hero, **form):
    return post(client, "test_roll", hero.campaign_id, hero.pk,
                data={**form, "key": str(uuid.uuid4())})  # fmt: skip


def follow(client, hero, parent, kind, **form):
    return post(client, "test_follow_up", hero.campaign_id, hero.pk, parent.pk, kind,
                data={**form, "key": str(uuid.uuid4())})  # fmt: skip


def latest(kind: str, **filters) -> Roll:
    return Roll.objects.filter(kind=kind, **filters).latest("seq")


def add_preset(client, hero, key):
    return post(client, "add_condition", hero.campaign_id, hero.pk, data={"preset": key}, **HX)


# --- What each system's table plays ------------------------------------------------------------


class Seats:
    """A logged-in client for the GM and one for each player of the table."""

    def __init__(self, table) -> None:
        self.gm = self._client(table.gm)
        self._players = {user.pk: self._client(user) for user in table.players}

    @staticmethod
    def _client(user) -> Client:
        client = Client()
        client.force_login(user)
        return client

    def all(self) -> list[Client]:
        return [self.gm, *self._players.values()]

    def of(self, character) -> Client:
        """The client of the character's player."""
        return self._players[character.owner_id]


def play_fasttest(table, seats, monkeypatch):
    from tests.web.test_after_roll import magic_via_panel, rolled

    campaign, hero, caster = table.campaign, table.characters[0], table.characters[1]
    gm, player = seats.gm, seats.of(hero)
    # A combat test lost, its wound applied, the wound test failed: unconscious.
    lost = rolled(table.session, hero, "no", label="BUDOWA 7 + WALKA +2")
    post(gm, "apply_wound", campaign.pk, lost.pk,
         data={"player_weapon": "hand", "enemy_weapon": "hand"})  # fmt: skip
    called = PendingTest.objects.get(status="open", character=hero)
    deal(monkeypatch, 9, 9, 9, 4)
    roll(player, hero, pending=called.pk, revision=called.revision)
    asleep = Condition.objects.get(character=hero, preset="ft_unconscious")
    # The waking test, offered on the sheet, succeeds and ends it.
    deal(monkeypatch, *[1] * 20)
    roll(player, hero, attribute="DUCH", skill="SPRAWNOŚĆ", attempt=str(asleep.pk))
    # Ignoring the wounds: one more wound, and the consciousness test.
    deal(monkeypatch, *[3] * 20)
    roll(player, hero, attribute="BUDOWA", ignore_wounds="on")
    # A spell and its magic die, dropping from d4: unconscious from exhaustion.
    deal(monkeypatch, *[3] * 20)
    roll(seats.of(caster), caster, attribute="DUCH", spell="on", spell_name="ognisty pocisk")
    magic_via_panel(seats.of(caster), campaign, caster, latest("test", character=caster), 1,
                    monkeypatch=monkeypatch)  # fmt: skip
    # The GM's own conditions, one cleared by hand.
    add_preset(gm, hero, "ft_flaw")
    add_preset(gm, hero, "ft_hard_scene")
    post(gm, "clear_condition", campaign.pk,
         Condition.objects.get(character=hero, preset="ft_hard_scene").pk)  # fmt: skip
    opposed(seats, table, {"attribute": "BUDOWA", "skill": "WALKA"},
            {"attribute": "BUDOWA", "skill": "WALKA"}, monkeypatch)  # fmt: skip


def opposed(seats, table, first: dict, second: dict, monkeypatch, settle=None, **form):
    """The GM starts an opposed test between the table's first two characters, each side
    rolls (on plenty of scripted 3s), and the side that must settles (Caerbannog), the
    initiator with ``settle`` besides its side (a heroic effort declared blind)."""
    a, b = table.characters[:2]
    post(seats.gm, "start_opposed", table.campaign.pk, data={
        "initiator": a.pk, "opponent": f"character-{b.pk}", **form,
        **{f"a-{k}": v for k, v in first.items()}, **{f"b-{k}": v for k, v in second.items()},
    })  # fmt: skip
    test = OpposedTest.objects.latest("pk")
    for side in (test.initiator, test.opponent):
        side.refresh_from_db()
        deal(monkeypatch, *[3] * 30)
        roll(seats.of(side.character), side.character, pending=side.pk, revision=side.revision)
    test.refresh_from_db()
    for name in ("a", "b"):
        if not Roll.objects.filter(kind="opposed", session=table.session).exists():
            character = a if name == "a" else b
            data = {"side": name, **((settle or {}) if name == "a" else {})}
            seats.of(character).post(
                reverse("opposed_settle", args=[table.campaign.pk, test.pk]), data, **HX
            )


def play_ast(table, seats, monkeypatch):
    from rolls.pending import actions as pending
    from tests.web.test_panel_ast import THREE, TIRED_AND_WOUNDED

    hero = table.characters[0]
    player, source = seats.of(hero), ScriptedDice(monkeypatch).queue()
    # Eased: the player chooses the white die read; hindered: a FUNT re-roll.
    source.faces = [1, 2, 2, 4]
    roll(player, hero, **THREE)
    follow(player, hero, latest("test"), "choose", choice="0")
    source.faces = [4, 2, 2, 6, 4, 1]
    roll(player, hero, **TIRED_AND_WOUNDED)
    source.faces = [5]
    follow(player, hero, latest("test"), "reroll", die=["4"])
    # A hindered test the GM called: the GM chooses the white die read.
    called = pending.call_test(session=table.session, character=hero, gm=table.gm, target={})
    source.faces = [4, 3, 3, 6, 4, 1]
    roll(player, hero, **TIRED_AND_WOUNDED, pending=called.pk, revision=called.revision)
    post(seats.gm, "follow_rolled_test", table.campaign.pk, called.pk, "gm_choose",
         data={"choice": "3", "key": str(uuid.uuid4())}, **HX)  # fmt: skip
    # A temporary advantage and hindrance, one of each preset; a roll the default source names.
    for key in ("ast_advantage", "ast_hindrance"):
        add_preset(seats.gm, hero, key)
    source.faces = [4, 3, 3, 6, 4, 1, 2, 2]
    roll(player, hero, **THREE, advantage="1")


def play_t10(table, seats, monkeypatch):
    from rolls.systems.t10.options import option_key

    campaign, hero = table.campaign, table.characters[0]
    gm, player = seats.gm, seats.of(hero)
    # Failure, but…: the player falls (knocked down), the GM answers with a counter-move.
    deal(monkeypatch, 8, 2, 3, 4)
    roll(player, hero, attribute="Styrka")
    fell = latest("test")
    post(
        player,
        "test_options",
        campaign.pk,
        hero.pk,
        fell.pk,
        data={"chosen": [option_key("fail_but", 3)], "own": "", "key": str(uuid.uuid4())},
        **HX,
    )
    post(gm, "counter_move", campaign.pk, fell.pk,
         data={"text": "Straż słyszy hałas.", "key": str(uuid.uuid4())}, **HX)  # fmt: skip
    # A catastrophe: the GM picks its bad options.
    deal(monkeypatch, 1, 2, 3, 4)
    roll(player, hero, attribute="Styrka")
    post(
        gm,
        "choose_options",
        campaign.pk,
        latest("test").pk,
        data={"chosen": [option_key("catastrophe", 1)], "own": "", "key": str(uuid.uuid4())},
        **HX,
    )
    # Standing up: a success ends being knocked down.
    down = Condition.objects.get(character=hero, preset="knocked_down")
    deal(monkeypatch, 8, 8, 8, 8)
    roll(player, hero, attribute="Styrka", attempt=str(down.pk))
    add_preset(gm, hero, "good_method")
    # One of the rules' tables, rolled by the GM.
    rules_table = RandomTable.objects.filter(campaign=campaign, purpose="impressive").first()
    deal(monkeypatch, 1)
    post(gm, "random_table_roll", campaign.pk, rules_table.pk,
         data={"key": str(uuid.uuid4()), "visibility": "public"})  # fmt: skip


def play_caerbannog(table, seats, monkeypatch):
    campaign = table.campaign
    julio, morgana = table.characters[:2]
    gm, player = seats.gm, seats.of(julio)

    def apply(entry, target, what):
        post(gm, "caerbannog_apply_result", campaign.pk, entry.pk,
             data={"target": target.pk, "apply": what}, **HX)  # fmt: skip

    deal(monkeypatch, 7, 5, 2)
    roll(player, julio, skill="Walka Wręcz", difficulty="przeciętny")
    attack = latest("test")
    apply(attack, morgana, "damage:wytrzymalosc")
    deal(monkeypatch, 7, 5, 2)
    roll(player, julio, skill="Walka Wręcz", difficulty="przeciętny")
    apply(latest("test"), morgana, "state:oszolomiony")
    deal(monkeypatch, 7, 5, 2)
    roll(player, julio, skill="Medycyna", difficulty="przeciętny")
    apply(latest("test"), morgana, "healing")
    # A failure: re-rolled by an ability, boosted, then a heroic effort.
    deal(monkeypatch, 4, 4, 1)
    roll(player, julio, skill="Charyzma", difficulty="5")
    deal(monkeypatch, 1)
    follow(player, julio, latest("test"), "reroll", ability="Szczęściarz", die="2")
    follow(player, julio, latest("reroll"), "heroic", resource="wytrzymalosc")
    deal(monkeypatch, 4, 4, 4)
    roll(player, julio, skill="Jazda", difficulty="2")
    follow(player, julio, latest("test"), "boost")
    # A group test with a re-roll, and an opposed test.
    group = {"pick": f"{julio.pk}|skill:Atletyka", "difficulty": 5}
    post(player, "group_start", campaign.pk, data=group, **HX)
    test = GroupTest.objects.get()
    post(
        gm,
        "group_add",
        campaign.pk,
        test.pk,
        data={"pick": f"{morgana.pk}|skill:Dociekliwość", "revision": test.revision},
        **HX,
    )
    for character in (julio, morgana):
        test.refresh_from_db()
        deal(monkeypatch, 3, 3)
        post(
            gm,
            "group_roll",
            campaign.pk,
            test.pk,
            data={"character": character.pk, "revision": test.revision, "key": str(uuid.uuid4())},
            **HX,
        )
    test.refresh_from_db()
    deal(monkeypatch, 3)
    post(
        gm,
        "group_reroll",
        campaign.pk,
        test.pk,
        data={
            "character": morgana.pk,
            "revision": test.revision,
            "dice": ["0"],
            "ability": "Inspirująca osobowość",
            "cost": "1",
            "key": str(uuid.uuid4()),
        },
        **HX,
    )
    test.refresh_from_db()
    post(gm, "group_settle", campaign.pk, test.pk, data={"revision": test.revision}, **HX)
    # Heroic effort declared blind (the opponent's roll sealed), with Determinacja Julio no
    # longer has: a tie is a failure by 0, costing 1, and the note says it could not be paid.
    julio.refresh_from_db()
    julio.data["resources"]["determinacja"] = 0
    julio.save()
    declared = {"declare": "1", "resource": "determinacja", "key": str(uuid.uuid4())}
    opposed(seats, table, {"skill": "Atletyka"}, {"skill": "Dociekliwość"}, monkeypatch,
            settle=declared)  # fmt: skip
    # The GM's NPC: no Rozmach by default; then the pool all NPCs share, a reaction paid from
    # it and a boost.
    goblin = table.npcs[0]

    def npc_roll(*faces, **form):
        deal(monkeypatch, *faces)
        npc = {"level": "2", "difficulty": "3", "ease": "0", "visibility": "public"}
        post(gm, "npc_roll", campaign.pk, goblin.pk,
             data={**npc, **form, "key": str(uuid.uuid4())}, **HX)  # fmt: skip

    npc_roll(8, 2, 1)
    campaign.settings["caerbannog"]["npc_rozmach"] = True
    campaign.save()
    npc_roll(8, 8, 1)
    npc_roll(5, 2, 1, reaction="1")
    post(gm, "caerbannog_npc_boost", campaign.pk, latest("test", npc=goblin).pk,
         data={"bonus": "2", "key": str(uuid.uuid4())}, **HX)  # fmt: skip


def play_twod6(table, seats, monkeypatch):
    hero = table.characters[0]
    post(seats.gm, "add_condition", table.campaign.pk, hero.pk, data={
        "name": "burza piaskowa", "effect": "circumstance", "amount": "-2", "scope": "all",
        "scope_name": "", "lasts": "scene", "ends_with": ""})  # fmt: skip
    deal(monkeypatch, 3, 2)
    roll(seats.of(hero), hero, attribute="Percepcja", skill="Przetrwanie")
    opposed(
        seats, table, {"attribute": "Percepcja", "skill": "Przetrwanie"},
        {"attribute": "Zręczność", "skill": "Skradanie"}, monkeypatch, difficulty="15",
    )  # fmt: skip


def play_everywhere(table, seats, monkeypatch):
    """What every system's table has: a quick roll, a line of chat, and the GM's strike."""
    deal(monkeypatch, *[3] * 10)
    player = seats.of(table.characters[0])
    post(player, "quick_roll", table.campaign.pk,
         data={"expression": "2d6+3", "key": str(uuid.uuid4()), "nonce": "n"}, **HX)  # fmt: skip
    line = {"text": "Witajcie przy stole.", "to": "all", "key": str(uuid.uuid4())}
    post(player, "say_line", table.campaign.pk, data=line, **HX)
    quick = Roll.objects.filter(session=table.session, kind="quick").latest("seq")
    struck = {"roll": str(quick.pk), "reason": "zła kość", "key": str(uuid.uuid4())}
    post(seats.gm, "strike_entry", table.campaign.pk, data=struck, **HX)


#: The kinds of entry every table logs here (``play_everywhere``).
EVERYWHERE = {"quick", "chat", "struck"}
#: The kinds of entry each system's table logs (beside ``EVERYWHERE``'s).
KINDS = {
    "fasttest": {"test", "wound_test", "magic_die", "condition", "condition_cleared", "opposed"},
    "ast": {"test", "choose", "reroll", "gm_choose", "condition", "condition_cleared"},
    "t10": {"test", "options", "counter_move", "condition", "condition_cleared", "table"},
    "caerbannog": {
        "test",
        "reroll",
        "heroic",
        "boost",
        "damage",
        "healing",
        "condition",
        "group",
        "group_die",
        "group_reroll",
        "opposed",
        "heroic_declared",
    },
    "2d6": {"test", "condition", "opposed"},
}
PLAYS = {
    "fasttest": play_fasttest,
    "ast": play_ast,
    "t10": play_t10,
    "caerbannog": play_caerbannog,
    "2d6": play_twod6,
}
#: What the people of each table typed while playing (beside what the tables hold).
TYPED = {"ognisty pocisk", "Straż słyszy hałas.", "Szczęściarz", "Inspirująca osobowość",
         "burza piaskowa", "2d6+3", "Witajcie przy stole.", "zła kość"}  # fmt: skip


def fasttest_table(make_table):
    from tests.web.test_after_roll import CASTER, HERO, SETTINGS

    return make_table(
        "fasttest", name="Zarith", settings={"fasttest": SETTINGS},
        characters=[("Brunhilda", HERO), ("Jaga", CASTER)],
    )  # fmt: skip


def ast_table(make_table):
    from tests.web.test_panel_ast import SHEET

    return make_table("ast", name="Sagi Północy", characters=[("Olaf", SHEET), ("Ingrid", SHEET)])


def t10_table(make_table):
    from tests.web.test_t10_options import ASTRID, ERIK

    return make_table("t10", name="Moorcrest", characters=[("Astrid", ASTRID), ("Erik", ERIK)])


def caerbannog_table(make_table):
    from tests.web.test_caerbannog_consequences import SHEET

    skills = [("Charyzma", "social", 0), ("Walka Wręcz", "combat", 2), ("Jazda", "physical", 2),
              ("Medycyna", "specialist", 2), ("Atletyka", "physical", 3),
              ("Dociekliwość", "practical", 2)]  # fmt: skip
    sheet = copy.deepcopy(SHEET) | {
        "skills": [{"name": n, "category": c, "level": lvl} for n, c, lvl in skills]
    }
    sheet["resources"]["rozmach"] = 3
    return make_table(
        "caerbannog",
        name="Caerbannog",
        session="first",
        settings={"caerbannog": {"reaction_costs": [{"reaction": "Unik", "cost": 1}]}},
        characters=[("Julio", sheet), ("Morgana", copy.deepcopy(sheet))],
        npcs=[("Goblin", [])],
    )


def twod6_table(make_table):
    from tests.web.test_panel_twod6 import NOMAD

    return make_table("2d6", name="Pustkowia", characters=[("Nomad", NOMAD), ("Ash", NOMAD)])


TABLES = {
    "fasttest": fasttest_table,
    "ast": ast_table,
    "t10": t10_table,
    "caerbannog": caerbannog_table,
    "2d6": twod6_table,
}


def _reads(table) -> list[str]:
    """Every page and part of the table a GM and a player read, and the exports."""
    campaign, session = table.campaign, table.session
    c = campaign.pk
    gm_pages = [
        reverse("dashboard", args=[c]),
        reverse("dashboard_party", args=[c]),
        reverse("dashboard_pending", args=[c]),
        reverse("after_roll_strip", args=[c]),
        reverse("roll_options_box", args=[c]),
        reverse("session_detail", args=[c, session.pk]),
        reverse("session_log", args=[c]),
        reverse("random_tables", args=[c]),
        *(reverse("session_export", args=[c, session.pk, fmt]) for fmt in ("md", "csv")),
        *(reverse("character_detail", args=[c, ch.pk]) for ch in table.characters),
    ]
    player_pages = [
        reverse("session_detail", args=[c, session.pk]),
        reverse("session_log", args=[c]),
        *(
            reverse("character_detail", args=[c, ch.pk])
            for ch in table.characters
            if ch.owner_id == table.players[0].pk
        ),
    ]
    return [("gm", url) for url in gm_pages] + [("player", url) for url in player_pages]


@pytest.mark.parametrize("system", list(PLAYS))
@pytest.mark.parametrize(("writer", "reader"), LANGUAGES)
def test_every_entry_written_in_one_language_reads_in_the_other(
    make_table, monkeypatch, system, writer, reader
):
    with override_settings(LANGUAGE_CODE=writer), translation.override(writer):
        table = TABLES[system](make_table)  # T10's tables come in the language of its GM
        phrases = typed_phrases() | TYPED
        seats = Seats(table)
        PLAYS[system](table, seats, monkeypatch)
        play_everywhere(table, seats, monkeypatch)
        # A message flashed to the writer's next page is read in the writer's language.
        for client in seats.all():
            client.get(reverse("home"))
    logged = set(Roll.objects.filter(session=table.session).values_list("kind", flat=True))
    assert logged == KINDS[system] | EVERYWHERE
    found = []
    with marked(reader):
        for who, url in _reads(table):
            client = seats.gm if who == "gm" else seats.of(table.characters[0])
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=reader)
            assert response.status_code == 200, url
            found += [f"{who} {url}: {word}" for word in
                      unmarked_words_of(readable_response(response), phrases, reader)]  # fmt: skip
    assert not found, "\n".join(sorted(set(found)))


def test_the_tables_above_log_every_kind_of_entry_there_is():
    assert set().union(*KINDS.values(), EVERYWHERE) == set(KIND_LABELS)
