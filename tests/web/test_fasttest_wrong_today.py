"""FastTest rules that were wrong on screen (issue 14): ignoring wounds adds a wound and calls the
consciousness test, the wound test takes only the rules' dice, and the sheet's magic-die button
rolls the magic die after the caster's spell (RULES.md section 1)."""

import uuid

import pytest
from django.urls import reverse

from rolls import actions
from rolls.labels import source_line
from rolls.models import PendingTest, Roll
from tests.web.dice import Scripted
from tests.web.live import panel_url
from tests.web.test_after_roll import SPELL, spell_label

HERO = {
    "attributes": {"BUDOWA": 6, "ZRĘCZNOŚĆ": 5, "UMYSŁ": 5, "DUCH": 4},
    "skills": {"WALKA": 2, "SPRAWNOŚĆ": 1, "KULTURA": -1, "TECHNIKA": -2, "PRZYRODA": 0,
               "EKWIPUNEK": 0},
    "traits": [{"name": "Rycerz", "level": 2, "magic": False},
               {"name": "szermierka", "level": 1, "magic": False}],
    "flaw": None,
    "wounds": [{"label": "cięcie", "severity": "light", "bandaged": True},
               {"label": "pchnięcie", "severity": "heavy", "bandaged": False}],
    "armor": 2, "magic_die": None, "xp": 0, "experience_dice": 1,
}  # fmt: skip

CASTER = {
    "attributes": {"BUDOWA": 3, "ZRĘCZNOŚĆ": 4, "UMYSŁ": 6, "DUCH": 7},
    "skills": {"WALKA": -2, "SPRAWNOŚĆ": 0, "KULTURA": 1, "TECHNIKA": 2, "PRZYRODA": 0,
               "EKWIPUNEK": -1},
    "traits": [{"name": "czarodziejka", "level": 2, "magic": True},
               {"name": "magia ognia", "level": 1, "magic": True}],
    "flaw": None, "wounds": [], "armor": 0, "magic_die": 6, "xp": 0, "experience_dice": 0,
}  # fmt: skip

SETTINGS = {"magic": True, "experience_dice": True, "emanation": False}


def zarith(hero) -> dict:
    """``make_table``'s arguments for Brunhilda's FastTest table in Zarith on ``hero``."""
    return {
        "name": "Zarith",
        "settings": {"fasttest": SETTINGS},
        "characters": [("Brunhilda", hero)],
    }


pytestmark = [pytest.mark.django_db, pytest.mark.table(**zarith(HERO))]


@pytest.fixture
def caster(make_table):
    return make_table(**zarith(CASTER))


def roll(client, hero, **choices):
    return client.post(panel_url(hero, "test_roll"), {**choices, "key": str(uuid.uuid4())})


def wounds(hero):
    hero.refresh_from_db()
    return hero.data["wounds"]


# --- Ignoring wounds ----------------------------------------------------------------------------


def test_ignoring_wounds_rolls_without_their_penalty_dice(client, table, player):
    hero = table.hero
    client.force_login(player)
    plain = client.post(panel_url(hero), {"attribute": "BUDOWA"}).context["panel"]
    ignored = client.post(panel_url(hero), {"attribute": "BUDOWA", "ignore_wounds": "on"})
    assert plain.params["wounds"] == 2
    assert ignored.context["panel"].params["wounds"] == 0


def test_ignoring_wounds_adds_a_wound_of_the_worst_severity_at_once(client, table, player, dice):
    hero = table.hero
    client.force_login(player)
    dice(3, 4)
    assert roll(client, hero, attribute="BUDOWA", ignore_wounds="on").status_code == 200
    added = wounds(hero)[-1]
    seq = Roll.objects.get().seq
    assert len(wounds(hero)) == 3
    assert added == {"label": f"wounds ignored, #{seq}", "severity": "heavy", "bandaged": False}


def test_ignoring_wounds_calls_the_consciousness_test_with_the_armor(client, table, player, dice):
    hero = table.hero
    client.force_login(player)
    dice(3, 4)
    roll(client, hero, attribute="BUDOWA", ignore_wounds="on")
    test = PendingTest.objects.get(status="open", character=hero)
    assert test.target["attribute"] == "BUDOWA"
    assert test.target["wound_test"] is True
    assert [(d["kind"], d["amount"]) for d in test.modifiers["dice"]] == [("bonus", 2)]


def test_the_log_entry_says_the_wounds_were_ignored(client, table, player, dice):
    hero = table.hero
    client.force_login(player)
    dice(3, 4)
    roll(client, hero, attribute="BUDOWA", ignore_wounds="on")
    lines = [source_line(s) for s in Roll.objects.get().sources]
    assert (
        "2 wound dice ignored: wounds ignored: one more heavy wound and a consciousness test"
        in lines
    )
    assert not any(line.endswith(": wounds") for line in lines)


def test_ignoring_wounds_with_none_counted_is_refused_with_a_message(client, table, player):
    hero = table.hero
    hero.data["wounds"] = [{"label": "cięcie", "severity": "light", "bandaged": True}]
    hero.save()
    client.force_login(player)
    response = roll(client, hero, attribute="UMYSŁ", ignore_wounds="on")  # bandaged: not counted
    assert response.status_code == 422
    assert "nothing to ignore" in response.content.decode()
    assert not Roll.objects.exists()
    assert len(wounds(hero)) == 1


def test_a_full_sheet_refuses_ignoring_wounds_and_loses_nothing(client, table, player):
    hero = table.hero
    hero.data["wounds"] = [{"label": f"w{i}", "severity": "light", "bandaged": False}
                           for i in range(20)]  # fmt: skip
    hero.save()
    client.force_login(player)
    response = roll(client, hero, attribute="BUDOWA", ignore_wounds="on")
    assert response.status_code == 409
    assert "already holds 20 wounds" in response.content.decode()
    assert not Roll.objects.exists()
    assert not PendingTest.objects.exists()


def test_ignoring_wounds_in_a_called_test_leaves_it_rolled_and_calls_the_next(
    client, table, gm, player, dice
):
    hero, session = table.hero, table.session
    called = PendingTest.objects.create(
        session=session, character=hero, called_by=gm, target={"attribute": "ZRĘCZNOŚĆ"}
    )
    client.force_login(player)
    dice(3, 4)
    roll(client, hero, pending=called.pk, revision=called.revision, ignore_wounds="on")
    called.refresh_from_db()
    assert called.status == PendingTest.Status.ROLLED
    assert PendingTest.objects.get(status="open").target["wound_test"] is True


def test_the_gm_sees_the_called_consciousness_test_on_the_dashboard(
    client, table, gm, player, dice
):
    campaign, hero = table.campaign, table.hero
    client.force_login(player)
    dice(3, 4)
    roll(client, hero, attribute="BUDOWA", ignore_wounds="on")
    client.force_login(gm)
    response = client.get(reverse("dashboard", args=[campaign.pk]))
    assert response.status_code == 200
    assert "+2 bonus dice: armor" in response.content.decode()


# --- The consciousness (wound) test -------------------------------------------------------------


@pytest.fixture
def wound_test(client, table, player, dice):
    """The consciousness test called after Brunhilda ignored her wounds (3 on the sheet now)."""
    hero = table.hero
    client.force_login(player)
    dice(3, 4)
    roll(client, hero, attribute="BUDOWA", ignore_wounds="on")
    return hero, PendingTest.objects.get(status="open")


def called_panel(client, hero, test, **choices):
    choices = {"pending": test.pk, "revision": test.revision, **choices}
    return client.post(panel_url(hero), choices).context["panel"]


def test_the_wound_test_counts_the_new_wound_and_takes_the_armor(client, wound_test):
    hero, test = wound_test
    shown = called_panel(client, hero, test)
    assert (shown.params["wounds"], shown.params["bonus"]) == (3, 2)


def test_the_wound_test_cannot_ignore_wounds_or_take_trait_dice(client, wound_test):
    hero, test = wound_test
    shown = called_panel(
        client, hero, test, ignore_wounds="on", trait=["0", "1"], bonus_other="3", experience="1"
    )
    assert (shown.params["wounds"], shown.params["bonus"], shown.params["penalty"]) == (3, 2, 0)
    assert shown.after is None


def test_the_wound_test_offers_no_trait_or_ignore_wounds_choice(client, wound_test):
    hero, test = wound_test
    response = client.post(panel_url(hero), {"pending": test.pk, "revision": test.revision})
    html = response.content.decode()
    assert 'name="ignore_wounds"' not in html
    assert 'name="trait"' not in html
    assert "nothing else is added to it" in html


def test_a_forged_wound_test_roll_adds_no_further_wound(client, wound_test, dice):
    hero, test = wound_test
    dice(3, 3, 4)  # 3 wound dice vs 2 armor dice: 1 penalty die
    response = roll(client, hero, pending=test.pk, revision=test.revision, ignore_wounds="on")
    entry = Roll.objects.get(kind="wound_test")
    assert response.status_code == 200
    assert entry.params["wounds"] == 3
    assert len(wounds(hero)) == 3
    assert not PendingTest.objects.filter(status="open").exists()


def test_armor_and_yes_and_on_the_consciousness_test_remove_the_added_wound(
    client, wound_test, dice
):
    hero, test = wound_test
    dice(1, 1, 6)  # 3 wound dice vs 2 armor dice: 1 penalty die, a d10
    roll(client, hero, pending=test.pk, revision=test.revision)
    assert Roll.objects.get(kind="wound_test").result["answer"]["outcome"] == "yes_and"
    assert [w["label"] for w in wounds(hero)] == ["cięcie", "pchnięcie"]


# --- The magic die button on the sheet ----------------------------------------------------------


def cast(client, hero, dice):
    """Cast a spell on DUCH (difficulty 2: three d10s, one d6) that succeeds."""
    dice(2, 2, 2, 4)
    return roll(client, hero, attribute="DUCH", spell="on", spell_name="ognisty pocisk")


def magic_panel(client, hero):
    return client.get(panel_url(hero), {"magic_die": "6"})


def test_the_magic_die_button_opens_the_magic_die_after_the_spell(client, caster, player, dice):
    jaga = caster.hero
    client.force_login(player)
    cast(client, jaga, dice)
    spell = Roll.objects.get()
    response = magic_panel(client, jaga)
    shown = response.context["panel"]
    assert (shown.kind, shown.parent) == ("magic_die", spell)
    assert f"after the spell #{spell.seq}" in response.content.decode()
    assert shown.odds == [
        ("magic_held", pytest.approx(2 / 3)),
        ("magic_dropped", pytest.approx(1 / 3)),
    ]


def test_the_magic_die_odds_count_an_eruption_where_the_emanation_rule_is_on(
    client, make_table, player, dice
):
    erupting = {**CASTER, "attributes": {**CASTER["attributes"], "DUCH": 4}, "magic_die": 6}
    table = make_table(
        **{**zarith(erupting), "settings": {"fasttest": {**SETTINGS, "emanation": True}}}
    )
    jaga = table.hero
    client.force_login(player)
    cast(client, jaga, dice)
    # A d6 against DUCH 4: 5 and 6 erupt (and hold), 3 and 4 hold, 1 and 2 drop it.
    assert magic_panel(client, jaga).context["panel"].odds == [
        ("magic_held_emanation", pytest.approx(1 / 3)),
        ("magic_held", pytest.approx(1 / 3)),
        ("magic_dropped", pytest.approx(1 / 3)),
    ]


def test_rolling_from_the_button_rolls_the_magic_die_for_the_caster(client, caster, player, dice):
    jaga = caster.hero
    client.force_login(player)
    cast(client, jaga, dice)
    spell = Roll.objects.get()
    dice(1)
    response = roll(client, jaga, magic_die="6")
    entry = Roll.objects.get(kind="magic_die")
    jaga.refresh_from_db()
    assert response.status_code == 200
    assert (entry.parent, entry.character) == (spell, jaga)
    assert [(d["sides"], d["face"]) for d in entry.result["dice"]] == [(6, 1)]
    assert jaga.data["magic_die"] == 4


def test_the_magic_die_follows_a_spell_only_once(client, caster, player, dice):
    jaga = caster.hero
    client.force_login(player)
    cast(client, jaga, dice)
    dice(5)
    roll(client, jaga, magic_die="6")
    response = roll(client, jaga, magic_die="6")
    assert response.status_code == 422
    assert "waits for its magic die" in response.content.decode()
    assert Roll.objects.filter(kind="magic_die").count() == 1


def test_without_a_spell_the_button_says_to_cast_one_first(client, caster, player, dice):
    jaga = caster.hero
    client.force_login(player)
    dice(2, 4)
    roll(client, jaga, attribute="BUDOWA")  # not a spell
    response = magic_panel(client, jaga)
    assert not response.context["panel"].ready
    assert "cast the spell first" in response.content.decode()


def test_a_gms_hidden_spell_is_not_shown_to_the_player(client, caster, gm, player):
    jaga, session = caster.hero, caster.session
    actions.record_roll(
        actions.RollSpec(
            session=session,
            actor=gm,
            system="fasttest",
            params={"attribute": 7},
            key=uuid.uuid4(),
            label=spell_label("DUCH 7 (the GM's)"),
            character=jaga,
            visibility="hidden",
        ),
        rng=Scripted(2, 4),
    )
    client.force_login(player)
    response = magic_panel(client, jaga)
    assert not response.context["panel"].ready
    assert "the GM's" not in response.content.decode()


def test_another_player_cannot_roll_the_casters_magic_die(client, caster, other_player, dice):
    jaga, session = caster.hero, caster.session
    dice(2, 4)
    actions.record_roll(
        actions.RollSpec(
            session=session,
            actor=jaga.owner,
            system="fasttest",
            params={"attribute": 7},
            key=uuid.uuid4(),
            label=SPELL,
            character=jaga,
        ),
        rng=Scripted(2, 4),
    )
    client.force_login(other_player)
    response = roll(client, jaga, magic_die="6")
    assert response.status_code in (403, 404)
    assert not Roll.objects.filter(kind="magic_die").exists()


def test_the_sheet_button_asks_the_panel_for_the_magic_die(client, caster, player):
    jaga = caster.hero
    client.force_login(player)
    url = reverse("character_detail", args=[jaga.campaign_id, jaga.pk])
    html = client.get(url).content.decode()
    assert 'data-roll="{&quot;magic_die&quot;: 6}"' in html


def test_a_combat_wound_after_ignoring_wounds_calls_one_test_that_reads_both(
    client, table, gm, player, dice
):
    campaign, hero, session = table.campaign, table.hero, table.session
    called = PendingTest.objects.create(
        session=session, character=hero, called_by=gm, modifiers={"combat": True},
        target={"attribute": "BUDOWA", "skill": ["WALKA"]},
    )  # fmt: skip
    client.force_login(player)
    dice(9, 4)  # chance 8: "no"
    roll(client, hero, pending=called.pk, revision=called.revision, ignore_wounds="on")
    client.force_login(gm)
    url = reverse("apply_wound", args=[campaign.pk, Roll.objects.get().pk])
    client.post(url, {"player_weapon": "hand", "enemy_weapon": "hand"})
    test = PendingTest.objects.get(status="open")
    assert test.target["ignored"]["severity"] == "heavy"
    assert len(wounds(hero)) == 4
    client.force_login(player)
    dice(1, 1, 1, 6)  # 4 wounds vs 2 armor dice: 2 penalty dice, "yes_and"
    roll(client, hero, pending=test.pk, revision=test.revision)
    assert [w["label"] for w in wounds(hero)] == ["cięcie", "pchnięcie"]
