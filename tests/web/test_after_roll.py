"""After a FastTest roll: the combat wound in one click, the wound test, the magic die after a
spell and a night's rest (RULES.md section 1)."""

import copy
import itertools
import uuid

import pytest
from django.urls import reverse

from campaigns.models import Campaign, Membership
from campaigns.sessions import end_session
from rolls import actions
from rolls.engine import fasttest
from rolls.engine.core import OUTCOMES
from rolls.engine.fasttest_combat import WEAPON_CLASSES, combat_wound, wound_test_params
from rolls.labels import words
from rolls.models import PendingTest, Roll
from rolls.systems.fasttest.magic_die import magic_follow_ups
from rolls.systems.fasttest.models import AppliedWound
from rolls.systems.fasttest.strip import STRIP_LENGTH, strip_items
from rolls.systems.fasttest.wounds import apply_combat_wound
from sheets.models import Character
from tests.web.dice import Scripted, deal
from tests.web.words_helpers import in_words

HERO = {
    "attributes": {"BUDOWA": 7, "ZRĘCZNOŚĆ": 5, "UMYSŁ": 4, "DUCH": 4},
    "skills": {"WALKA": 2, "SPRAWNOŚĆ": 1, "KULTURA": -1, "TECHNIKA": -2, "PRZYRODA": 0,
               "EKWIPUNEK": 0},
    "traits": [{"name": "Rycerz", "level": 2, "magic": False},
               {"name": "szermierka", "level": 1, "magic": False}],
    "flaw": None,
    "wounds": [{"label": "cięcie", "severity": "light", "bandaged": True}],
    "armor": 0, "magic_die": None, "xp": 0, "experience_dice": 0,
}  # fmt: skip

CASTER = {
    "attributes": {"BUDOWA": 3, "ZRĘCZNOŚĆ": 4, "UMYSŁ": 6, "DUCH": 7},
    "skills": {"WALKA": -2, "SPRAWNOŚĆ": 0, "KULTURA": 1, "TECHNIKA": 2, "PRZYRODA": 0,
               "EKWIPUNEK": -1},
    "traits": [{"name": "czarodziejka", "level": 2, "magic": True},
               {"name": "magia ognia", "level": 1, "magic": True}],
    "flaw": None, "wounds": [], "armor": 0, "magic_die": 10, "xp": 0, "experience_dice": 0,
}  # fmt: skip

#: d10 and d6 faces giving each outcome on a plain test with chance 5 (no extra dice).
FACES = {
    "yes_and": (3, 6), "yes": (3, 4), "yes_but": (3, 2),
    "no_but": (8, 2), "no": (8, 4), "no_and": (8, 6),
}  # fmt: skip

SETTINGS = {"magic": True, "experience_dice": True, "emanation": False}


def spell_label(test: str = "DUCH 7") -> dict:
    """The label the FastTest panel gives a test marked as a spell."""
    return words("spell_test", name="ognisty pocisk", test=test)


SPELL = spell_label()


def zarith(settings=None, hero=HERO) -> dict:
    """``make_table``'s arguments for Brunhilda's FastTest table in Zarith, under ``settings``
    (the module's rules unless given)."""
    return {
        "name": "Zarith",
        "settings": {"fasttest": settings or SETTINGS},
        "characters": [("Brunhilda", hero)],
    }


pytestmark = [pytest.mark.django_db, pytest.mark.table(**zarith())]


def rolled(session, character, outcome, label="BUDOWA 7 + WALKA +2", actor=None, combat=True):
    """A logged FastTest test of ``character`` showing ``outcome`` (chance 5, scripted faces),
    by default as the roll of a test the GM called as a combat test (a wound may follow)."""
    d10, d6 = FACES[outcome]
    roll, _ = actions.record_roll(
        actions.RollSpec(
            session=session,
            actor=actor or character.owner,
            system="fasttest",
            params={"attribute": 5},
            key=uuid.uuid4(),
            label=label,
            character=character,
        ),
        rng=Scripted(d10, d6),
    )
    assert roll.result["answer"]["outcome"] == outcome
    if combat:
        PendingTest.objects.create(
            session=session,
            character=character,
            called_by=session.campaign.gm,
            target={"attribute": "BUDOWA", "skill": ["WALKA"]},
            modifiers={"combat": True},
            status=PendingTest.Status.ROLLED,
            roll=roll,
        )
    return roll


def wound(client, campaign, roll, mine="hand", theirs="hand", **headers):
    url = reverse("apply_wound", args=[campaign.pk, roll.pk])
    return client.post(url, {"player_weapon": mine, "enemy_weapon": theirs}, **headers)


HX = {"HTTP_HX_REQUEST": "true"}


# --- The combat wound -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "mine", "theirs"), list(itertools.product(OUTCOMES, WEAPON_CLASSES, WEAPON_CLASSES))
)
def test_the_wound_is_the_engines_for_every_outcome_and_weapon_pair(
    client, table, gm, outcome, mine, theirs
):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, outcome)
    client.force_login(gm)
    wound(client, campaign, roll, mine, theirs)
    expected = combat_wound(outcome, mine, theirs)
    applied = AppliedWound.objects.get(roll=roll)
    assert (applied.target, applied.severity) == (expected.target, expected.severity)


@pytest.mark.parametrize(
    ("outcome", "mine", "theirs", "target", "severity"),
    [
        ("yes", "hand", "light", "enemy", "heavy"),
        ("yes_and", "hand", "light", "enemy", "deadly"),
        ("yes_but", "hand", "heavy", "enemy", "light"),
        ("no", "heavy", "light", "player", "light"),
        ("no_but", "heavy", "light", "player", "scratch"),
        ("no_and", "light", "heavy", "player", "deadly"),
    ],
)
def test_rules_examples_of_who_takes_which_wound(
    client, table, gm, outcome, mine, theirs, target, severity
):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, outcome)
    client.force_login(gm)
    wound(client, campaign, roll, mine, theirs)
    applied = AppliedWound.objects.get(roll=roll)
    assert (applied.target, applied.severity) == (target, severity)


def test_a_player_hit_gets_the_wound_on_the_sheet_labelled_with_the_roll(client, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "no")
    client.force_login(gm)
    wound(client, campaign, roll, "hand", "hand")
    hero.refresh_from_db()
    assert hero.data["wounds"][-1] == {
        "label": f"combat, #{roll.seq}", "severity": "heavy", "bandaged": False,
    }  # fmt: skip


def test_an_enemy_hit_changes_no_sheet_and_rolls_nothing(client, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "yes")
    client.force_login(gm)
    html = wound(client, campaign, roll, "heavy", "hand", **HX).content.decode()
    hero.refresh_from_db()
    assert len(hero.data["wounds"]) == 1
    assert Roll.objects.count() == 1
    assert "The enemy takes a wound: Śmiertelna (deadly)." in html


def test_the_wound_is_applied_once_only(client, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "no")
    client.force_login(gm)
    wound(client, campaign, roll)
    again = wound(client, campaign, roll, **HX)
    hero.refresh_from_db()
    assert again.status_code == 409
    assert "already been applied" in again.content.decode()
    assert len(hero.data["wounds"]) == 2
    assert PendingTest.objects.filter(status="open").count() == 1  # one wound test


def test_the_strip_offers_the_wound_only_until_it_is_applied(client, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "no")
    client.force_login(gm)
    strip = reverse("after_roll_strip", args=[campaign.pk])
    before = client.get(strip).content.decode()
    wound(client, campaign, roll)
    after = client.get(strip).content.decode()
    apply_url = reverse("apply_wound", args=[campaign.pk, roll.pk])
    assert apply_url in before
    assert apply_url not in after


# --- The wound test -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("theirs", "outcome", "armor", "tested"),
    [
        ("hand", "no", 0, True),  # heavy: always
        ("heavy", "no", 0, True),  # deadly: always
        ("light", "no", 0, False),  # light, no armor: no test
        ("light", "no_but", 0, False),  # scratch, no armor
        ("light", "no", 2, True),  # light with armor
        ("light", "no_but", 1, True),  # scratch with armor
    ],
)
def test_a_wound_test_is_called_only_when_the_rules_want_one(
    make_table, client, gm, player, other_player, theirs, outcome, armor, tested
):
    table = make_table(**zarith(hero=HERO | {"armor": armor}))
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, outcome)
    client.force_login(gm)
    wound(client, campaign, roll, "hand", theirs)
    applied = AppliedWound.objects.get(roll=roll)
    assert (applied.wound_test is not None) is tested
    assert PendingTest.objects.filter(status="open").exists() is tested


def test_the_wound_test_is_budowa_with_armor_as_bonus_dice_and_the_new_wound_counted(
    make_table, client, gm, player, other_player
):
    table = make_table(**zarith(hero=HERO | {"armor": 2}))
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "no")
    client.force_login(gm)
    wound(client, campaign, roll, "hand", "hand")
    test = PendingTest.objects.get(status="open")
    assert test.target == {"attribute": "BUDOWA", "skill": [], "wound_test": True}
    assert in_words(test.modifiers["dice"]) == [{"kind": "bonus", "amount": 2, "source": "armor"}]
    client.force_login(player)
    url = reverse("test_panel", args=[campaign.pk, hero.pk])
    panel = client.get(url, {"pending": test.pk}).context["panel"]
    engine = wound_test_params(7, 1, "heavy", armor=2)
    assert (panel.params["bonus"], panel.params["wounds"]) == (engine.bonus, engine.wounds)
    assert panel.params["attribute"] == engine.attribute
    assert {"kind": "bonus", "amount": 2, "source": "armor"} in in_words(panel.sources)


def roll_wound_test(client, monkeypatch, campaign, hero, player, *faces):
    test = PendingTest.objects.get(status="open")
    deal(monkeypatch, *faces)
    client.force_login(player)
    form = {"pending": test.pk, "revision": test.revision, "key": str(uuid.uuid4())}
    response = client.post(reverse("test_roll", args=[campaign.pk, hero.pk]), form)
    assert response.status_code == 200
    return AppliedWound.objects.get(wound_test=test)


def test_yes_and_with_armor_removes_the_new_wound(
    make_table, client, monkeypatch, gm, player, other_player
):
    table = make_table(**zarith(hero=HERO | {"armor": 2}))
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "no")
    client.force_login(gm)
    wound(client, campaign, roll, "hand", "hand")
    # BUDOWA 7, +2 armor dice, −2 wound dice: one d10 and one d6; 3 and 6 is "Tak, i…".
    applied = roll_wound_test(client, monkeypatch, campaign, hero, player, 3, 6)
    hero.refresh_from_db()
    assert (applied.test_outcome, applied.wound_removed, applied.conscious) == (
        "yes_and",
        True,
        True,
    )
    assert [w["label"] for w in hero.data["wounds"]] == ["cięcie"]


def test_yes_and_without_armor_keeps_the_wound(client, monkeypatch, table, gm, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "no")
    client.force_login(gm)
    wound(client, campaign, roll, "hand", "hand")
    # No armor, 2 wound dice: three d10 (penalty dice are d10s) and one d6.
    applied = roll_wound_test(client, monkeypatch, campaign, hero, player, 1, 2, 3, 6)
    hero.refresh_from_db()
    assert (applied.test_outcome, applied.wound_removed) == ("yes_and", False)
    assert len(hero.data["wounds"]) == 2


def test_a_failed_test_on_a_deadly_wound_means_death_on_the_strip(
    client, monkeypatch, table, gm, player
):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "no")
    client.force_login(gm)
    wound(client, campaign, roll, "hand", "heavy")
    applied = roll_wound_test(client, monkeypatch, campaign, hero, player, 9, 9, 9, 4)
    client.force_login(gm)
    html = client.get(reverse("after_roll_strip", args=[campaign.pk])).content.decode()
    assert (applied.test_outcome, applied.alive) == ("no", False)
    assert "the character dies" in html


def test_the_wound_test_is_not_offered_as_a_new_fight(client, monkeypatch, table, gm, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "no")
    client.force_login(gm)
    wound(client, campaign, roll, "hand", "hand")
    applied = roll_wound_test(client, monkeypatch, campaign, hero, player, 1, 2, 3, 4)
    items = strip_items(campaign, session)
    assert [item["roll"].pk for item in items] == [roll.pk]
    assert applied.wound_test.roll_id != roll.pk


def test_another_called_test_is_left_alone_by_the_wound_reading(client, table, gm, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    from rolls.pending import actions as pending

    pending.call_test(session=session, character=hero, gm=gm, target={"attribute": "DUCH"})
    test = PendingTest.objects.get()
    client.force_login(player)
    form = {"pending": test.pk, "revision": 1, "key": str(uuid.uuid4())}
    client.post(reverse("test_roll", args=[campaign.pk, hero.pk]), form)
    assert not AppliedWound.objects.exists()
    hero.refresh_from_db()
    assert len(hero.data["wounds"]) == 1


# --- Forged input and access ------------------------------------------------------------------


@pytest.mark.parametrize(("mine", "theirs"), [("bazooka", "hand"), ("hand", ""), ("", "")])
def test_a_forged_weapon_class_is_refused_with_400(client, table, gm, mine, theirs):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "no")
    client.force_login(gm)
    response = wound(client, campaign, roll, mine, theirs, **HX)
    assert response.status_code == 400
    assert "weapon class" in response.content.decode()
    assert not AppliedWound.objects.exists()


def test_a_magic_die_roll_cannot_itself_be_wounded(client, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "no")
    follow = Roll.objects.create(
        session=session, seq=99, actor=gm, character=hero, system="fasttest", kind="magic_die",
        parent=roll, idempotency_key=uuid.uuid4(),
    )  # fmt: skip
    client.force_login(gm)
    assert wound(client, campaign, follow).status_code == 404


def test_no_wound_lands_after_the_session_ended(client, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "no")
    end_session(session)
    client.force_login(gm)
    response = wound(client, campaign, roll, **HX)
    assert response.status_code == 409
    assert not AppliedWound.objects.exists()


def gm_urls(campaign, roll, hero, npc_pk=1):
    return [
        ("get", reverse("after_roll_strip", args=[campaign.pk])),
        ("post", reverse("apply_wound", args=[campaign.pk, roll.pk])),
        ("post", reverse("gm_magic_die", args=[campaign.pk, roll.pk])),
        ("post", reverse("roll_experience_die", args=[campaign.pk, roll.pk])),
        ("post", reverse("night_rest", args=[campaign.pk, hero.pk])),
    ]


@pytest.mark.parametrize("who", ["player", "other_player", "outsider"])
def test_everyone_but_the_gm_gets_404_on_every_after_roll_url(client, table, request, who):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "no")
    client.force_login(request.getfixturevalue(who))
    for method, url in gm_urls(campaign, roll, hero):
        data = {"player_weapon": "hand", "enemy_weapon": "hand", "key": str(uuid.uuid4())}
        response = client.get(url) if method == "get" else client.post(url, data)
        assert response.status_code == 404, url
    assert not AppliedWound.objects.exists()
    assert Roll.objects.count() == 1


# --- The magic die after a spell --------------------------------------------------------------


@pytest.fixture
def caster(make_table):
    return make_table(**zarith(hero=CASTER))


def magic_via_panel(client, campaign, character, roll, *faces, monkeypatch=None):
    if monkeypatch is not None:
        deal(monkeypatch, *faces)
    url = reverse("test_follow_up", args=[campaign.pk, character.pk, roll.pk, "magic_die"])
    return client.post(url, {"key": str(uuid.uuid4())})


def test_the_panel_offers_the_magic_die_after_a_spell(client, caster, player):
    campaign, jaga = caster.campaign, caster.hero
    client.force_login(player)
    url = reverse("test_roll", args=[campaign.pk, jaga.pk])
    response = client.post(
        url,
        {"attribute": "DUCH", "spell": "on", "spell_name": "pocisk", "key": str(uuid.uuid4())},
    )
    assert [f.kind for f in response.context["follow_ups"]] == ["magic_die"]
    assert "Roll the magic die (Kość magii) d10" in response.content.decode()


@pytest.mark.parametrize(
    ("label", "rules", "data", "offered"),
    [
        (SPELL, SETTINGS, {}, True),
        (spell_label("UMYSŁ 6 + TECHNIKA +2"), SETTINGS, {}, True),
        (spell_label("BUDOWA 3"), SETTINGS, {}, True),  # any attribute marked as a spell
        ("DUCH 7", SETTINGS, {}, False),  # a DUCH test not marked as a spell
        (SPELL, SETTINGS | {"magic": False}, {}, False),  # no magic in this campaign
        (SPELL, SETTINGS, {"magic_die": None}, False),  # no die left
        (SPELL, SETTINGS, {"traits": [{"name": "kupiec", "level": 3, "magic": False}]}, False),
    ],
)
def test_the_magic_die_follows_only_a_spell_of_a_caster_with_a_die(
    make_table, gm, player, other_player, label, rules, data, offered
):
    table = make_table(**zarith(rules, CASTER | data))
    campaign, jaga, session = table.campaign, table.hero, table.session
    roll = rolled(session, jaga, "yes", label=label)
    assert bool(magic_follow_ups(roll, jaga, campaign)) is offered


def test_one_or_two_drops_the_die_a_step_and_logs_a_magic_die_entry(
    client, monkeypatch, caster, player
):
    campaign, jaga, session = caster.campaign, caster.hero, caster.session
    spell = rolled(session, jaga, "yes", label=SPELL)
    client.force_login(player)
    magic_via_panel(client, campaign, jaga, spell, 2, monkeypatch=monkeypatch)
    entry = Roll.objects.get(kind="magic_die")
    jaga.refresh_from_db()
    assert (entry.parent, entry.result["answer"]["outcome"]) == (spell, "magic_dropped")
    assert jaga.data["magic_die"] == 8
    assert entry.result["dice"] == [
        {"sides": 10, "face": 2, "kept": True, "group": "magic", "why": "read"}
    ]


def test_three_or_more_keeps_the_die(client, monkeypatch, caster, player):
    campaign, jaga, session = caster.campaign, caster.hero, caster.session
    spell = rolled(session, jaga, "yes", label=SPELL)
    client.force_login(player)
    magic_via_panel(client, campaign, jaga, spell, 3, monkeypatch=monkeypatch)
    jaga.refresh_from_db()
    assert jaga.data["magic_die"] == 10
    assert Roll.objects.get(kind="magic_die").result["answer"]["outcome"] == "magic_held"


def test_a_d4_dropping_leaves_no_die_and_an_unconscious_caster(
    make_table, client, monkeypatch, gm, player, other_player
):
    table = make_table(**zarith(hero=CASTER | {"magic_die": 4}))
    campaign, jaga, session = table.campaign, table.hero, table.session
    spell = rolled(session, jaga, "yes", label=SPELL)
    client.force_login(player)
    magic_via_panel(client, campaign, jaga, spell, 1, monkeypatch=monkeypatch)
    jaga.refresh_from_db()
    answer = Roll.objects.get(kind="magic_die").result["answer"]
    assert jaga.data["magic_die"] is None
    assert (answer["outcome"], answer["unconscious"]) == ("magic_lost", True)


@pytest.mark.parametrize(
    ("rule", "outcome"), [(True, "magic_held_emanation"), (False, "magic_held")]
)
def test_a_face_above_duch_erupts_only_with_the_emanation_rule(
    make_table, client, monkeypatch, gm, player, other_player, rule, outcome
):
    rules = SETTINGS | {"emanation": rule}
    table = make_table(**zarith(rules, CASTER))
    campaign, jaga, session = table.campaign, table.hero, table.session
    spell = rolled(session, jaga, "yes", label=SPELL)
    client.force_login(player)
    magic_via_panel(client, campaign, jaga, spell, 8, monkeypatch=monkeypatch)
    assert Roll.objects.get(kind="magic_die").result["answer"]["outcome"] == outcome


def test_the_magic_die_is_rolled_once_per_spell(client, monkeypatch, caster, player):
    campaign, jaga, session = caster.campaign, caster.hero, caster.session
    spell = rolled(session, jaga, "yes", label=SPELL)
    client.force_login(player)
    magic_via_panel(client, campaign, jaga, spell, 5, monkeypatch=monkeypatch)
    again = magic_via_panel(client, campaign, jaga, spell, 5, monkeypatch=monkeypatch)
    assert again.status_code == 409
    assert Roll.objects.filter(kind="magic_die").count() == 1


def test_the_magic_die_entry_renders_in_the_log(client, monkeypatch, caster, player):
    campaign, jaga, session = caster.campaign, caster.hero, caster.session
    spell = rolled(session, jaga, "yes", label=SPELL)
    client.force_login(player)
    magic_via_panel(client, campaign, jaga, spell, 2, monkeypatch=monkeypatch)
    html = client.get(reverse("session_log", args=[campaign.pk])).content.decode()
    assert "Magic die (Kość magii) d10" in html
    assert "Magic die (Kość magii) drops a step" in html
    assert f"magic die → #{spell.seq}" in html


def test_the_gm_rolls_the_magic_die_from_the_strip(client, monkeypatch, caster, gm):
    campaign, jaga, session = caster.campaign, caster.hero, caster.session
    spell = rolled(session, jaga, "yes", label=SPELL)
    client.force_login(gm)
    strip = client.get(reverse("after_roll_strip", args=[campaign.pk])).content.decode()
    assert "Roll the magic die (Kość magii) d10" in strip
    deal(monkeypatch, 1)
    url = reverse("gm_magic_die", args=[campaign.pk, spell.pk])
    html = client.post(url, {"key": str(uuid.uuid4())}, **HX).content.decode()
    jaga.refresh_from_db()
    assert jaga.data["magic_die"] == 8
    assert "d10 shows 1" in html


def test_a_forged_follow_up_kind_is_refused(client, caster, player):
    campaign, jaga, session = caster.campaign, caster.hero, caster.session
    spell = rolled(session, jaga, "yes", label=SPELL)
    client.force_login(player)
    url = reverse("test_follow_up", args=[campaign.pk, jaga.pk, spell.pk, "fireball"])
    assert client.post(url, {"key": str(uuid.uuid4())}).status_code == 409
    assert Roll.objects.count() == 1


# --- A night's rest ---------------------------------------------------------------------------


@pytest.mark.parametrize(("die", "after"), [(8, 10), (None, 4), (4, 6)])
def test_a_nights_rest_raises_the_die_one_step(
    make_table, client, gm, player, other_player, die, after
):
    table = make_table(**zarith(hero=CASTER | {"magic_die": die}))
    campaign, jaga = table.campaign, table.hero
    client.force_login(gm)
    client.post(reverse("night_rest", args=[campaign.pk, jaga.pk]))
    jaga.refresh_from_db()
    assert jaga.data["magic_die"] == after


@pytest.mark.parametrize("die", [10, 12])
def test_rest_never_raises_the_die_above_the_starting_die(
    make_table, client, gm, player, other_player, die
):
    # DUCH 7 gives d6, two magic traits raise it to d10: the starting die.
    table = make_table(**zarith(hero=CASTER | {"magic_die": die}))
    campaign, jaga = table.campaign, table.hero
    client.force_login(gm)
    response = client.post(reverse("night_rest", args=[campaign.pk, jaga.pk]), **HX)
    jaga.refresh_from_db()
    assert response.status_code == 409
    assert jaga.data["magic_die"] == die


def test_the_rest_button_shows_only_when_it_would_raise_the_die(
    make_table, client, gm, player, other_player
):
    table = make_table(**zarith(hero=CASTER | {"magic_die": 6}))
    campaign = table.campaign
    Character.objects.create(campaign=campaign, owner=gm, name="Rycerz", data=copy.deepcopy(HERO))
    client.force_login(gm)
    html = client.get(reverse("dashboard", args=[campaign.pk])).content.decode()
    assert html.count("Night's rest: d6 → d8") == 1
    assert html.count("/rest/") == 2  # one form: its action and hx-post


# --- The dashboard ------------------------------------------------------------------------------


def test_the_dashboard_shows_the_strip_newest_first(client, table, gm):
    campaign, hero, session = table.campaign, table.hero, table.session
    first = rolled(session, hero, "no")
    second = rolled(session, hero, "yes")
    client.force_login(gm)
    html = client.get(reverse("dashboard", args=[campaign.pk])).content.decode()
    assert 'id="after-roll"' in html
    assert html.index(f'id="after-{second.pk}"') < html.index(f'id="after-{first.pk}"')


def test_the_strip_shows_at_most_ten_tests(table):
    campaign, hero, session = table.campaign, table.hero, table.session
    for _ in range(12):
        rolled(session, hero, "no")
    assert len(strip_items(campaign, session)) == STRIP_LENGTH


@pytest.mark.parametrize("size", [2, 9])
def test_the_strip_runs_a_constant_number_of_queries(
    client, table, gm, size, django_assert_num_queries
):
    campaign, hero, session = table.campaign, table.hero, table.session
    for index in range(size):
        roll = rolled(session, hero, "no" if index % 2 else "yes")
        if index % 3 == 0:
            apply_combat_wound(roll=roll, gm=gm, player_weapon="hand", enemy_weapon="hand")
    client.force_login(gm)
    url = reverse("after_roll_strip", args=[campaign.pk])
    client.get(url)
    with django_assert_num_queries(7):
        client.get(url)


def test_the_strip_is_absent_in_other_systems(client, gm, player, other_player):
    campaign = Campaign.objects.create(name="Inna", system="t10", gm=gm)
    Membership.objects.create(campaign=campaign, user=gm, role="gm")
    client.force_login(gm)
    html = client.get(reverse("dashboard", args=[campaign.pk])).content.decode()
    assert 'id="after-roll"' not in html


def test_the_engine_reads_the_scripted_faces(table):
    # The scripted faces above stand for the outcomes they are named after.
    params = fasttest.parse_params({"attribute": 5})
    for outcome, (d10, d6) in FACES.items():
        assert fasttest.resolve(params, fasttest.Faces((d10,), (d6,))).outcome == outcome


def test_the_rolled_wound_test_is_logged_as_a_wound_test(client, monkeypatch, table, gm, player):
    campaign, hero, session = table.campaign, table.hero, table.session
    roll = rolled(session, hero, "no")
    client.force_login(gm)
    wound(client, campaign, roll, "hand", "hand")
    applied = roll_wound_test(client, monkeypatch, campaign, hero, player, 1, 2, 3, 6)
    assert applied.wound_test.roll.kind == "wound_test"
