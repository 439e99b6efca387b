"""Every page and partial of the demo table reads in one language (issue 25, item 9).

The demo table (``rolls.demo.seed_demo``) is played and read through the crawl of
``tests.web.hostile`` (every page a GM and a player reach, each sheet box, each test panel, a
roll from each, a called test, a group test), then every page and partial that takes no form
is read too (``READ_ONLY`` of tests/web/test_hostile_input.py), each with its arguments, as the
GM and as the player. What the crawl posts is written in one language; every page is read in
the other through the pseudo-locale (tests/web/pseudo_locale.py), so a word of the writer's
language left in the log, on a sheet or on a card fails the test, and so does any word of a
page that did not go through gettext, or that the Polish catalogue does not translate.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import get_resolver, reverse
from django.utils import translation

from campaigns.models import Campaign, GameSession
from rolls.demo import seed_demo
from rolls.models import RandomTable
from sheets.models import NPC, Character
from tests.web.hostile import Crawl
from tests.web.pseudo_locale import marked, readable_response, typed_phrases, unmarked_words_of
from tests.web.test_hostile_input import READ_ONLY

#: What the crawl types itself (tests.web.hostile): an NPC it adds, a wound, a spell's name.
CRAWL_TYPES = {"Ogr", "wielki", "cut", "pocisk"}
#: Files for programs, not for readers: their keys stay as they are in every language.
FOR_PROGRAMS = {"character_export", "random_table_csv", "random_table_json"}
EXPORTS = ("md", "csv")


class Reader(Client):
    """A person who writes (posts) in one language and reads in the other; every page and
    partial read is kept, with who read it where."""

    def __init__(self, user: str, writer: str, reader: str, read: list) -> None:
        super().__init__()
        self.user, self.writer, self.reader, self.read = user, writer, reader, read

    def request(self, **request):
        method = request.get("REQUEST_METHOD", "GET")
        request.setdefault("HTTP_ACCEPT_LANGUAGE", self.reader if method == "GET" else self.writer)
        response = super().request(**request)
        text = readable_response(response) if method == "GET" else None
        if text is not None:
            self.read.append((self.user, request["PATH_INFO"], text))
        return response


def _urls(campaign: Campaign, user: str) -> list[str]:
    """Every page and partial of the campaign that takes no form, with its arguments."""
    session = GameSession.objects.filter(campaign=campaign).latest("pk")
    character = Character.objects.filter(campaign=campaign).order_by("pk").first()
    if user != "gm":
        character = Character.objects.get(campaign=campaign, owner__username=user)
    npc = NPC.objects.filter(campaign=campaign).first()
    table = RandomTable.objects.filter(campaign=campaign).first()
    values = {
        "campaign_id": campaign.pk,
        "session_id": session.pk,
        "pk": character.pk,
        "token": campaign.invite_token,
        "system": campaign.system,
    }
    urls = []
    for name in sorted(READ_ONLY - FOR_PROGRAMS):
        if name == "npc_roll_box" and npc is None:
            continue
        found = _arguments(name)
        args = {key: values[key] for key in found if key != "fmt"}
        if name == "npc_roll_box":
            args["pk"] = npc.pk
        if "fmt" in found:
            urls += [reverse(name, kwargs=args | {"fmt": fmt}) for fmt in EXPORTS]
        else:
            urls.append(reverse(name, kwargs=args))
    if table is not None:
        urls.append(reverse("random_table_edit", args=[campaign.pk, table.pk]))
    return urls


def _arguments(name: str) -> list[str]:
    [(possibilities, *_rest)] = get_resolver().reverse_dict.getlist(name)
    [(_format, names)] = possibilities
    return names


@pytest.mark.django_db
@pytest.mark.parametrize(("writer", "reader"), [("en", "pl"), ("pl", "en")])
def test_every_page_of_the_demo_written_in_one_language_reads_in_the_other(writer, reader):
    read: list = []
    # Sessions in the cache, as the hostile crawl keeps them (tests/web/test_hostile_input.py).
    with override_settings(SESSION_ENGINE="django.contrib.sessions.backends.cache"):
        with override_settings(LANGUAGE_CODE=writer), translation.override(writer):
            seed_demo()  # the demo's campaigns add their rules' tables in the writer's language
        phrases = typed_phrases() | CRAWL_TYPES
        users = get_user_model().objects
        with marked(reader):
            clients = {name: Reader(name, writer, reader, read) for name in ("gm", "ala", "anon")}
            for name in ("gm", "ala"):
                clients[name].force_login(users.get(username=name))
            crawl = Crawl(clients)
            crawl.table("gm", "ala")
            for page in ("/accounts/login/", "/accounts/signup/", "/no-such-page/"):
                clients["anon"].get(page)
            for campaign in Campaign.objects.order_by("pk"):
                for user in ("gm", "ala"):
                    for url in _urls(campaign, user):
                        clients[user].get(url)
                        if user == "gm":  # as a part of the page asks for it (the GM's are most)
                            clients[user].get(url, HTTP_HX_REQUEST="true")
    assert len({path for _user, path, _text in read}) > 150
    # A fifth of what is read is read again unchanged (a page the crawl returns to, a part that
    # reads alike with htmx): each text is checked once.
    texts = {text for _user, _path, text in read}
    words = {text: unmarked_words_of(text, phrases, reader) for text in texts}
    found = sorted({f"{user} {path}: {word}" for user, path, text in read for word in words[text]})
    assert not found, "\n".join(found)
