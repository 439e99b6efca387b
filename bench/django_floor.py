"""The floor of the fixed shape: the embedded server's Django and Channels with no app in them.

    uvicorn django_floor:application --app-dir bench   (bench/live_table.py --modes django)

``bench/live_floor.py`` measures the transport alone (websockets, no Django). This measures what
the project's shape (Django, its middleware, a logged-in user, Channels and its in-memory layer,
one uvicorn process: ``config.asgi`` as ``make run`` serves it) costs before any of the app's own
work: the same roll endpoint and socket path as the app, the same ASGI handler, middleware,
session, login, CSRF and channel layer, but the "roll" only numbers the table's next entry and
sends a prepared frame (``live_floor.ENTRY_HTML``) to the table's group; each socket sends the
frame as it is. No character, sheet, dice, transaction, row or template: a real roll needs all of
them on top, so what this costs is a lower bound for any roll of this shape.

Entries are numbered in the process (one process only, like the embedded server), the campaign
standing in for the session in ``id="roll-<session>-<seq>"`` and in the frames.
"""

from __future__ import annotations

import gc
import itertools
import json
import os
from collections import defaultdict

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
from config.env import settings_or_exit

settings_or_exit()
django.setup(set_prefix=False)

from asgiref.sync import async_to_sync
from channels.auth import AuthMiddlewareStack
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST
from live_floor import ENTRY_HTML

from config.overrides.http import ThreadedASGIHandler

try:  # the tree's start, as config/asgi.py's (a tree from before it has none)
    from config.warmup import lifespan
except ImportError:
    lifespan = None

_seqs: defaultdict[int, itertools.count] = defaultdict(lambda: itertools.count(1))


def _group(campaign_id: int) -> str:
    return f"floor-{campaign_id}"


@require_POST
@login_required
def roll(request, campaign_id: int, pk: int) -> HttpResponse:
    seq = next(_seqs[campaign_id])
    html = ENTRY_HTML.format(session=campaign_id, seq=seq)
    frame = json.dumps({"type": "entry", "session": campaign_id, "seq": seq, "html": html})
    async_to_sync(get_channel_layer().group_send)(
        _group(campaign_id), {"type": "floor.entry", "text": frame}
    )
    return HttpResponse(html)


class FloorConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        if not self.scope["user"].is_authenticated:
            await self.close(code=4403)
            return
        self.campaign_id = int(self.scope["url_route"]["kwargs"]["campaign_id"])
        await self.channel_layer.group_add(_group(self.campaign_id), self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "campaign_id"):
            await self.channel_layer.group_discard(_group(self.campaign_id), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if json.loads(text_data or "{}").get("type") == "since":
            await self.send(text_data=json.dumps({"type": "synced", "more": False}))

    async def floor_entry(self, event: dict) -> None:
        await self.send(text_data=event["text"])


settings.ROOT_URLCONF = __name__
urlpatterns = [
    path("c/<int:campaign_id>/characters/<int:pk>/test/roll/", roll),
    path("accounts/login/", lambda request: HttpResponse("floor")),  # the bench's wait
]
_http = ThreadedASGIHandler(threads=settings.HTTP_THREADS)
application = ProtocolTypeRouter(
    {
        "http": _http,
        **({"lifespan": lifespan(_http.executor, settings.HTTP_THREADS)} if lifespan else {}),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(
                URLRouter([path("ws/campaigns/<int:campaign_id>/", FloorConsumer.as_asgi())])
            )
        ),
    }
)
gc.freeze()  # as config/asgi.py does after its warm-up
