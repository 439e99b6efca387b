"""Where a plain (no-JavaScript) form goes back to: the ``next`` it carried, when that is a page
of this site, and a page the view names otherwise; and where a page whose login ended goes
(``HtmxLoginMiddleware``).

Django's ``url_has_allowed_host_and_scheme`` keeps the redirect on this site, but it lets
through text that is no page at all (``-1``, ``dashboard``): ``redirect()`` then reads it as a
view's name, fails to reverse it and answers 500, after the roll was committed and again on
every retry. So the target must also be a path of ours that the URL resolver knows.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.http import HttpResponseClientRedirect

#: Longer than any page of ours with its query; a longer ``next`` is nobody's page.
MAX_NEXT = 2000


def safe_next(request: HttpRequest, target: object, fallback: str) -> str:
    """``target`` if it is a path of this site's pages (with its query), else ``fallback``."""
    if not isinstance(target, str) or not target.startswith("/") or len(target) > MAX_NEXT:
        return fallback
    if any(char.isspace() or not char.isprintable() for char in target):
        return fallback  # a NUL, a line break, a space before a scheme: no page of ours
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return fallback  # //evil.example, /\evil.example
    try:
        resolve(urlsplit(target).path)
    except Resolver404:
        return fallback
    return target


class HtmxLoginMiddleware:
    """A request htmx sends from a page whose login has ended (logged out in another tab, the
    password changed) meets ``login_required``'s redirect to the login page. htmx would follow
    it and swap the whole login page into the part that asked (a panel showing a site header
    and a login form). Answered instead with ``HX-Redirect``: the whole page goes to the login
    page, and after the login back to the page the person was on (``HX-Current-URL``, when it is
    a page of ours)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.htmx or response.status_code != 302:
            return response
        if urlsplit(response["Location"]).path != resolve_url(settings.LOGIN_URL):
            return response
        page = safe_next(request, request.htmx.current_url_abs_path, resolve_url("home"))
        return HttpResponseClientRedirect(redirect_to_login(page).url)
