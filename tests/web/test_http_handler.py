"""HTTP in the ASGI process: each request runs start to finish on one long-lived worker thread."""

import re
import threading
from pathlib import Path
from urllib.parse import urlencode

import pytest
from asgiref.sync import sync_to_async
from channels.testing import HttpCommunicator
from django.core.signals import request_finished, request_started
from django.db import connection, connections

from config.overrides.http import ThreadedASGIHandler

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

STATIC = Path(__file__).resolve().parents[2] / "static"


@pytest.fixture
def handler():
    handler = ThreadedASGIHandler(threads=1)
    yield handler
    # The worker thread keeps its connection open by design; a test database must not.
    handler.executor.submit(connections.close_all).result()
    handler.executor.shutdown()


HOST = (b"host", b"localhost")


async def get(handler, path):
    return await HttpCommunicator(handler, "GET", path, headers=[HOST]).get_response()


def cookies(response) -> dict[str, str]:
    found = {}
    for name, value in response["headers"]:
        if name.lower() == b"set-cookie":
            key, _, rest = value.decode().partition("=")
            found[key] = rest.split(";")[0]
    return found


async def test_a_page_is_served_with_its_cookies(handler):
    response = await get(handler, "/accounts/login/")
    assert response["status"] == 200
    assert b'name="csrfmiddlewaretoken"' in response["body"]
    assert "csrftoken" in cookies(response)


async def test_logging_in_through_the_handler_opens_a_session(handler, make_user):
    await sync_to_async(make_user)("ala")
    page = await get(handler, "/accounts/login/")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page["body"]).group(1)
    form = urlencode(
        {"username": "ala", "password": "a-long-test-password", "csrfmiddlewaretoken": token}
    ).encode()
    headers = [
        HOST,
        (b"content-type", b"application/x-www-form-urlencoded"),
        (b"cookie", f"csrftoken={cookies(page)['csrftoken']}".encode()),
    ]
    response = await HttpCommunicator(
        handler, "POST", "/accounts/login/", body=form, headers=headers
    ).get_response()
    assert response["status"] == 302
    assert cookies(response)["sessionid"]


async def test_a_static_file_arrives_whole(handler):
    response = await get(handler, "/static/js/panel.js")
    assert response["status"] == 200
    assert response["body"] == (STATIC / "js" / "panel.js").read_bytes()


async def test_a_missing_page_is_a_404_page(handler):
    response = await get(handler, "/no/such/page/")
    assert response["status"] == 404


async def test_requests_run_whole_on_a_worker_thread_that_keeps_its_connection(handler):
    seen = []

    def started(**kwargs):
        connection.ensure_connection()
        seen.append(("started", threading.current_thread().name, id(connection.connection)))

    def finished(**kwargs):
        seen.append(("finished", threading.current_thread().name, id(connection.connection)))

    request_started.connect(started)
    request_finished.connect(finished)
    try:
        for _ in range(2):
            await get(handler, "/accounts/login/")
    finally:
        request_started.disconnect(started)
        request_finished.disconnect(finished)
    assert [event for event, _, _ in seen] == ["started", "finished"] * 2
    assert {thread for _, thread, _ in seen} == {"http_0"}
    assert len({connection_id for _, _, connection_id in seen}) == 1
