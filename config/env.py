"""Small readers for settings from environment variables that fail loudly on bad values.

Each error names the variable, so a mistyped deployment stops at start-up with a sentence that
says what to fix instead of misbehaving later.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

CORE_LAYER_CAPACITY = 2000
# Django's own check (W009) warns below 5 distinct characters; a key typed or patterned by hand
# ("abcabc...", "0000aaaa...") passes that and is still guessable, a random one has 30 or more.
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_DISTINCT = 12
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool, environ: Mapping[str, str] = os.environ) -> bool:
    raw = environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be one of 1/0, true/false, yes/no, on/off; got {raw!r}."
    )


def env_list(name: str, default: list[str], environ: Mapping[str, str] = os.environ) -> list[str]:
    raw = environ.get(name)
    if raw is None:
        return default
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name} is set but lists nothing; give comma-separated values.")
    return items


def env_int(
    name: str, default: int, minimum: int, maximum: int, environ: Mapping[str, str] = os.environ
) -> int:
    raw = environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        value = None
    if value is None or not minimum <= value <= maximum:
        raise ImproperlyConfigured(
            f"{name} must be a whole number from {minimum} to {maximum}; got {raw!r}."
        )
    return value


def production_secret_key(raw: str | None, development_key: str) -> str:
    """The ``SECRET_KEY`` for a production start, refused unless it looks random."""
    key = raw or ""
    if len(key) < SECRET_KEY_MIN_LENGTH:
        problem = f"be set to at least {SECRET_KEY_MIN_LENGTH} random characters"
    elif key == development_key:
        problem = "not be the development key committed in config/settings.py"
    elif key.startswith("django-insecure-"):
        problem = "not start with django-insecure- (a key made by startproject for development)"
    elif len(set(key)) < SECRET_KEY_MIN_DISTINCT:
        problem = f"be random, with at least {SECRET_KEY_MIN_DISTINCT} distinct characters"
    else:
        return key
    raise ImproperlyConfigured(f"SECRET_KEY must {problem}.")


def settings_or_exit() -> None:
    """Read the settings now; a refused value ends the process with its one sentence.

    Without this a bad variable surfaces as a 50-line traceback from deep inside Django's
    start-up, the sentence that names the variable at its very bottom.
    """
    from django.conf import settings

    try:
        settings.INSTALLED_APPS  # noqa: B018 (importing config.settings reads the environment)
    except ImproperlyConfigured as error:
        raise SystemExit(str(error)) from None


def database_from_url(url: str, name: str = "DATABASE_URL") -> dict:
    """Django's DATABASES entry for a ``postgres://`` or ``sqlite:///`` URL."""
    parts = urlsplit(url)
    if parts.scheme in ("postgres", "postgresql"):
        db_name = unquote(parts.path.lstrip("/"))
        if not db_name:
            raise ImproperlyConfigured(f"{name} must name a database, e.g. postgres://host/table.")
        try:
            port = parts.port
        except ValueError as error:
            raise ImproperlyConfigured(f"{name} has a bad port: {error}.") from error
        options = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": db_name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(port or ""),
            "OPTIONS": options,
        }
    if parts.scheme == "sqlite":
        path = unquote(url[len("sqlite:///") :]) if url.startswith("sqlite:///") else ""
        if not path:
            raise ImproperlyConfigured(f"{name} for SQLite must look like sqlite:///path/to/db.")
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": path}
    raise ImproperlyConfigured(
        f"{name} must start with postgres:// or sqlite:///; got scheme {parts.scheme!r}."
    )


def cache_from_url(url: str | None) -> dict:
    """Where sessions are cached: this process's memory, or Redis shared by every worker.

    With several workers the cache must be shared, or a session ended in one worker would
    still open pages in another; ``REDIS_URL`` is checked by ``channel_layer_from_url``.
    """
    if not url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    return {
        "BACKEND": "config.overrides.cache.SharedPoolRedisCache",
        "LOCATION": url,
        "KEY_PREFIX": "table-cache",
    }


def channel_layer_from_url(url: str | None, name: str = "REDIS_URL") -> dict:
    """The in-memory layer for one process, channels-redis when a Redis URL is given.

    The pub/sub layer by default: measured on the live table (docs/performance.md) it carries
    a roll to a table in one message per worker where the core layer queues one per socket,
    and held nearly twice the rolls per second. ``REDIS_CHANNEL_LAYER=core`` picks the core one.
    """
    if not url:
        return {"BACKEND": "config.overrides.layers.RationedInMemoryChannelLayer"}
    if urlsplit(url).scheme not in ("redis", "rediss", "unix"):
        raise ImproperlyConfigured(f"{name} must start with redis://, rediss:// or unix://.")
    kind = os.environ.get("REDIS_CHANNEL_LAYER", "pubsub")
    backends = {
        "core": "channels_redis.core.RedisChannelLayer",
        "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
    }
    if kind not in backends:
        raise ImproperlyConfigured("REDIS_CHANNEL_LAYER must be 'core' or 'pubsub'.")
    # No client read timeout: redis-py 8 defaults to 5 s, as long as the core layer's blocking
    # pop, so every idle consumer crashed and its socket closed (django/channels_redis#422).
    config: dict = {"hosts": [{"address": url, "socket_timeout": None}]}
    # Redis's pub/sub channels ignore the database number in the URL: deployments (or test
    # workers) sharing one Redis keep their tables' groups apart by this prefix.
    config["prefix"] = os.environ.get("REDIS_CHANNEL_PREFIX") or "asgi"
    if kind == "core":
        # The core layer queues all of a worker's sockets in one Redis list and drops (with
        # only a log line) what exceeds its capacity, 100 by default: a busy worker lost
        # deliveries under load. A deeper queue delays instead; the consumers also fill any
        # gap from the log.
        config["capacity"] = CORE_LAYER_CAPACITY
    return {"BACKEND": backends[kind], "CONFIG": config}
