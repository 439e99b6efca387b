"""A server-maker for the browser tests: the app imported once, a served copy forked per test.

Starting uvicorn costs about a second of CPU, nearly all of it importing Django, the app and its
templates (config/asgi.py warms them up), and the browser tests start a hundred servers a run.
This process imports the ASGI application once, as `make run`'s server does, and then reads
requests on stdin, one JSON line each: ``{"database": path, "port": n, "stderr": path|null}``.
For each it forks a child that points the default database at ``path`` (nothing has opened a
connection yet: importing the application touches no database) and serves on ``port``; it
answers with the child's pid. The child leads a process group of its own, so a test stops it
as it stops any server it started (tests/web/servers.py).

Only the embedded default is served this way (SQLite, the in-memory layer, the environment the
zygote was started with); a test that sets more of the server's environment starts a fresh
uvicorn, which reads its settings as a fresh process does.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import traceback


def _serve(database: str, port: int, stderr: str | None) -> None:
    """In the child: this test's database, its log, then uvicorn until stopped."""
    os.setsid()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    if stderr:
        log = os.open(stderr, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        os.dup2(log, 2)
        os.close(log)
    os.dup2(2, 1)  # never onto the pipe the zygote answers on
    from django.conf import settings
    from django.db import connections

    settings.DATABASES["default"]["NAME"] = database
    if "settings" in vars(connections):  # computed from the same dict: it follows the change
        assert connections.settings["default"]["NAME"] == database
    import uvicorn

    uvicorn.run(
        "config.asgi:application", host="127.0.0.1", port=port, lifespan="on",
        log_level="warning",
    )  # fmt: skip


def main() -> None:
    import config.asgi  # noqa: F401 (everything a server imports, once)

    # Children are reaped as they end; the test side sees a pid gone (tests/web/servers.py).
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    print(json.dumps({"ready": os.getpid()}), flush=True)
    for line in sys.stdin:
        ask = json.loads(line)
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                sys.stdin.close()
                _serve(ask["database"], ask["port"], ask.get("stderr"))
            except BaseException:  # a port taken meanwhile (uvicorn exits), among others
                traceback.print_exc()
                code = 1
            os._exit(code)
        print(json.dumps({"pid": pid}), flush=True)


if __name__ == "__main__":
    main()
