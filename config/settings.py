"""One environment-driven settings module for both deployments.

Embedded default (``make run``): SQLite and the in-memory channel layer in one process.
Scale-out: ``DATABASE_URL=postgres://...`` and ``REDIS_URL=redis://...`` with several ASGI workers.
``PRODUCTION=1`` turns on the checks of ``manage.py check --deploy`` and refuses to start with a
missing secret or a wildcard host.
"""

from __future__ import annotations

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.env import (
    cache_from_url,
    channel_layer_from_url,
    database_from_url,
    env_bool,
    env_int,
    env_list,
    production_secret_key,
)

BASE_DIR = Path(__file__).resolve().parent.parent

PRODUCTION = env_bool("PRODUCTION", False)
DEBUG = env_bool("DEBUG", not PRODUCTION)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG must be off when PRODUCTION is set.")

_DEV_SECRET = "dev-only-secret-key-never-use-in-production-0123456789-abcdefghij"
SECRET_KEY = (
    production_secret_key(os.environ.get("SECRET_KEY"), _DEV_SECRET)
    if PRODUCTION
    else os.environ.get("SECRET_KEY", _DEV_SECRET)
)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost"])
if PRODUCTION and (not ALLOWED_HOSTS or any("*" in host for host in ALLOWED_HOSTS)):
    raise ImproperlyConfigured("ALLOWED_HOSTS must list the site's host names, without wildcards.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "channels",
    "campaigns",
    "sheets",
    "rolls",
]

MIDDLEWARE = [
    "config.text.UnsafeTextNotShownMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "campaigns.view_as.ViewAsMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.redirects.HtmxLoginMiddleware",
    "rolls.limits.RateMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
            # Members' text among the app's words (|isolated): in every template, no {% load %}.
            "builtins": ["config.member_text"],
        },
    },
]

DATABASES = {
    "default": database_from_url(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Several connections (ASGI threads, tests) write to one file: wait rather than fail.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
# HTTP requests run on a fixed pool of threads (config/overrides/http.py), so a connection can
# outlive its request and be reused by the next one on that thread; it is checked before reuse.
DATABASES["default"]["CONN_MAX_AGE"] = 600
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Threads serving HTTP in each ASGI process (websockets stay on the event loop). Each holds one
# database connection: with PostgreSQL, workers x HTTP_THREADS stays under max_connections.
HTTP_THREADS = env_int("HTTP_THREADS", 2, minimum=1, maximum=64)

# Table sockets (rolls/live/socket_slots.py): at most so many open per user and per table, counted
# in the cache across workers; a killed worker's sockets drop out of the count within two leases.
SOCKETS_PER_USER = env_int("SOCKETS_PER_USER", 20, minimum=1, maximum=10_000)
SOCKETS_PER_TABLE = env_int("SOCKETS_PER_TABLE", 200, minimum=1, maximum=100_000)
SOCKET_LEASE_SECONDS = env_int("SOCKET_LEASE_SECONDS", 30, minimum=1, maximum=3600)
# Frames one socket may send (rolls/live/consumers.py): a burst, then so many a second. Far above
# any page (a reconnect's few "since", a player's rolls); lifted only by the benchmark.
SOCKET_FRAME_BURST = env_int("SOCKET_FRAME_BURST", 40, minimum=1, maximum=10_000_000)
SOCKET_FRAME_RATE = env_int("SOCKET_FRAME_RATE", 5, minimum=1, maximum=10_000_000)
# Who is at the table (rolls/live/presence.py): a member whose last page closed still shows as here
# for the grace (a reload, a click to another page), then as away, then not at all.
PRESENCE_GRACE_SECONDS = env_int("PRESENCE_GRACE_SECONDS", 15, minimum=0, maximum=3600)
PRESENCE_AWAY_SECONDS = env_int("PRESENCE_AWAY_SECONDS", 600, minimum=1, maximum=86_400)

# What one user may ask of the table per window (rolls/limits.py), counted in the shared cache:
# far above a table's pace (a roll every few seconds a player, a reconnect's few hundred
# entries), far below a script's (141 rolls a second were logged by one).
RATE_WINDOW_SECONDS = env_int("RATE_WINDOW_SECONDS", 10, minimum=1, maximum=3600)
# Requests that write (every POST of a member): a dozen a second is no person's pace.
POST_RATE_LIMIT = env_int("POST_RATE_LIMIT", 120, minimum=1, maximum=10_000_000)
# Log entries (a roll, a note, a line of chat), counted entry by entry: a GM's turn order for
# twenty NPCs and the party is one request of some 26.
ROLL_RATE_LIMIT = env_int("ROLL_RATE_LIMIT", 50, minimum=1, maximum=10_000_000)
# Lines of chat (rolls/chat): a fast typist's pace at a table, never a script's.
CHAT_RATE_LIMIT = env_int("CHAT_RATE_LIMIT", 20, minimum=1, maximum=10_000_000)
REPLAY_ENTRY_LIMIT = env_int("REPLAY_ENTRY_LIMIT", 10_000, minimum=1, maximum=100_000_000)

# The Discord bridge (rolls/discord) posts only to these origins: Discord's own. Not read from the
# environment: only tests change it (to a stand-in on 127.0.0.1), so no deployment can be made to
# post to an address of its network.
DISCORD_WEBHOOK_ORIGINS = (
    "https://discord.com",
    "https://discordapp.com",
    "https://canary.discord.com",
    "https://ptb.discord.com",
)
# Whether this process runs the bridge's courier as it starts serving (the ASGI lifespan).
DISCORD_COURIER = env_int("DISCORD_COURIER", 1, minimum=0, maximum=1) == 1

CHANNEL_LAYERS = {"default": channel_layer_from_url(os.environ.get("REDIS_URL"))}
# Sessions are read on every request: from the cache, and from the database only on a miss.
CACHES = {"default": cache_from_url(os.environ.get("REDIS_URL"))}
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
CSRF_FAILURE_VIEW = "config.account_views.csrf_failure"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("pl", _("Polish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# collectstatic fills it for production; in development WhiteNoise serves from the finders.
STATIC_ROOT = BASE_DIR / "staticfiles" if PRODUCTION else None
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Served from STATICFILES_DIRS directly outside production (DEBUG or not: `make run` runs with
# DEBUG off), so `make run` needs no collectstatic.
WHITENOISE_USE_FINDERS = not PRODUCTION

if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"hide_seeds": {"()": "config.log_filters.HideSeeds"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["hide_seeds"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
