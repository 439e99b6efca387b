"""ASGI entry point: HTTP through Django on worker threads, websockets through Channels."""

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
from config.env import settings_or_exit  # noqa: E402

settings_or_exit()
# Django must be set up before anything imports models (the consumers do).
django.setup(set_prefix=False)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from config.arrivals import Arrivals  # noqa: E402
from config.origins import SameOriginValidator  # noqa: E402
from config.overrides.http import ThreadedASGIHandler  # noqa: E402
from config.warmup import lifespan, warm_up  # noqa: E402
from rolls.live.routing import websocket_urlpatterns  # noqa: E402

_http = ThreadedASGIHandler(threads=settings.HTTP_THREADS)
application = ProtocolTypeRouter(
    {
        "http": _http,
        # A restart's hundreds of returning pages are let in a few dozen at a time, in turn.
        "websocket": SameOriginValidator(
            Arrivals(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
        # uvicorn --lifespan on: the worker threads connect as the server starts.
        "lifespan": lifespan(_http.executor, settings.HTTP_THREADS),
    }
)
# Templates, translations and URLs ready before the first request, not during it.
warm_up()
# What the start made (modules, compiled templates, URLs, catalogues) lives as long as the
# process: kept out of the garbage collector's full collections, which otherwise walk all of it
# to find a few cycles of an evening's requests (one pause of 70-85 ms measured under the live
# table at 5 rolls/s, every delivery of the roll behind it late; 10 ms with this).
gc.freeze()
