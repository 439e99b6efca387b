"""An entry's words in each reader's language, and words that match the dice (issue 13, 16-17).

A player reading English rolls; a GM reading Polish sees the same entry in Polish on the log page,
over the websocket and in the exports. Entries logged before words were stored as data still
render as they were.
"""

import re
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse
from django.utils import translation

from rolls import actions
from rolls.labels import render, source_line, words
from rolls.models import Roll
from rolls.templatetags.roll_log import percent
from tests.web.dice import Scripted
from tests.web.live import panel_url, socket_for
from tests.web.test_panel_caerbannog import SHEET as CAERBANNOG_SHEET
from tests.web.test_panel_fasttest import SHEET as FASTTEST_SHEET

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
PL = {"HTTP_ACCEPT_LANGUAGE": "pl"}


def table_of(system, sheet) -> dict:
    """``make_table``'s arguments for Morgana's table of ``system`` on ``sheet``."""
    return {"system": system, "characters": [("Morgana", sheet)]}


@pytest.fixture
def caerbannog(make_table):
    return make_table(**table_of("caerbannog", CAERBANNOG_SHEET))


@pytest.fixture
def fasttest(make_table):
    return make_table(**table_of("fasttest", FASTTEST_SHEET))


def roll(client, hero, **choices):
    return client.post(panel_url(hero, "test_roll"), {**choices, "key": str(uuid.uuid4())}, **EN)


def entry_html(html: str, seq: int) -> str:
    """The one log entry with this seq out of a page (each entry ends with its time)."""
    found = re.search(rf'<li class="entry[^"]*"[^>]*data-seq="{seq}".*?</time>', html, re.S)
    assert found, f"entry #{seq} not on the page"
    return found.group(0)


def log_page(client, campaign, session, headers) -> str:
    url = reverse("session_detail", args=[campaign.pk, session.pk])
    return client.get(url, **headers).content.decode()


ADDED_TEST = {"skill": ["Jazda", "Percepcja"], "main": "Jazda", "form": "added",
              "easing": "1", "hindering": "2"}  # fmt: skip


# --- 16: the reader's language, wherever the entry is read ------------------------------------


@pytest.mark.django_db
def test_an_entry_rolled_in_english_reads_in_polish_on_a_polish_readers_log_page(
    client, caerbannog, player, gm, dice
):
    campaign, hero, session = caerbannog.campaign, caerbannog.hero, caerbannog.session
    client.force_login(player)
    dice(5, 2, 7, 3)
    assert roll(client, hero, **ADDED_TEST).status_code == 200
    client.force_login(gm)
    html = entry_html(log_page(client, campaign, session, PL), 1)
    assert "Jazda II z dodatkiem Percepcja I (3d8+1d6) kontra 3" in html
    assert "ułatwienia ×1, utrudnienia ×2 → utrudnienie" in html
    assert "4 rzucone kości: Jazda 3d8 + Percepcja 1d6" in html
    for english in (" with ", " vs ", "eased", "hindered", "dice rolled", "combined test"):
        assert english not in html


@pytest.mark.django_db
def test_the_same_entry_reads_in_english_on_an_english_readers_page(
    client, caerbannog, player, gm, dice
):
    campaign, hero, session = caerbannog.campaign, caerbannog.hero, caerbannog.session
    client.force_login(player)
    dice(5, 2, 7, 3)
    roll(client, hero, **ADDED_TEST)
    client.force_login(gm)
    html = entry_html(log_page(client, campaign, session, EN), 1)
    assert "Jazda II with Percepcja I added (3d8+1d6) vs 3" in html
    assert "eased ×1, hindered ×2 → hindered" in html


@pytest.mark.django_db
def test_a_gm_called_tests_factors_are_logged_in_each_readers_language(
    client, caerbannog, player, gm, dice
):
    campaign, hero = caerbannog.campaign, caerbannog.hero
    client.force_login(gm)
    call = reverse("call_test", args=[campaign.pk, hero.pk])
    client.post(call, {"skill": ["Jazda"], "difficulty": "przeciętny"}, **EN)
    test = hero.pending_tests.get()
    change = reverse("change_test", args=[campaign.pk, test.pk])
    client.post(change, {"op": "set_hindering", "value": "2", "revision": "1"}, **EN)
    test.refresh_from_db()
    client.force_login(player)
    dice(5, 2, 7)
    roll(client, hero, skill="Jazda", easing="1", pending=str(test.pk),
         revision=str(test.revision))  # fmt: skip
    entry = Roll.objects.get()
    # On a called test the factors are the GM's alone (the player's posted easing is ignored).
    with translation.override("pl"):
        assert "MG: ułatwienia ×0, utrudnienia ×2 → utrudnienie" in " ".join(
            source_line(s) for s in entry.sources
        )


@pytest.mark.django_db
def test_the_exports_speak_the_readers_language(client, caerbannog, player, gm, dice):
    campaign, hero, session = caerbannog.campaign, caerbannog.hero, caerbannog.session
    client.force_login(player)
    dice(5, 2, 7, 3)
    roll(client, hero, **ADDED_TEST)
    client.force_login(gm)
    for fmt in ("md", "csv", "json"):
        url = reverse("session_export", args=[campaign.pk, session.pk, fmt])
        body = client.get(url, **PL).content.decode()
        assert "z dodatkiem Percepcja I" in body, fmt
        assert "4 rzucone kości: Jazda 3d8 + Percepcja 1d6" in body, fmt
        assert "with Percepcja" not in body, fmt


@pytest.mark.django_db
def test_an_entry_logged_before_words_were_data_still_renders_its_plain_words(
    client, fasttest, player, gm
):
    campaign, hero, session = fasttest.campaign, fasttest.hero, fasttest.session
    actions.record_roll(
        actions.RollSpec(
            session=session,
            actor=player,
            system="fasttest",
            key=uuid.uuid4(),
            character=hero,
            params={"attribute": 5, "skills": [1], "bonus": 1, "penalty": 0},
            label="BUDOWA 5 + WALKA +1 (an old row)",
            sources=[{"kind": "bonus", "amount": 1, "source": "circumstances"}],
        )
    )
    assert Roll.objects.get().label_data is None
    client.force_login(gm)
    html = entry_html(log_page(client, campaign, session, PL), 1)
    assert "BUDOWA 5 + WALKA +1 (an old row)" in html
    assert "+1 kość bonusowa: circumstances" in html


@pytest.fixture
def english():
    with translation.override("en"):
        yield


def test_stored_words_that_are_unknown_or_broken_still_render_without_an_error(english):
    assert render({"w": "a key from the future"}) == "a key from the future"
    assert render({"w": "traits", "a": {"wrong": "x"}}) == "traits (%(names)s)"
    assert render({"j": " + ", "i": ["a", {"w": "black_d6"}]}) == "a + black d6"
    assert render(["a", 1, None]) == "a, 1, "
    assert render({"nothing": "here"}) == ""
    assert render({"w": "white_dice", "a": {"wrong": 1}}) == ""  # a plural without its count
    assert render({"w": "white_dice", "a": {"n": 1}}) == "1 white die"


def test_stored_words_nest_no_deeper_than_they_are_allowed_to():
    deep = "end"
    for _ in range(50):
        deep = {"j": "", "i": [deep]}
    assert render(deep) == ""


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_websocket_brings_an_english_players_entry_to_a_polish_page_in_polish(
    make_table, gm, player, other_player
):
    table = await sync_to_async(make_table)(**table_of("ast", {}))
    campaign, hero, session = table.campaign, table.hero, table.session
    socket = await sync_to_async(socket_for)(gm, campaign, lang="pl")
    assert (await socket.connect())[0]
    await socket.send_json_to({"type": "since", "session": session.pk, "seq": 0})
    assert (await socket.receive_json_from(timeout=3))["type"] == "synced"

    def english_roll():
        with translation.override("en"):
            label = words("ast_test", dice=words("white_dice", n=5), level=words("black_d6"))
            actions.record_roll(
                actions.RollSpec(
                    session=session,
                    actor=player,
                    system="ast",
                    key=uuid.uuid4(),
                    character=hero,
                    params={"white": 5, "level_mod": 0},
                    label=label,
                    sources=[{"kind": "funt", "amount": 1, "source": words("one_white_die_each")}],
                )
            )

    await sync_to_async(english_roll)()
    html = (await socket.receive_json_from(timeout=3))["html"]
    assert "5 białych kości kontra czarna d6" in html
    assert "white dice" not in html
    await socket.disconnect()


# --- 17: words that match the dice, outcomes in the system's words, plural forms ----------------


@pytest.mark.django_db
def test_a_failed_caerbannog_entry_says_no_heroic_cost_the_offer_does_not_contradict(
    client, caerbannog, player, dice
):
    hero = caerbannog.hero
    client.force_login(player)
    dice(4, 4, 1)  # Charyzma 0 (3d4) vs 5: −1, heroic effort costs 2
    html = roll(client, hero, skill="Charyzma", difficulty="5").content.decode()
    assert "Heroic effort: pay 2 for exactly 1 success" in html
    assert "heroic effort cost" not in html


@pytest.mark.django_db
def test_the_heroic_effort_entry_names_the_cost_that_was_offered(client, caerbannog, player, dice):
    campaign, hero = caerbannog.campaign, caerbannog.hero
    client.force_login(player)
    dice(4, 4, 1)
    roll(client, hero, skill="Charyzma", difficulty="5")
    parent = Roll.objects.get()
    url = reverse("test_follow_up", args=[campaign.pk, hero.pk, parent.pk, "heroic"])
    html = client.post(url, {"resource": "wytrzymalosc", "key": str(uuid.uuid4())}).content
    assert re.search(r"<dt>heroic effort cost</dt><dd>2</dd>", html.decode())
    assert "+2 heroic effort cost: paid with Wytrzymałość (endurance)" in html.decode()


@pytest.mark.django_db
def test_caerbannog_outcomes_keep_their_polish_names_and_translate(
    client, caerbannog, player, dice
):
    hero = caerbannog.hero
    client.force_login(player)
    dice(8, 8, 8)
    html = roll(client, hero, skill="Jazda").content.decode()
    assert '<p class="outcome">Sukces (success)</p>' in html
    dice(1, 2, 2)
    html = client.post(
        panel_url(hero, "test_roll"), {"skill": "Jazda", "key": str(uuid.uuid4())}, **PL
    ).content.decode()
    assert '<p class="outcome">Porażka</p>' in html


@pytest.mark.django_db
def test_a_t10_success_reads_in_swedish_beside_the_translation(
    make_table, client, gm, player, other_player
):
    from tests.web.test_panel_t10 import SHEET as T10_SHEET

    table = make_table(**table_of("t10", T10_SHEET))

    campaign, hero, session = table.campaign, table.hero, table.session
    actions.record_roll(
        actions.RollSpec(
            session=session,
            actor=player,
            system="t10",
            key=uuid.uuid4(),
            params={"pool": 3, "difficulty": 7},
            character=hero,
        ),
        rng=Scripted(7, 8, 9),
    )
    client.force_login(gm)
    assert '<p class="outcome">Lyckat (success)</p>' in log_page(client, campaign, session, EN)
    assert '<p class="outcome">Sukces (lyckat)</p>' in log_page(client, campaign, session, PL)


@pytest.mark.django_db
def test_one_penalty_die_and_one_challenge_point_read_in_the_singular(client, fasttest, player):
    hero = fasttest.hero
    client.force_login(player)
    html = roll(client, hero, attribute="BUDOWA", penalty_other="1").content.decode()
    assert "+1 penalty die: circumstances" in html
    assert "1 penalty dice" not in html
    with translation.override("pl"):
        assert source_line({"kind": "penalty", "amount": 1, "source": ""}) == "+1 kość karna"
        assert source_line({"kind": "penalty", "amount": 3, "source": ""}) == "+3 kości karne"
        assert source_line({"kind": "penalty", "amount": 5, "source": ""}) == "+5 kości karnych"
    assert source_line({"kind": "challenge", "amount": 1, "source": ""}) == "+1 challenge point"


@pytest.mark.django_db
def test_the_fasttest_panel_counts_one_bonus_die_in_the_singular(client, fasttest, player):
    hero = fasttest.hero
    client.force_login(player)
    html = client.get(panel_url(hero), {"attribute": "BUDOWA", "bonus_other": "2"}, **EN).content
    # 2 bonus dice from circumstances less 1 penalty die from the (light) wound: 1 bonus die net.
    assert "<b>1</b> bonus die" in html.decode()
    assert "<b>1</b> bonus dice" not in html.decode()


@pytest.mark.django_db
def test_the_scene_line_counts_one_challenge_point_in_the_singular(
    make_table, client, gm, player, other_player
):
    table = make_table(**table_of("ast", {}))
    campaign, session = table.campaign, table.session
    scene = session.scenes.get()
    scene.challenge_points = 1
    scene.save()
    client.force_login(gm)
    html = log_page(client, campaign, session, EN)
    assert "1 challenge point (Punkty Wyzwań) left" in html
    assert "Pozostał 1 Punkt Wyzwań" in log_page(client, campaign, session, PL)


@pytest.mark.parametrize(
    ("p", "shown"),
    [(0.11667, "11.7%"), (0.11649, "11.6%"), (0.0833, "8.3%"), (0.99999, ">99.9%"),
     (0.0004, "<0.1%"), (1.0, "100%"), (0.0, "0%")],
)  # fmt: skip
def test_percentages_are_rounded_not_cut(english, p, shown):
    assert percent(p) == shown


@pytest.mark.django_db
def test_the_screen_reader_names_a_fasttest_die_once(client, fasttest, player):
    hero = fasttest.hero
    client.force_login(player)
    html = roll(client, hero, attribute="BUDOWA").content.decode()
    assert "(d10, kept" in html
    assert "(d10, d10" not in html
    assert "(d6, d6" not in html


@pytest.mark.django_db
def test_the_party_card_spells_the_wounds_out(client, fasttest, gm):
    campaign, hero = fasttest.campaign, fasttest.hero
    hero.data["wounds"] = [
        {"label": "cięcie", "severity": "light", "bandaged": False},
        {"label": "stłuczenie", "severity": "heavy", "bandaged": True},
        {"label": "draśnięcie", "severity": "heavy", "bandaged": True},
    ]
    hero.save()
    client.force_login(gm)
    url = reverse("dashboard", args=[campaign.pk])
    assert (
        "1× Lekka (light), 2× Ciężka (heavy); 1 not bandaged"
        in client.get(url, **EN).content.decode()
    )
    polish = client.get(url, **PL).content.decode()
    assert "1× Lekka, 2× Ciężka; 1 nieopatrzona" in polish


@pytest.mark.django_db
def test_text_someone_typed_inside_stored_words_is_shown_as_text_not_markup(
    client, caerbannog, player, gm, dice
):
    campaign, hero, session = caerbannog.campaign, caerbannog.hero, caerbannog.session
    client.force_login(player)
    dice(5, 2, 7)
    roll(client, hero, skill="Jazda", modifier="1", modifier_source="<b>zbroja</b>")
    client.force_login(gm)
    html = entry_html(log_page(client, campaign, session, PL), 1)
    assert "&lt;b&gt;zbroja&lt;/b&gt;" in html
    assert "<b>zbroja</b>" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("form", ["combined", "added"])
@pytest.mark.parametrize("count", [2, 3, 4])
def test_the_pool_line_names_exactly_the_dice_rolled(client, caerbannog, player, form, count):
    hero = caerbannog.hero
    client.force_login(player)
    skills = ["Jazda", "Percepcja", "Charyzma", "Atletyka"][:count]
    choices = {"skill": skills, "main": "Jazda", "form": form}
    panel = client.post(panel_url(hero), choices, **EN).context["panel"]
    with translation.override("en"):
        line = source_line(panel.sources[1])
    named = [(int(n), int(sides)) for n, sides in re.findall(r"(\d+)d(\d+)", line)]
    rolled = sorted(sides for n, sides in named for _ in range(n))
    assert rolled == sorted(panel.params["dice"])
    assert line.startswith(f"{len(panel.params['dice'])} dice rolled: ")


@pytest.mark.django_db
def test_the_t10_panel_names_a_success_in_swedish_in_its_distribution(
    make_table, client, gm, player, other_player
):
    from tests.web.test_panel_t10 import SHEET as T10_SHEET

    table = make_table(**table_of("t10", T10_SHEET))

    hero = table.hero
    client.force_login(player)
    html = client.get(panel_url(hero), {"attribute": "Styrka", "skill": "Svärd"}, **EN).content
    assert 'title="Lyckat (success)"' in html.decode()
    assert "Sukces (success)" not in html.decode()
