"""ASGI entry point: HTTP through Django on worker threads, websockets through Channels."""

import gc
import os

import django

from config.env import settings_or_exit


def _application():
    """The server's routes, built and warmed up once Django is set up: the consumers and
    Channels' auth import models, so their imports wait in here."""
    from channels.auth import AuthMiddlewareStack
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.conf import settings

    from config.arrivals import Arrivals
    from config.origins import SameOriginValidator
    from config.overrides.http import ThreadedASGIHandler
    from config.warmup import lifespan, warm_up
    from rolls.live.routing import websocket_urlpatterns

    http = ThreadedASGIHandler(threads=settings.HTTP_THREADS)
    application = ProtocolTypeRouter(
        {
            "http": http,
            # A restart's hundreds of returning pages are let in a few dozen at a time, in turn.
            "websocket": SameOriginValidator(
                Arrivals(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
            ),
            # uvicorn --lifespan on: the worker threads connect as the server starts.
            "lifespan": lifespan(http.executor, settings.HTTP_THREADS),
        }
    )
    # Templates, translations and URLs ready before the first request, not during it.
    warm_up()
    return application


os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
settings_or_exit()
django.setup(set_prefix=False)
application = _application()

# What the start made (modules, compiled templates, URLs, catalogues) lives as long as the
# process: kept out of the garbage collector's full collections, which otherwise walk all of it
# to find a few cycles of an evening's requests (one pause of 70-85 ms measured under the live
# table at 5 rolls/s, every delivery of the roll behind it late; 10 ms with this).
gc.freeze()
