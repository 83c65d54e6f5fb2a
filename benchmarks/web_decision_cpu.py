"""The web server's CPU per decision, in one process, split by where it goes (a script
that prints figures, not a test).

Hot-seat games with random legal options are played through the whole ASGI app
(``create_app``: the guard, the decide path, the view), called directly, without
sockets or an HTTP client process, on SQLite in a temporary folder or on PostgreSQL
(``--db postgresql``: a throwaway server, or ``--pg-url``; its own server process's
CPU is not counted). Printed per
decision: the process's CPU time, the event loop thread's (which includes this
script's own requests and JSON, a fifth of it or so), the store's decision writes
(``Store.add_moves``, in the writer thread) and the wall time.

Where web_load.py's figure mixes in the HTTP parsing and a client process that shares
the CPUs, this one isolates the server's code path, so two source trees can be told
apart on a loaded machine: ``--compare DIR`` measures a baseline tree (its ``src/``,
e.g. exported with ``git archive``) and this one alternately, in child processes, and
prints the ratios of the medians.

    python benchmarks/web_decision_cpu.py
    python benchmarks/web_decision_cpu.py --decisions 3000
    python benchmarks/web_decision_cpu.py --compare /tmp/old/src --rounds 3
    python benchmarks/web_decision_cpu.py --compare /tmp/old/src --tree /tmp/new/src
    python benchmarks/web_decision_cpu.py --db postgresql --games 200
    python benchmarks/web_decision_cpu.py --profile /tmp/decide  # then: python -m pstats
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

GAMES = 20
WARM = 200


async def call(app: Any, method: str, path: str, body: Any = None, query: bytes = b""
               ) -> tuple[int, Any]:
    """One request straight into the ASGI app: ``(status, JSON answer)``."""
    raw = json.dumps(body).encode() if body is not None else b""
    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(),
             "query_string": query, "root_path": "", "scheme": "http",
             "http_version": "1.1", "asgi": {"version": "3.0"},
             "headers": [(b"content-type", b"application/json"), (b"host", b"127.0.0.1"),
                         (b"content-length", str(len(raw)).encode())],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 80)}
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": raw, "more_body": False}
        await asyncio.sleep(3600)  # the client never leaves
        return {"type": "http.disconnect"}

    status = 0
    chunks: list[bytes] = []

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, json.loads(b"".join(chunks) or b"null")


def measure(decisions: int, seed: int, profile: str | None = None, url: str | None = None,
            games_n: int = GAMES) -> dict[str, float]:
    """Play ``decisions`` decisions (after a warm-up) and return the figures;
    ``profile``: a path where the measured part's cProfile statistics are written (the
    event loop thread's and the store writes', two files: PATH.loop and PATH.write)."""
    from reliquary.web import create_app
    from reliquary.web.db import Store
    from reliquary.web.guard import Limits

    written = [0.0]
    add_moves = Store.add_moves
    # Each thread's CPU time, not the wall clock: waits (the loop's poll, the GIL)
    # are not work, and on a loaded machine they would swamp it.
    loop_profile = cProfile.Profile(time.thread_time) if profile else None
    write_profile = cProfile.Profile(time.thread_time) if profile else None
    profiling = [False]

    def timed(self: Store, *args: Any, **kwargs: Any) -> Any:
        began = time.thread_time()
        if write_profile and profiling[0]:
            write_profile.enable()
        try:
            return add_moves(self, *args, **kwargs)
        finally:
            if write_profile and profiling[0]:
                write_profile.disable()
            written[0] += time.thread_time() - began

    Store.add_moves = timed  # type: ignore[method-assign]
    folder = tempfile.mkdtemp(prefix="reliquary-cpu.")
    app = create_app(url or f"sqlite:///{folder}/cpu.db", ai_delay=0,
                     limits=Limits(create_per_minute=1e9, create_burst=10**9))
    rng = random.Random(seed)

    async def main() -> dict[str, float]:
        async with app.router.lifespan_context(app):
            async def new() -> list[Any]:
                status, game = await call(app, "POST", "/api/games", {"mode": "hotseat"})
                assert status == 201, game
                _, view = await call(app, "GET", f"/api/games/{game['id']}",
                                     query=f"t={game['token']}".encode())
                return [game, view]

            games = [await new() for _ in range(games_n)]
            taken = [0]

            async def step(i: int) -> None:
                game, view = games[i]
                if not view.get("decision"):
                    games[i] = await new()
                    return
                status, answer = await call(app, "POST", f"/api/games/{game['id']}/decide", {
                    "token": game["token"], "rev": view["rev"],
                    "option": rng.choice(view["decision"]["options"])})
                assert status == 200, answer
                games[i][1] = answer
                taken[0] += 1

            for k in range(max(WARM, 2 * games_n)):
                await step(k % games_n)
            taken[0], written[0] = 0, 0.0
            profiling[0] = True
            if loop_profile:
                loop_profile.enable()
            cpu, loop, wall = time.process_time(), time.thread_time(), time.perf_counter()
            k = 0
            while taken[0] < decisions:
                await step(k % games_n)
                k += 1
            n = taken[0]
            if loop_profile and write_profile and profile:
                loop_profile.disable()
                loop_profile.dump_stats(f"{profile}.loop")
                write_profile.dump_stats(f"{profile}.write")
            return {"process_ms": (time.process_time() - cpu) * 1e3 / n,
                    "loop_ms": (time.thread_time() - loop) * 1e3 / n,
                    "write_ms": written[0] * 1e3 / n,
                    "wall_ms": (time.perf_counter() - wall) * 1e3 / n}

    return asyncio.run(main())


def child(tree: str | None, decisions: int, seed: int, url: str | None = None,
          games_n: int = GAMES) -> dict[str, float]:
    """:func:`measure` in a fresh process, on ``tree``'s source (None: this one), on an
    empty database (``url``: PostgreSQL's, its tables dropped first; None: SQLite)."""
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = tree
    extra = []
    if url:
        _drop_tables(url)
        extra = ["--url", url]
    out = subprocess.run([sys.executable, __file__, "--decisions", str(decisions),
                          "--seed", str(seed), "--games", str(games_n), "--json", *extra],
                         env=env, check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def _drop_tables(url: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE IF EXISTS moves"))
        conn.execute(text("DROP TABLE IF EXISTS games"))
    engine.dispose()


def line(name: str, r: dict[str, float]) -> str:
    return (f"| {name} | {r['process_ms']:.3f} | {r['loop_ms']:.3f} | {r['write_ms']:.3f} "
            f"| {r['wall_ms']:.2f} | {os.getloadavg()[0]:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decisions", type=int, default=1500, help="measured decisions")
    parser.add_argument("--seed", type=int, default=1, help="the random options' seed")
    parser.add_argument("--compare", metavar="DIR", default=None,
                        help="a baseline source tree (its src/), measured alternately")
    parser.add_argument("--rounds", type=int, default=3, help="with --compare: pairs")
    parser.add_argument("--tree", metavar="DIR", default=None,
                        help="measure this source tree (its src/) as the current one")
    parser.add_argument("--profile", metavar="PATH", default=None,
                        help="profile this tree's run with cProfile (slower): the event "
                             "loop's statistics to PATH.loop, the writes' to PATH.write "
                             "(read them with python -m pstats)")
    parser.add_argument("--games", type=int, default=GAMES, help="hot-seat games in turn")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite",
                        help="the database (PostgreSQL: --pg-url, or a throwaway server "
                             "as web_load.py starts one)")
    parser.add_argument("--pg-url", default=None, help="a PostgreSQL URL (its tables are "
                        "dropped!)")
    parser.add_argument("--url", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.profile or args.json:
        if args.url:
            _drop_tables(args.url)
        print(json.dumps(measure(args.decisions, args.seed, args.profile, args.url,
                                 args.games)))
        return
    if args.db == "postgresql" and not args.pg_url:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from web_load import throwaway_postgres

        with throwaway_postgres() as url:
            report(args, url)
    else:
        report(args, args.pg_url if args.db == "postgresql" else None)


def report(args: argparse.Namespace, url: str | None) -> None:
    """Measure (and compare) as the arguments say, on ``url`` (None: SQLite)."""
    print(f"# web_decision_cpu: {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f} at start; {args.decisions} decisions per run, "
          f"{args.games} hot-seat games, {'PostgreSQL' if url else 'SQLite'}")
    print("\n| tree | process CPU ms / decision | event loop thread ms | store writes ms "
          "| wall ms | load |")
    print("|---|---|---|---|---|---|")
    if not args.compare:
        print(line("this tree", child(args.tree, args.decisions, args.seed, url,
                                      args.games)), flush=True)
        return
    got: dict[str, list[dict[str, float]]] = {"baseline": [], "current": []}
    for round_ in range(1, args.rounds + 1):
        for name, tree in (("baseline", args.compare), ("current", args.tree)):
            r = child(tree, args.decisions, args.seed, url, args.games)
            got[name].append(r)
            print(line(f"{name} {round_}", r), flush=True)
    print("\n| figure | baseline median | current median | now / before |")
    print("|---|---|---|---|")
    for key, what in (("process_ms", "process CPU ms / decision"),
                      ("loop_ms", "event loop thread ms"), ("write_ms", "store writes ms"),
                      ("wall_ms", "wall ms")):
        before = statistics.median(r[key] for r in got["baseline"])
        now = statistics.median(r[key] for r in got["current"])
        print(f"| {what} | {before:.3f} | {now:.3f} | {now / before:.2f}× |")
    print(f"\n# load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
