"""ASGI entry point: HTTP through Django on worker threads, websockets through Channels."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
from config.env import settings_or_exit  # noqa: E402

settings_or_exit()
# Django must be set up before anything imports models (the consumers do).
django.setup(set_prefix=False)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.overrides.http import ThreadedASGIHandler  # noqa: E402
from config.warmup import warm_up  # noqa: E402
from rolls.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": ThreadedASGIHandler(threads=settings.HTTP_THREADS),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
# Templates, translations and URLs ready before the first request, not during it.
warm_up()
