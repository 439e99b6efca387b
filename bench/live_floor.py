"""The floor for the live-table benchmark: the same fan-out with no Django at all.

    .venv/bin/python bench/live_floor.py --port 8190

A bare ``websockets`` server on uvloop. Sockets join a table by their path
(``/ws/campaigns/<table>/``), like the app's; ``{"type": "since"}`` answers ``synced``;
``{"type": "roll", "key": ...}`` on a socket numbers the table's next entry, sends it once
encoded to every socket of the table (the roller's too, as the app's group does) with
``websockets.broadcast``, and answers the roller ``{"type": "rolled", "key", "seq"}``, the
stand-in for the app's POST response. No HTTP request, database, channel layer or template:
what is left is the transport and the fan-out, the least any live table on this machine can cost.
``bench/live_table.py`` starts and stops it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import signal
from collections import defaultdict

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

# A FastTest entry as the app renders it (templates/rolls/log/_entry.html), so the frames have the
# size and the compressibility of the real ones.
ENTRY_HTML = """
<li class="entry good" id="roll-{session}-{seq}" data-seq="{seq}" data-session="{session}">
  <div class="entry-head">
    <span class="seq" aria-hidden="true">#{seq}</span>
    <strong class="who">Hero 0-1</strong>
    <span class="by">(rolled by bench-0-1)</span>


  </div>
  <div class="what">BUDOWA 7 + WALKA +2</div>
  <p class="outcome">Tak (yes)</p>
  <ul class="dice" aria-label="Dice">

      <li class="die d10 dropped g-d10" title="d10 d10: dropped">
        <span class="face">8</span><span class="visually-hidden"> (d10, d10, dropped)</span>
      </li>

      <li class="die d10 kept g-d10" title="d10 d10: kept: the least favourable">
        <span class="face">7</span><span class="visually-hidden"> (d10, d10, kept: the least
        favourable)</span>
      </li>

      <li class="die d6 kept g-d6" title="d6 d6: kept: the least favourable">
        <span class="face">5</span><span class="visually-hidden"> (d6, d6, kept: the least
        favourable)</span>
      </li>

  </ul>

    <dl class="facts">
      <div><dt>attribute + skill</dt><dd>9</dd></div><div><dt>chance</dt><dd>9</dd></div>
      <div><dt>net dice</dt><dd>-1</dd></div>
    </dl>


    <ul class="sources" aria-label="Modifiers">
      <li>+1 penalty dice: wounds</li>
    </ul>

  <time datetime="2026-11-29T14:40:28.023205+00:00">14:40</time>
</li>
"""

PATH = re.compile(r"^/ws/campaigns/(\d+)/")


class Floor:
    def __init__(self) -> None:
        self.tables: dict[int, set[ServerConnection]] = defaultdict(set)
        self.seqs: dict[int, int] = defaultdict(int)

    async def handle(self, ws: ServerConnection) -> None:
        match = PATH.match(ws.request.path if ws.request else "")
        if match is None:
            await ws.close(code=4404)
            return
        table = int(match.group(1))
        members = self.tables[table]
        members.add(ws)
        try:
            async for raw in ws:
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "roll":
                    self.seqs[table] += 1
                    seq = self.seqs[table]
                    html = ENTRY_HTML.format(session=table, seq=seq)
                    entry = {"type": "entry", "session": table, "seq": seq, "html": html}
                    broadcast(members, json.dumps(entry))
                    await ws.send(json.dumps({"type": "rolled", "key": message["key"], "seq": seq}))
                elif kind == "since":
                    synced = {"type": "synced", "session": table, "seq": self.seqs[table]}
                    await ws.send(json.dumps(synced | {"more": False}))
        except ConnectionClosed:
            pass  # the load generator drops its sockets without a closing handshake
        finally:
            members.discard(ws)


async def main(port: int) -> None:
    stop = asyncio.get_running_loop().create_future()
    for signum in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(signum, stop.cancel)
    floor = Floor()
    async with serve(floor.handle, "127.0.0.1", port, ping_interval=None, max_queue=64):
        with contextlib.suppress(asyncio.CancelledError):
            await stop


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    port = parser.parse_args().port
    try:
        import uvloop
    except ImportError:  # the floor still runs, on the slower default loop
        asyncio.run(main(port))
    else:
        uvloop.run(main(port))
