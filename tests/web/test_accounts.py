"""Sign up, log in, log out, change password, switch language: the pages around the table."""

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_home_page_sends_an_anonymous_visitor_to_log_in(client):
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_newcomer_signs_up_and_lands_logged_in(client, django_user_model):
    response = client.post(
        reverse("signup"),
        {"username": "zosia", "password1": "kości-i-smoki-2026", "password2": "kości-i-smoki-2026"},
    )
    assert response.status_code == 302
    assert django_user_model.objects.filter(username="zosia").exists()
    assert client.get(reverse("home")).status_code == 200


def test_a_sign_up_with_mismatched_passwords_keeps_the_username_and_says_why(client):
    response = client.post(
        reverse("signup"),
        {"username": "zosia", "password1": "kości-i-smoki-2026", "password2": "inne-hasło-2026"},
    )
    assert response.status_code == 200
    assert 'value="zosia"' in response.content.decode()
    assert "didn’t match" in response.content.decode()


def test_a_wrong_password_is_refused_with_a_message(client, player):
    response = client.post(reverse("login"), {"username": "player", "password": "wrong"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def test_a_player_logs_in_and_out(client, player):
    response = client.post(
        reverse("login"), {"username": "player", "password": "a-long-test-password"}
    )
    assert response.status_code == 302
    client.post(reverse("logout"))
    assert client.get(reverse("home")).status_code == 302


def test_a_player_changes_their_password(client, player):
    client.force_login(player)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "a-long-test-password",
            "new_password1": "nowe-hasło-do-stołu",
            "new_password2": "nowe-hasło-do-stołu",
        },
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password("nowe-hasło-do-stołu")


def test_the_base_page_loads_htmx_locally_and_sends_csrf_with_htmx(client):
    html = client.get(reverse("login")).content.decode()
    assert '<script src="/static/js/htmx.min.js"' in html
    assert 'hx-headers=\'{"X-CSRFToken":' in html


def test_the_base_page_has_a_skip_link_and_a_phone_viewport(client):
    html = client.get(reverse("login")).content.decode()
    assert 'class="skip-link" href="#main"' in html
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in html


def test_the_language_switch_turns_the_page_polish(client):
    client.post(reverse("set_language"), {"language": "pl", "next": "/"})
    html = client.get(reverse("login")).content.decode()
    assert '<html lang="pl">' in html
    assert "Zaloguj się" in html


def test_signing_up_from_an_invite_returns_to_the_invite(client):
    response = client.post(
        reverse("signup") + "?next=/join/abc/",
        {"username": "nowy", "password1": "kości-i-smoki-2026", "password2": "kości-i-smoki-2026",
         "next": "/join/abc/"},
    )  # fmt: skip
    assert response["Location"] == "/join/abc/"


def test_sign_up_ignores_a_next_that_leaves_the_site(client):
    response = client.post(
        reverse("signup"),
        {"username": "nowy", "password1": "kości-i-smoki-2026", "password2": "kości-i-smoki-2026",
         "next": "https://evil.example/"},
    )  # fmt: skip
    assert response["Location"] == reverse("home")


# A page whose login ended asks for a part of itself (htmx): the whole page goes to log in, and
# comes back to where it was (config.redirects.HtmxLoginMiddleware).
SHEET_PAGE = "/c/1/characters/1/"


def ask_as_a_page(client, current_url: str):
    headers = {"HX-Request": "true", "HX-Current-URL": current_url}
    return client.get(reverse("test_panel", args=[1, 1]), headers=headers)


def test_a_page_whose_login_ended_goes_to_log_in_whole_and_comes_back(client):
    response = ask_as_a_page(client, f"http://testserver{SHEET_PAGE}")
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"{reverse('login')}?next={SHEET_PAGE}"
    assert response.content == b""  # nothing swapped into the part that asked


@pytest.mark.parametrize(
    "current_url",
    ["http://evil.example/c/1/characters/1/", "http://testserver/no/such/page/", "garbage"],
)
def test_a_page_elsewhere_or_unknown_comes_back_to_the_home_page(client, current_url):
    response = ask_as_a_page(client, current_url)
    assert response["HX-Redirect"] == f"{reverse('login')}?next={reverse('home')}"


def test_a_plain_request_without_a_login_is_redirected_as_ever(client):
    response = client.get(reverse("test_panel", args=[1, 1]))
    assert response.status_code == 302
    assert response["Location"].startswith(f"{reverse('login')}?next=")


def test_another_redirect_of_a_page_is_left_alone(client, player):
    client.force_login(player)
    response = client.post(
        reverse("set_language"), {"language": "pl", "next": "/"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert "HX-Redirect" not in response


# A form from a page opened under another login (its CSRF token changed since) is refused with
# a reason, not a bare 403 the page shows nothing of (config.account_views.csrf_failure).
STALE = "This page is out of date: you have logged in or out since it was opened."


def test_a_stale_pages_htmx_form_is_told_to_reload_in_the_pages_refusal_region(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    response = client.post(
        reverse("set_language"), {"language": "pl"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 409  # swapped by htmx (base.html), where 403 is not
    assert response["HX-Retarget"] == "#request-refusal"
    assert STALE in response.content.decode()


def test_a_stale_pages_plain_form_gets_a_page_that_says_why(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    response = client.post(reverse("set_language"), {"language": "pl"})
    assert response.status_code == 403
    assert STALE in response.content.decode()
    assert "Reload the page" in response.content.decode()
