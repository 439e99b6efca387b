"""A chat line reaches nobody but those it is for, by any path (issue 28's acceptance).

Player A whispers to player B, writes a line to the GM only, and the GM writes a note to self;
each line carries a marker of its own. A viewer who may not read a line gets nothing of it: not
its text, not its entry (``id="roll-<session>-<seq>"``, not even a redacted stub), not its seq in
an export or a frame (``rolls.log.payload.UNSHOWN_KINDS``). The walk goes over every URL pattern
of ``rolls.urls`` as ``tests/web/test_hidden_rolls.py``'s does, and over the main pages of the
other apps; the socket is checked for its replay, a live whisper and one whose broadcast was lost
(the gap filling reads it from the log). The last tests show that the author, the recipient and
the GM do read the lines where the walk looks, so the walk looks in the right place.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from html import escape

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from campaigns import live
from campaigns.models import Campaign, GameSession, Membership
from rolls import urls as roll_urls
from rolls.labels import KIND_LABELS
from rolls.models import Roll, Visibility
from sheets.models import NPC, Character
from tests.web.hostile import url_arguments, url_names, walk
from tests.web.live import roll, socket_for

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
#: The lines' markers: text that appears nowhere else in any answer.
WHISPER = "Szept-7fq3-do-Bartka"
TO_GM = "Plan-k29x-dla-MG"
NOTE = "Notatka-m4zt-MG"
PLAYERS_SKILL = "WALKA"
#: A's sheet is one the panel rolls on at once: a roll request with a line's key reaches the log.
HERO = {"attributes": {"BUDOWA": 7}, "skills": {"WALKA": 2}}


@dataclass
class Chat:
    campaign: Campaign
    session: GameSession
    hero: Character  # A's character: the whisper is spoken as it
    npc: NPC  # the GM's note is spoken as it
    gm: object
    a: object
    b: object
    third: object
    characters: list[Character]
    lines: dict[str, Roll] = field(default_factory=dict)  # marker -> its line

    def unreadable(self, viewer: str) -> list[Roll]:
        """The lines ``viewer`` may not read."""
        readable = {
            "player A": {WHISPER, TO_GM},
            "player B": {WHISPER},
            "gm": {WHISPER, TO_GM, NOTE},
        }.get(viewer, set())
        return [line for marker, line in self.lines.items() if marker not in readable]


def say(client, campaign, text, to="all", **fields) -> Roll:
    """A line said through the chat box's own view (htmx, as the page sends it)."""
    data = {"text": text, "to": to, "key": str(uuid.uuid4()), **fields}
    response = client.post(reverse("say_line", args=[campaign.pk]), data, **HX)
    assert response.status_code == 200, response.content.decode()[:500]
    return Roll.objects.filter(kind="chat").order_by("-seq").first()


def seat_the_table(make_table, make_user, gm, player, other_player) -> Chat:
    """A table of the GM and three players; a public roll and line, the three lines, then another
    public line, so every page has entries the viewers may read around those they may not."""
    seated = make_table(
        "fasttest", characters=[("Brunhilda", HERO), ("Ulryk", {})], npcs=[("Troll", [])]
    )
    campaign, session = seated.campaign, seated.session
    third = make_user("trzeci")
    Membership.objects.create(campaign=campaign, user=third)
    zbyszko = Character.objects.create(campaign=campaign, owner=third, name="Zbyszko", data={})
    table = Chat(
        campaign, session, seated.hero, seated.npc, gm, player, other_player, third,
        [*seated.characters, zbyszko],
    )  # fmt: skip
    a, b, master = seated.client(player), seated.client(other_player), seated.client(gm)
    roll(session, player)
    say(a, campaign, "Dzień dobry, drużyno.")
    table.lines[WHISPER] = say(
        a, campaign, WHISPER, to=f"u{other_player.pk}", speaker=f"c{table.hero.pk}"
    )
    table.lines[TO_GM] = say(a, campaign, TO_GM, to="gm")
    table.lines[NOTE] = say(master, campaign, NOTE, to="gm", speaker=f"n{table.npc.pk}")
    say(b, campaign, "Idziemy dalej.")
    visibilities = [table.lines[marker].visibility for marker in (WHISPER, TO_GM, NOTE)]
    assert visibilities == [Visibility.WHISPER, Visibility.SECRET, Visibility.HIDDEN]
    assert table.lines[WHISPER].recipient_id == other_player.pk
    return table


@pytest.fixture
def table(make_table, make_user, gm, player, other_player) -> Chat:
    return seat_the_table(make_table, make_user, gm, player, other_player)


def leaks(body: str, lines: list[Roll]) -> list[str]:
    """What of ``lines`` this answer shows; an empty list when nothing."""
    # The language switch of every full page returns to the URL the requester asked for: that
    # echoes what they typed (a ``before=`` among it), not what the log holds.
    body = re.sub(r'<input type="hidden" name="next" value="[^"]*">', "", body)
    found = []
    for line in lines:
        text, seq = line.params["text"], line.seq
        if text in body or escape(text) in body:
            found.append(f"the text {text!r}")
        if line.label in body or escape(line.label) in body:
            found.append(f"the label {line.label!r}")
        traces = {
            "its entry (or a stub of it)": f'id="roll-{line.session_id}-{seq}"',
            "its seq on an entry": f'data-seq="{seq}"',
            "its seq in a JSON entry": rf'"seq": {seq}\b',
            "its seq in the Markdown export": rf"\*\*#{seq}\*\*",
            "its seq in the CSV export": rf"(?m)^{seq},",
            # "Sent (#3).", "Rolled 2d6 = 7 (#3).", "→ #3": any number of an entry as the log
            # writes it (a colour, "&#39;" or "#section-3" are not).
            "its seq as the log writes it": rf"(?<![&\w])#{seq}(?![\w-])",
            "a follow-up of it": f"/rolls/{line.pk}/",
        }
        found += [
            f"{what} (#{seq})" for what, pattern in traces.items() if re.search(pattern, body)
        ]
    return found


def test_the_walks_eyes_see_what_the_gm_reads(client, table, gm):
    """The check itself: on the GM's log page it finds every line, so an empty list means
    nothing was there, not that it looked for the wrong thing."""
    client.force_login(gm)
    body = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
    found = leaks(body, list(table.lines.values()))
    for line in table.lines.values():
        assert f"the text {line.params['text']!r}" in found
        assert f"its entry (or a stub of it) (#{line.seq})" in found


# --- Every endpoint of rolls.urls and the main pages of the other apps, every viewer ----------

VIEWERS = ["third player", "player B", "player A", "outsider", "anonymous"]


def _users(table: Chat, outsider) -> dict:
    return {
        "third player": table.third,
        "player B": table.b,
        "player A": table.a,
        "outsider": outsider,
    }


def _fill(name: str, table: Chat) -> list[dict]:
    """Every set of URL arguments worth trying on URL ``name``: the lines, each kind."""
    values = {
        "campaign_id": [table.campaign.pk],
        "session_id": [table.session.pk],
        # No pending test, opposed test, group test or condition here: the endpoints must still
        # not show a line (they refuse).
        "pending_id": [1],
        "roll_id": [line.pk for line in table.lines.values()],
        "kind": [*KIND_LABELS, "no-such-kind"],
        "fmt": ["md", "csv", "json"],
        "opposed_id": [1],
        "group_id": [1],
        "condition_id": [1],
        # A pinned test (rolls.saved): none here; taking one away must refuse, not leak.
        "saved_id": [1],
        "index": [0],
        # The whisper is spoken as A's character, the GM's note as the NPC.
        "pk": [table.npc.pk if name in ("npc_roll", "npc_roll_box") else table.hero.pk],
    }
    return url_arguments(name, values)


def _requests(table: Chat) -> list[tuple[str, dict, dict]]:
    """(method, data, headers): nothing, a malformed key, well-formed input of every form the
    rolls app has (a line to everyone among it), a forged "hidden", the earlier pages of the log
    around each line, and the very key of each line (the answer to a repeated key is the entry
    it made: never one the requester may not read)."""
    good = {
        "key": str(uuid.uuid4()),
        "skill": PLAYERS_SKILL,
        "attribute": "BUDOWA",
        "visibility": Visibility.PUBLIC,
        "die": "0",
        "resource": "determinacja",
        "op": "set_difficulty",
        "value": "3",
        "title": "A scene",
        "amount": "1",
        "reason": "well played",
        "character": str(table.hero.pk),
        "player_weapon": "hand",
        "enemy_weapon": "hand",
        "text": "Goblin 2",
        "to": "all",
        "expression": "2d6",
        "side": "a",
    }
    posts = [
        {},
        {"key": "x"},
        good,
        good | {"key": str(uuid.uuid4()), "visibility": Visibility.HIDDEN},
        *(good | {"key": str(line.idempotency_key)} for line in table.lines.values()),
    ]
    gets = [
        {},
        {"skill": PLAYERS_SKILL, "character": str(table.hero.pk)},
        *({"before": str(line.seq + 1)} for line in table.lines.values()),
    ]
    return (
        [("get", data, {}) for data in gets]
        + [("get", data, HX) for data in gets[:1]]
        + [("post", data, {}) for data in posts]
        + [("post", data, HX) for data in posts]
    )


def _walk(table: Chat, outsider, urls: list[str], requests) -> None:
    """Each of ``urls`` as every viewer, each request meeting the same table (``walk``)."""
    users = _users(table, outsider)
    found = []
    for viewer in VIEWERS:
        client = Client()
        if viewer in users:
            client.force_login(users[viewer])
        unreadable = table.unreadable(viewer)
        assert unreadable, viewer
        for url in urls:
            for method, data, response in walk(client, url, requests):
                where = f"{viewer}: {method.upper()} {url} {data} -> {response.status_code}"
                found += [f"{where}: {leak}" for leak in leaks(response.text, unreadable)]
    assert not found, f"{len(found)} found, the first:\n" + "\n".join(found[:40])


def test_no_answer_of_any_roll_endpoint_shows_a_line_to_anyone_it_is_not_for(table, outsider):
    urls = [
        reverse(name, kwargs=kwargs)
        for name in url_names(roll_urls.urlpatterns)
        for kwargs in _fill(name, table)
    ]
    _walk(table, outsider, urls, _requests(table))


def _other_pages(table: Chat) -> list[str]:
    """The main pages of the other apps, each of them with a log or a count of it nearby."""
    campaign = table.campaign.pk
    pages = [
        reverse("home"),
        reverse("campaign_detail", args=[campaign]),
        reverse("campaign_sessions", args=[campaign]),
        reverse("npc_list", args=[campaign]),
        reverse("npc_edit", args=[campaign, table.npc.pk]),
    ]
    for character in table.characters:
        for name in ("character_detail", "character_paper", "character_export"):
            pages.append(reverse(name, args=[campaign, character.pk]))
    return pages


def test_no_page_of_the_other_apps_shows_a_line_to_anyone_it_is_not_for(table, outsider):
    """Each page as a page and as htmx asks for a part of it."""
    _walk(table, outsider, _other_pages(table), [("get", {}, {}), ("get", {}, HX)])


# --- The socket -----------------------------------------------------------------------------


async def _connected(user, campaign):
    socket = await sync_to_async(socket_for)(user, campaign)
    ok, _ = await socket.connect()
    assert ok
    return socket


async def _frames_until(socket, done) -> list[str]:
    """The raw frames the socket receives up to the one ``done`` says is the last."""
    frames = []
    while True:
        frame = await socket.receive_from(timeout=3)
        frames.append(frame)
        if done(json.loads(frame)):
            return frames


def _frame_leaks(frames: list[str], lines: list[Roll]) -> list[str]:
    found = []
    for frame in frames:
        message = json.loads(frame)
        for line in lines:
            if message.get("seq") == line.seq:
                found.append(f"a {message['type']} frame of #{line.seq}")
        found += leaks(message.get("html", ""), lines)
        found += [
            f"the text {line.params['text']!r}" for line in lines if line.params["text"] in frame
        ]
    return found


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_socket_gives_a_third_player_nothing_of_a_whisper_replayed_live_or_lost(
    make_table, make_user, gm, player, other_player, monkeypatch
):
    table = await sync_to_async(seat_the_table)(make_table, make_user, gm, player, other_player)
    campaign, session = table.campaign, table.session
    third = await _connected(table.third, campaign)
    reader = await _connected(other_player, campaign)
    unreadable = table.unreadable("third player")

    # The replay: every entry since the start, the three lines among them.
    await third.send_json_to({"type": "since", "session": session.pk, "seq": 0})
    replayed = await _frames_until(third, lambda message: message["type"] == "synced")
    seqs = [json.loads(frame).get("seq") for frame in replayed]
    last_public = await sync_to_async(lambda: session.rolls.order_by("-seq").first())()
    assert last_public.visibility == Visibility.PUBLIC
    assert seqs == [1, 2, last_public.seq, last_public.seq]  # the roll, two lines, synced
    assert _frame_leaks(replayed, unreadable) == []
    await reader.send_json_to({"type": "since", "session": session.pk, "seq": last_public.seq})
    await _frames_until(reader, lambda message: message["type"] == "synced")

    # Live: a whisper broadcast to the table, one whose broadcast is lost (the public line after
    # it finds the gap and reads it from the log), then a public line.
    a = await sync_to_async(Client)()
    await sync_to_async(a.force_login)(player)
    heard = await sync_to_async(say)(a, campaign, WHISPER + "-live", to=f"u{other_player.pk}")
    with monkeypatch.context() as lost:
        lost.setattr(live, "broadcast", lambda group, event: None)
        lost_line = await sync_to_async(say)(
            a, campaign, WHISPER + "-lost", to=f"u{other_player.pk}"
        )
    public = await sync_to_async(say)(a, campaign, "Wszyscy to słyszą.")
    assert (heard.seq, lost_line.seq, public.seq) == tuple(last_public.seq + n for n in (1, 2, 3))
    frames = await _frames_until(third, lambda message: message.get("seq") == public.seq)
    assert [json.loads(frame)["seq"] for frame in frames] == [public.seq]
    assert "Wszyscy to słyszą." in json.loads(frames[0])["html"]
    assert _frame_leaks(frames, [*unreadable, heard, lost_line]) == []
    assert await third.receive_nothing(timeout=0.3)

    # The reader gets both whispers, the lost one from the log, and the line after them.
    frames = await _frames_until(reader, lambda message: message.get("seq") == public.seq)
    assert [json.loads(frame)["seq"] for frame in frames] == [heard.seq, lost_line.seq, public.seq]
    assert WHISPER + "-live" in frames[0]
    assert WHISPER + "-lost" in frames[1]
    await third.disconnect()
    await reader.disconnect()


# --- The positive side: those a line is for read it where the walk looked --------------------


@pytest.mark.parametrize(
    ("viewer", "markers"),
    [
        ("player A", [WHISPER, TO_GM]),
        ("player B", [WHISPER]),
        ("gm", [WHISPER, TO_GM, NOTE]),
    ],
)
def test_the_author_the_recipient_and_the_gm_read_their_lines(table, viewer, markers):
    user = {"player A": table.a, "player B": table.b, "gm": table.gm}[viewer]
    client = Client()
    client.force_login(user)
    campaign = table.campaign.pk
    log = client.get(reverse("session_log", args=[campaign])).content.decode()
    earlier = client.get(
        reverse("session_log_earlier", args=[campaign, table.session.pk]),
        {"before": str(table.session.rolls.order_by("-seq").first().seq)},
    ).content.decode()
    csv = client.get(
        reverse("session_export", args=[campaign, table.session.pk, "csv"])
    ).content.decode()
    for marker in markers:
        line = table.lines[marker]
        for body in (log, earlier):
            assert escape(marker) in body
            assert f'id="roll-{line.session_id}-{line.seq}"' in body
        assert marker in csv
    # And what they may not read stays out of their own pages too.
    assert leaks(log, table.unreadable(viewer)) == []
