"""Settings come from the environment, and bad or unsafe values stop start-up with a message."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    cache_from_url,
    channel_layer_from_url,
    database_from_url,
    env_bool,
    env_int,
    env_list,
)

ROOT = Path(__file__).resolve().parents[2]
GOOD_SECRET = "x" * 20 + "-a-long-random-production-secret-0123456789"
SERVICE_VARIABLES = ("DATABASE_URL", "REDIS_URL", "REQUIRE_SERVICES")


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in SERVICE_VARIABLES}
    environ.pop("DJANGO_SETTINGS_MODULE", None)
    for name in ("PRODUCTION", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS"):
        environ.pop(name, None)
    environ.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_settings_pass_the_deployment_checks():
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING",
        PRODUCTION="1", SECRET_KEY=GOOD_SECRET, ALLOWED_HOSTS="table.example.org",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    result = manage("check", PRODUCTION="1", ALLOWED_HOSTS="table.example.org")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_refuses_a_wildcard_host():
    result = manage("check", PRODUCTION="1", SECRET_KEY=GOOD_SECRET, ALLOWED_HOSTS="*")
    assert result.returncode != 0
    assert "ALLOWED_HOSTS" in result.stderr


def test_production_refuses_debug():
    result = manage(
        "check", PRODUCTION="1", DEBUG="1", SECRET_KEY=GOOD_SECRET, ALLOWED_HOSTS="a.example"
    )
    assert result.returncode != 0
    assert "DEBUG must be off" in result.stderr


def test_a_bad_database_url_names_the_variable_at_start_up():
    result = manage("check", DATABASE_URL="mysql://somewhere/table")
    assert result.returncode != 0
    assert "DATABASE_URL must start with postgres:// or sqlite:///" in result.stderr


def test_a_bad_boolean_names_the_variable():
    with pytest.raises(ImproperlyConfigured, match="DEBUG must be one of"):
        env_bool("DEBUG", False, {"DEBUG": "perhaps"})


@pytest.mark.parametrize(("raw", "expected"), [("1", True), ("off", False), ("Yes", True)])
def test_booleans_read_the_usual_spellings(raw, expected):
    assert env_bool("DEBUG", not expected, {"DEBUG": raw}) is expected


@pytest.mark.parametrize("raw", ["four", "0", "65", "2.5"])
def test_a_thread_count_out_of_range_names_the_variable(raw):
    with pytest.raises(ImproperlyConfigured, match="HTTP_THREADS must be a whole number from 1"):
        env_int("HTTP_THREADS", 4, minimum=1, maximum=64, environ={"HTTP_THREADS": raw})


def test_a_thread_count_is_read_from_the_environment():
    assert env_int("HTTP_THREADS", 4, minimum=1, maximum=64, environ={"HTTP_THREADS": " 8"}) == 8
    assert env_int("HTTP_THREADS", 4, minimum=1, maximum=64, environ={}) == 4


def test_a_bad_thread_count_stops_start_up():
    result = manage("check", HTTP_THREADS="many")
    assert result.returncode != 0
    assert "HTTP_THREADS must be a whole number" in result.stderr


def test_sessions_are_cached_in_this_process_without_redis_and_in_redis_with_it():
    assert cache_from_url(None)["BACKEND"].endswith("LocMemCache")
    shared = cache_from_url("redis://127.0.0.1:6379/0")
    assert shared["BACKEND"] == "config.overrides.cache.SharedPoolRedisCache"
    assert shared["LOCATION"] == "redis://127.0.0.1:6379/0"


def test_database_connections_outlive_a_request_and_are_checked_before_reuse(settings):
    assert settings.DATABASES["default"]["CONN_MAX_AGE"] > 0
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


def test_an_empty_host_list_is_refused():
    with pytest.raises(ImproperlyConfigured, match="ALLOWED_HOSTS is set but lists nothing"):
        env_list("ALLOWED_HOSTS", [], {"ALLOWED_HOSTS": " , "})


def test_a_postgres_url_becomes_a_database_entry():
    entry = database_from_url("postgres://table:s%40cret@db.local:5433/table?sslmode=require")
    assert entry["ENGINE"] == "django.db.backends.postgresql"
    assert (entry["NAME"], entry["USER"], entry["PASSWORD"]) == ("table", "table", "s@cret")
    assert (entry["HOST"], entry["PORT"], entry["OPTIONS"]) == (
        "db.local", "5433", {"sslmode": "require"},
    )  # fmt: skip


def test_a_postgres_url_without_a_database_is_refused():
    with pytest.raises(ImproperlyConfigured, match="must name a database"):
        database_from_url("postgres://db.local:5432/")


def test_a_redis_url_selects_the_pub_sub_layer_of_channels_redis(monkeypatch):
    monkeypatch.delenv("REDIS_CHANNEL_LAYER", raising=False)
    layer = channel_layer_from_url("redis://127.0.0.1:6379/0")
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"


def test_the_core_layer_can_be_chosen(monkeypatch):
    monkeypatch.setenv("REDIS_CHANNEL_LAYER", "core")
    layer = channel_layer_from_url("redis://127.0.0.1:6379/0")
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"


def test_no_redis_url_means_the_in_memory_layer():
    assert (
        channel_layer_from_url(None)["BACKEND"]
        == "config.overrides.layers.RationedInMemoryChannelLayer"
    )


def test_a_bad_redis_url_is_refused():
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL must start with redis://"):
        channel_layer_from_url("http://127.0.0.1:6379")


def test_the_core_layer_queues_deeper_than_its_default_before_dropping(monkeypatch):
    monkeypatch.setenv("REDIS_CHANNEL_LAYER", "core")
    layer = channel_layer_from_url("redis://127.0.0.1:6379/0")
    assert layer["CONFIG"]["capacity"] >= 1000


def test_the_redis_layer_has_no_client_read_timeout(monkeypatch):
    # redis-py 8's 5 s default equals the core layer's blocking pop: idle consumers crashed.
    monkeypatch.setenv("REDIS_CHANNEL_LAYER", "core")
    layer = channel_layer_from_url("redis://127.0.0.1:6379/0")
    assert layer["CONFIG"]["hosts"] == [
        {"address": "redis://127.0.0.1:6379/0", "socket_timeout": None}
    ]


@pytest.mark.parametrize("kind", ["core", "pubsub"])
def test_tables_sharing_one_redis_keep_their_channels_apart_by_a_prefix(monkeypatch, kind):
    # Pub/sub channels ignore the URL's database number: only a prefix separates them.
    monkeypatch.setenv("REDIS_CHANNEL_LAYER", kind)
    monkeypatch.setenv("REDIS_CHANNEL_PREFIX", "table-two")
    assert channel_layer_from_url("redis://127.0.0.1:6379/3")["CONFIG"]["prefix"] == "table-two"


def test_the_channel_prefix_is_channels_redis_own_by_default(monkeypatch):
    monkeypatch.delenv("REDIS_CHANNEL_PREFIX", raising=False)
    assert channel_layer_from_url("redis://127.0.0.1:6379/0")["CONFIG"]["prefix"] == "asgi"


def production_check(secret: str) -> subprocess.CompletedProcess:
    return manage("check", PRODUCTION="1", SECRET_KEY=secret, ALLOWED_HOSTS="table.example.org")


def test_production_refuses_the_development_key_committed_in_the_settings():
    from config.settings import _DEV_SECRET

    result = production_check(_DEV_SECRET)
    assert result.returncode != 0
    assert result.stderr.strip() == (
        "SECRET_KEY must not be the development key committed in config/settings.py."
    )


def test_production_refuses_a_key_made_by_startproject():
    result = production_check("django-insecure-" + GOOD_SECRET)
    assert result.returncode != 0
    assert "SECRET_KEY must not start with django-insecure-" in result.stderr


@pytest.mark.parametrize("secret", ["a" * 64, "ab" * 32, "0123456789a" * 6])
def test_production_refuses_a_key_of_few_distinct_characters(secret):
    result = production_check(secret)
    assert result.returncode != 0
    assert "SECRET_KEY must be random, with at least 12 distinct characters" in result.stderr


def test_a_random_hex_key_is_accepted_in_production():
    result = production_check("0f3a9c1be84d7265" * 4)
    assert result.returncode == 0, result.stderr


def test_a_refused_setting_is_one_sentence_not_a_traceback():
    result = production_check("a" * 64)
    assert result.stderr.strip().count("\n") == 0
    assert "Traceback" not in result.stderr


def test_the_asgi_application_refuses_a_bad_setting_in_one_sentence_too():
    environ = {k: v for k, v in os.environ.items() if k not in SERVICE_VARIABLES}
    environ.pop("DJANGO_SETTINGS_MODULE", None)
    environ.update(PRODUCTION="1", SECRET_KEY="django-insecure-" + GOOD_SECRET,
                   ALLOWED_HOSTS="table.example.org")  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-c", "import config.asgi"],
        cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == [
        "SECRET_KEY must not start with django-insecure- (a key made by startproject for "
        "development)."
    ]
