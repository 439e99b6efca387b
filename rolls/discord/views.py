"""The GM's page for the campaign's Discord bridge. Every write is a plain form post that comes
back to the page (no JavaScript needed); the bridge's state refreshes in place while posts wait.
Players never reach it (404), and the webhook's token is never shown again once saved."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.access import Request, gm_campaign
from rolls.discord import actions, webhook
from rolls.discord.forms import WebhookForm
from rolls.discord.models import DiscordBridge, DiscordPost

#: What the page's buttons post as ``do``, besides saving the webhook.
_SWITCHES = {"test", "on", "off", "remove"}


def _state(bridge: DiscordBridge | None) -> dict:
    if bridge is None:
        return {"bridge": None}
    waiting = DiscordPost.objects.filter(bridge=bridge, sent_at=None, dropped="")
    dropped = DiscordPost.objects.filter(bridge=bridge).exclude(dropped="").order_by("-pk")
    return {
        "bridge": bridge,
        "masked": webhook.check(bridge.webhook_url).masked if _checks(bridge) else "",
        "waiting": waiting.count(),
        "last_dropped": dropped.first(),
    }


def _checks(bridge: DiscordBridge) -> bool:
    try:
        webhook.check(bridge.webhook_url)
    except webhook.BadWebhook:
        return False
    return True


def _bridge(campaign) -> DiscordBridge | None:
    return DiscordBridge.objects.filter(campaign=campaign).first()


@login_required
@require_http_methods(["GET", "POST"])
def bridge_page(request: Request, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    bridge = _bridge(campaign)
    form = WebhookForm(initial={"language": bridge.language if bridge else get_language()})
    status = 200
    if request.method == "POST":
        do = request.POST.get("do", "connect")
        if do in _SWITCHES:
            return _switch(request, campaign, bridge, do)
        if do != "connect":
            return _refused(
                request,
                campaign,
                bridge,
                form,
                _("This request is malformed; reload the page and try again."),
            )
        form = WebhookForm(request.POST)
        if form.is_valid():
            actions.connect(
                campaign,
                url=form.cleaned_data["url"],
                language=form.cleaned_data["language"],
                site=request.build_absolute_uri("/"),
            )
            messages.success(
                request, _("Discord is connected: a test message is on its way to the channel.")
            )
            return redirect("discord_bridge", campaign_id=campaign.pk)
        status = 422
    context = {"campaign": campaign, "form": form, **_state(bridge)}
    return render(request, "rolls/discord/bridge.html", context, status=status)


def _refused(request, campaign, bridge, form, message: str, status: int = 400) -> HttpResponse:
    context = {"campaign": campaign, "form": form, "refusal": message, **_state(bridge)}
    return render(request, "rolls/discord/bridge.html", context, status=status)


def _switch(request: Request, campaign, bridge: DiscordBridge | None, do: str) -> HttpResponse:
    if bridge is None:
        form = WebhookForm(initial={"language": get_language()})
        return _refused(request, campaign, None, form, _("Connect a webhook first."), 409)
    if do == "test":
        if not bridge.active or bridge.gone:
            form = WebhookForm(initial={"language": bridge.language})
            message = _("Switch the bridge on, or paste a new webhook, before testing it.")
            return _refused(request, campaign, bridge, form, message, 409)
        if actions.send_test(bridge):
            messages.success(request, _("A test message is on its way to the channel."))
        else:
            messages.info(request, _("A test message is already on its way."))
    elif do == "remove":
        actions.remove(bridge)
        messages.success(request, _("Discord is disconnected: nothing more is posted there."))
    else:
        actions.switch(bridge, on=do == "on")
        if do == "on":
            messages.success(request, _("The bridge is on: public entries are posted again."))
        else:
            messages.success(
                request, _("The bridge is off: nothing is posted until you switch it on.")
            )
    return redirect("discord_bridge", campaign_id=campaign.pk)


@login_required
@require_GET
def bridge_state(request: Request, campaign_id: int) -> HttpResponse:
    """The bridge's state alone: the page asks for it every few seconds while posts wait."""
    campaign = gm_campaign(request, campaign_id)
    context = {"campaign": campaign, **_state(_bridge(campaign))}
    return render(request, "rolls/discord/_state.html", context)
