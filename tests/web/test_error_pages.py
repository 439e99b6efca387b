"""The app's own 404, 403 and 500 pages (bilingual, in the base layout), and a demo server that
shows them instead of Django's debug pages."""

from __future__ import annotations

import subprocess

import pytest
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory
from django.urls import reverse
from django.views import defaults

from tests.web.servers import ROOT

pytestmark = [pytest.mark.django_db, pytest.mark.table(title="Noc pierwsza")]


def test_a_player_opening_the_gm_dashboard_gets_the_apps_own_404_page(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    response = client.get(reverse("dashboard", args=[campaign.pk]))
    assert response.status_code == 404
    body = response.content.decode()
    assert "Page not found" in body
    assert 'class="site-header"' in body  # the base layout, with the way back
    assert "URLconf" not in body


def test_the_404_page_speaks_polish_to_a_polish_reader(client, table, player):
    campaign = table.campaign
    client.force_login(player)
    client.cookies["django_language"] = "pl"
    response = client.get(reverse("dashboard", args=[campaign.pk]))
    assert response.status_code == 404
    assert "Nie ma takiej strony" in response.content.decode()


def test_an_unknown_address_gets_the_same_404_page(client, player):
    client.force_login(player)
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


def test_a_refusal_renders_the_apps_own_403_page(player):
    request = RequestFactory().get("/")
    request.user = player
    response = defaults.permission_denied(request, PermissionDenied())
    assert response.status_code == 403
    assert "Not allowed" in response.content.decode()


def test_a_server_error_renders_the_apps_own_500_page():
    response = defaults.server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()


def test_make_run_serves_with_debug_off():
    """The command `make run` would run (dry run: nothing is executed)."""
    plan = subprocess.run(
        ["make", "-n", "run", "PORT=8123"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    server = next(line for line in plan.splitlines() if "uvicorn" in line)
    assert server.startswith("DEBUG=0 ")


def test_a_run_leaves_no_sqlite_side_files_in_git_status():
    ignored = subprocess.run(
        ["git", "check-ignore", "db.sqlite3-shm", "db.sqlite3-wal", "db.sqlite3-journal"],
        cwd=ROOT, capture_output=True, text=True,
    ).stdout.split()  # fmt: skip
    assert ignored == ["db.sqlite3-shm", "db.sqlite3-wal", "db.sqlite3-journal"]
