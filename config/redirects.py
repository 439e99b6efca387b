"""Where a plain (no-JavaScript) form goes back to: the ``next`` it carried, when that is a page
of this site, and a page the view names otherwise.

Django's ``url_has_allowed_host_and_scheme`` keeps the redirect on this site, but it lets
through text that is no page at all (``-1``, ``dashboard``): ``redirect()`` then reads it as a
view's name, fails to reverse it and answers 500, after the roll was committed and again on
every retry. So the target must also be a path of ours that the URL resolver knows.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.http import HttpRequest
from django.urls import Resolver404, resolve
from django.utils.http import url_has_allowed_host_and_scheme

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
