"""Export a character as JSON with a schema version, and import it back with the creation rules."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from sheets.export import MAX_BYTES
from sheets.models import Character
from tests.web.sheet_helpers import JAGA, JULIO, client_for, sheet, url

pytestmark = pytest.mark.django_db
pytest_plugins = ["tests.web.sheet_fixtures"]


def document(data=None, **changes) -> dict:
    return {"schema": 1, "system": "fasttest", "name": "Wiedźma Jaga", "data": data or JAGA} | (
        changes
    )


def paste(client, campaign, body) -> str:
    text = body if isinstance(body, str) else json.dumps(body)
    response = client.post(url("character_import", campaign=campaign), {"json": text})
    return response


def problems(response) -> list[str]:
    block = re.search(r'id="import-problems">(.*?)</div>', response.content.decode(), re.S)
    assert block, "no problems listed"
    return [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", block.group(1))]


def test_export_downloads_a_json_file_with_the_schema_version(jaga, player):
    response = client_for(player).get(url("character_export", jaga))
    body = json.loads(response.content)
    assert response["Content-Disposition"] == 'attachment; filename="wiedzma-jaga.fasttest.json"'
    assert response["Content-Type"].startswith("application/json")
    assert body == {"schema": 1, "system": "fasttest", "name": "Wiedźma Jaga", "data": JAGA}


def test_an_exported_character_imports_unchanged_into_another_campaign(jaga, make_campaign, player):
    client = client_for(player)
    exported = client.get(url("character_export", jaga)).content
    other = make_campaign("fasttest", {"magic": True}, name="Second table")
    upload = SimpleUploadedFile("jaga.json", exported, content_type="application/json")
    response = client.post(url("character_import", campaign=other), {"file": upload})
    copy = Character.objects.get(campaign=other)
    assert response.status_code == 302
    assert (copy.name, copy.owner, copy.data) == ("Wiedźma Jaga", player, JAGA)


def test_a_caerbannog_character_round_trips_through_pasted_json(julio, make_campaign, player):
    client = client_for(player)
    exported = client.get(url("character_export", julio)).content.decode()
    other = make_campaign("caerbannog", name="Second table")
    paste(client, other, exported)
    copy = Character.objects.get(campaign=other)
    names = {(skill["name"], skill["level"]) for skill in copy.data["skills"]}
    assert ("Dociekliwość", 2) in names
    assert ("Atletyka", 0) in names
    assert copy.data["resources"] == JULIO["resources"]


def test_the_gm_imports_a_character_for_a_player(fasttest, gm, player):
    client_for(gm).post(
        url("character_import", campaign=fasttest),
        {"json": json.dumps(document()), "owner": str(player.pk)},
    )
    assert Character.objects.get(campaign=fasttest).owner == player


def test_a_character_of_another_system_is_refused_by_name(fasttest, player):
    response = paste(client_for(player), fasttest, document(JULIO, system="caerbannog"))
    assert problems(response) == [
        "This character is for Caerbannog 2026; this campaign plays FastTest."
    ]


def test_an_unknown_system_is_refused(fasttest, player):
    response = paste(client_for(player), fasttest, document(system="gurps"))
    assert problems(response) == ['This character is for "gurps"; this campaign plays FastTest.']


def test_another_schema_version_is_refused(fasttest, player):
    response = paste(client_for(player), fasttest, document(schema=2))
    assert problems(response) == ["Unsupported schema version 2: this site reads version 1."]


def test_a_missing_schema_version_is_refused(fasttest, player):
    body = document()
    del body["schema"]
    response = paste(client_for(player), fasttest, body)
    assert problems(response) == ["Unsupported schema version null: this site reads version 1."]


def test_text_that_is_not_json_is_refused_and_kept(fasttest, player):
    response = paste(client_for(player), fasttest, "{not json")
    assert problems(response) == ["This is not a JSON file exported from a character sheet."]
    assert ">{not json</textarea>" in response.content.decode()


def test_a_file_that_is_not_utf8_is_refused(fasttest, player):
    upload = SimpleUploadedFile("x.json", b"\xff\xfe\x00garbage")
    response = client_for(player).post(url("character_import", campaign=fasttest), {"file": upload})
    assert problems(response) == ["This is not a JSON file exported from a character sheet."]


def test_json_that_is_not_an_object_is_refused(fasttest, player):
    response = paste(client_for(player), fasttest, "[1, 2, 3]")
    assert problems(response) == ["The JSON must be an object with schema, system and data."]


def test_data_that_is_not_an_object_is_refused(fasttest, player):
    response = paste(client_for(player), fasttest, document(data="sheet"))
    assert problems(response) == ["The “data” of the file must be an object: the sheet."]


def test_a_too_large_upload_is_refused_before_reading_it(fasttest, player):
    upload = SimpleUploadedFile("big.json", b" " * (MAX_BYTES + 1))
    response = client_for(player).post(url("character_import", campaign=fasttest), {"file": upload})
    assert problems(response) == ["The file is too large: a character is at most 64 KB."]


def test_too_large_pasted_text_is_refused(fasttest, player):
    response = paste(client_for(player), fasttest, " " * (MAX_BYTES + 1))
    assert problems(response) == ["The file is too large: a character is at most 64 KB."]


def test_an_empty_import_asks_for_a_file(fasttest, player):
    response = client_for(player).post(url("character_import", campaign=fasttest), {"json": ""})
    assert problems(response) == ["Choose an exported file or paste its JSON."]


def test_every_broken_creation_rule_is_reported_at_once(fasttest, player):
    broken = sheet(
        JAGA,
        attributes={"BUDOWA": 3, "ZRĘCZNOŚĆ": 4, "UMYSŁ": 6, "DUCH": 6},
        skills=dict(JAGA["skills"], EKWIPUNEK=0),
        traits=[{"name": "czarodziejka", "level": 3, "magic": True}],
    )
    response = paste(client_for(player), fasttest, document(broken, name=""))
    assert problems(response) == [
        "Give the character a name.",
        "The attributes must sum to exactly 20; they sum to 19.",
        "The skills must sum to exactly 0; they sum to +1.",
        "“czarodziejka” has 3 levels; at creation a trait has at most 2.",
    ]
    assert not Character.objects.exists()


def test_values_of_the_wrong_type_are_problems_not_errors(fasttest, player):
    broken = sheet(JAGA, attributes=[3, 4, 6, 7], skills="none", traits={"a": 1}, wounds=7, xp=True)
    response = paste(client_for(player), fasttest, document(broken))
    assert response.status_code == 200
    assert "The attributes must be an object of four numbers." in problems(response)
    assert "The wounds must be a list." in problems(response)
    assert "XP: enter a whole number." in problems(response)


def test_a_caerbannog_import_with_a_forged_category_is_refused(caerbannog, player):
    broken = sheet(JULIO, skills=[{"name": "Jazda", "category": "dragons", "level": 1}])
    response = paste(client_for(player), caerbannog, document(broken, system="caerbannog"))
    assert problems(response) == [
        "Unknown skill category “dragons”; use one of: physical, practical, social, combat, "
        "knowledge, specialist, mystic."
    ]
