"""Sign-up; the rest of the account pages are Django's auth views with our templates."""

from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from config.redirects import safe_next
from config.refusals import in_refusal_region


def _safe_next(request: HttpRequest) -> str:
    """Where to go after signing up: ``next`` when it stays on this site (e.g. an invite)."""
    return safe_next(request, request.POST.get("next") or request.GET.get("next"), "")


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_url or "home")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent from a page opened under another login (logged out, or in again, in another
    tab since: the login changed the page's CSRF token). Nothing was done; the page must be
    reloaded. A page's htmx request is told so in the page's refusal region, what was typed kept:
    409, as htmx swaps only the codes base.html names, and the page conflicts with the login."""
    message = _(
        "This page is out of date: you have logged in or out since it was opened. Nothing was "
        "done. Reload the page, then try again."
    )
    if getattr(request, "htmx", False):
        return in_refusal_region(message, 409)
    return render(request, "403.html", {"message": message}, status=403)
