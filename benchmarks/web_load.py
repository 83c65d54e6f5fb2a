"""Load on the web server, through its HTTP API, against real ``reliquary serve`` processes
(a script that prints figures, not a test).

1. **Throughput**: hot-seat games played with random legal options at full speed by
   ``--games`` concurrent async clients (httpx), one decision request after another
   (each answer carries the next options); new games replace finished ones. For each
   database (SQLite file, PostgreSQL) and number of server processes (games spread
   over them, all on one database): decisions/s, p50 and p99 of a decision's round
   trip, refusals. Ratios: against issue 7's baseline (907 decisions/s at 20 games on
   SQLite, one process), PostgreSQL to SQLite, two processes to one.
   **Open loop** (``--rate R``, comma-separated for several): the same games, but each
   takes a decision at steady times, ``games / R`` seconds apart (staggered, so R
   decisions/s in all), like players who think, not as fast as the server answers: the
   p99 then measures the server, not the queue a closed loop builds (there a
   decision's latency is about games / decisions/s). A decision whose answer has not
   come when the next is due goes as soon as it does. The client's own lateness (a
   decision sent after it was due although its view was there: the client's CPU not
   keeping up) is printed beside it, and the share of decisions that waited for the
   previous answer past their time (the server not keeping up).
2. **Interference**: the p99 of a hot-seat game paced at one decision per 50 ms, alone
   and while 4 ``max`` AI games think (their searches run in the AI process pool).
3. **AI pace**: the time from the human's decision to the AI's whole turn being
   played, through the server (``--ai-delay 0``), against the level's budget.
4. **Watchers**: ``--watchers`` WebSockets on 20 games: ``/api/meta``'s latency with
   and without them, how fast one decision per game reaches them all, and that the
   server's handlers are gone once they close.

The benchmark's clients run on the same machine as the servers and compete with them
for the CPU; say so with the figures. PostgreSQL: ``--pg-url`` or, if PostgreSQL's
binaries are installed (Debian: /usr/lib/postgresql/*/bin), a throwaway server
started like scripts/test.sh does.

    python benchmarks/web_load.py                       # everything, small
    python benchmarks/web_load.py --games 20,200 --seconds 15 --processes 1,2
    python benchmarks/web_load.py --only throughput --db sqlite --games 200
    python benchmarks/web_load.py --only throughput --compare /tmp/old/src --db postgresql
    python benchmarks/web_load.py --only throughput --db postgresql --processes 1,2 --pin-client 1
    python benchmarks/web_load.py --only throughput --db sqlite --games 200 --rate 50,100,200
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

BASELINE = {("sqlite", 20): 907.0, ("sqlite", 200): 778.0,
            ("postgresql", 20): 270.0, ("postgresql", 200): 288.0}
#: Limits raised for the benchmark: its one client creates games far faster than a
#: person, and more games against the AI than one client may have in play (the
#: defaults would answer 429).
SERVER_ENV = {"RELIQUARY_CREATE_PER_MINUTE": "1000000", "RELIQUARY_CREATE_BURST": "1000000",
              "RELIQUARY_AI_GAMES_PER_CLIENT": "0", "PYTHONUNBUFFERED": "1"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# ---------------------------------------------------------------------- servers
@dataclass
class Servers:
    """``reliquary serve`` processes on one database."""

    db_url: str
    count: int
    ai_delay: float = 0.0
    env: dict[str, str] = field(default_factory=dict)
    #: The CPUs the servers (and their AI workers) may run on; None: any.
    cpus: set[int] | None = None
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)

    def __enter__(self) -> Servers:
        cpus = self.cpus
        for _ in range(self.count):
            port = free_port()
            self.processes.append(subprocess.Popen(
                [sys.executable, "-m", "reliquary.web", "--port", str(port),
                 "--db", self.db_url, "--ai-delay", str(self.ai_delay)],
                env={**os.environ, **SERVER_ENV, **self.env},
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                preexec_fn=None if cpus is None else lambda: os.sched_setaffinity(0, cpus)))
            self.urls.append(f"http://127.0.0.1:{port}")
        for url, process in zip(self.urls, self.processes, strict=True):
            deadline = time.monotonic() + 60
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"the server on {url} exited at start")
                try:
                    httpx.get(f"{url}/api/meta", timeout=2)
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"the server on {url} did not start") from None
                    time.sleep(0.1)
        return self

    def cpu_seconds(self) -> float:
        """CPU time the server processes have used (Linux /proc), or NaN elsewhere."""
        total = 0.0
        for process in self.processes:
            try:
                fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                return float("nan")
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total

    def __exit__(self, *_: object) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A PostgreSQL server in a temporary folder on a free port (as scripts/test.sh)."""
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not bins:
        raise RuntimeError("PostgreSQL is not installed: give --pg-url, or apt-get install "
                           "postgresql")
    pg_bin = bins[-1]
    data = tempfile.mkdtemp(prefix="reliquary-bench-pg.")
    port = free_port()
    root = os.geteuid() == 0

    def as_pg(command: str) -> None:
        args = ["su", "postgres", "-s", "/bin/sh", "-c", command] if root \
            else ["sh", "-c", command]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    if root:
        shutil.chown(data, "postgres")
    as_pg(f"{pg_bin}/initdb -D {data} -A trust -U postgres")
    as_pg(f"{pg_bin}/pg_ctl -D {data} -l {data}/server.log -w -o '-p {port} -k {data} "
          f"-c listen_addresses=127.0.0.1 -c max_connections=200' start")
    try:
        as_pg(f"{pg_bin}/createdb -h 127.0.0.1 -p {port} -U postgres reliquary_bench")
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/reliquary_bench"
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            as_pg(f"{pg_bin}/pg_ctl -D {data} -m fast stop")
        shutil.rmtree(data, ignore_errors=True)


def fresh_database(kind: str, pg_url: str | None, folder: Path, n: int) -> str:
    """A new, empty database for one run."""
    if kind == "sqlite":
        return f"sqlite:///{folder / f'bench{n}.db'}"
    assert pg_url is not None
    from sqlalchemy import create_engine, text

    engine = create_engine(pg_url)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE IF EXISTS moves"))
        conn.execute(text("DROP TABLE IF EXISTS games"))
    engine.dispose()
    return pg_url


# ---------------------------------------------------------------------- measuring
@dataclass
class Samples:
    """Decision round trips: (finished at, seconds), and refusals by status."""

    times: list[tuple[float, float]] = field(default_factory=list)
    refusals: dict[int | str, int] = field(default_factory=dict)
    started: int = 0  # games that have had their first decision answered
    #: Open loop: (sent at, seconds the client sent it after it was due with its view
    #: there, whether it waited past its time for the previous answer).
    late: list[tuple[float, float, bool]] = field(default_factory=list)
    created: int = 0  # open loop: games with their first view, and when all had it
    begin: float | None = None

    def window(self, start: float, end: float) -> list[float]:
        return [dt for at, dt in self.times if start <= at <= end]


@dataclass
class Pacer:
    """Open loop: one game's decisions at steady times, ``interval`` seconds apart (a
    player's pace, not the server's). The first is due ``offset`` seconds after the
    last of the ``games`` games that share ``samples`` has its first view (creating
    hundreds of games takes a while): offsets spread over one interval make a steady
    total rate."""

    interval: float
    offset: float
    games: int
    due: float | None = None

    async def wait(self, ready: float, samples: Samples) -> None:
        """Wait for the next decision's time (``ready``: when its view arrived) and
        record how late it goes."""
        if self.due is None:
            samples.created += 1
            if samples.created == self.games:
                samples.begin = time.monotonic()
            while samples.begin is None:
                await asyncio.sleep(0.02)
            self.due = samples.begin + self.offset
        delay = self.due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        sent = time.monotonic()
        samples.late.append((sent, sent - max(self.due, ready), ready > self.due))
        self.due += self.interval


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def answering(view: dict[str, Any]) -> dict[str, Any]:
    """What a decision names of the view it answers: the revision (or, on servers from
    before revisions, for a baseline run, the decision count)."""
    return {"rev": view["rev"]} if "rev" in view else {"seq": view["seq"]}


async def play_hotseat(client: httpx.AsyncClient | None, url: str, samples: Samples,
                       stop: list[float], rng: random.Random, pace: float = 0.0,
                       pacer: Pacer | None = None) -> None:
    """Hot-seat games with random legal options until ``stop``, on a client of their own
    (one httpx pool for hundreds of games spends its time in the pool's bookkeeping);
    ``pacer``: open loop, each decision at its time."""
    if client is None:
        async with httpx.AsyncClient(timeout=120) as own:
            await play_hotseat(own, url, samples, stop, rng, pace, pacer)
        return
    first = True
    while time.monotonic() < stop[0]:
        try:
            await play_one(client, url, samples, stop, rng, pace, first, pacer)
            first = False
        except httpx.HTTPError as err:  # a dropped connection: count it, go on
            samples.refusals[type(err).__name__] = samples.refusals.get(
                type(err).__name__, 0) + 1


async def play_one(client: httpx.AsyncClient, url: str, samples: Samples, stop: list[float],
                   rng: random.Random, pace: float, first: bool = False,
                   pacer: Pacer | None = None) -> None:
    """One hot-seat game (until it ends or ``stop``)."""
    created = await client.post(f"{url}/api/games", json={"mode": "hotseat"})
    if created.status_code != 201:
        samples.refusals[created.status_code] = samples.refusals.get(
            created.status_code, 0) + 1
        await asyncio.sleep(0.05)
        return
    game = created.json()
    game_id, token = game["id"], game["token"]
    view = (await client.get(f"{url}/api/games/{game_id}", params={"t": token})).json()
    while view.get("decision") and time.monotonic() < stop[0]:
        option = rng.choice(view["decision"]["options"])
        if pacer is not None:
            await pacer.wait(time.monotonic(), samples)
        started = time.perf_counter()
        answer = await client.post(f"{url}/api/games/{game_id}/decide", json={
            "token": token, **answering(view), "option": option})
        took = time.perf_counter() - started
        if answer.status_code == 200:
            view = answer.json()
            samples.times.append((time.monotonic(), took))
            if first:
                samples.started += 1
                first = False
        else:
            samples.refusals[answer.status_code] = samples.refusals.get(
                answer.status_code, 0) + 1
            view = (await client.get(f"{url}/api/games/{game_id}",
                                     params={"t": token})).json()
        if pace:
            await asyncio.sleep(pace)


def client_part(urls: list[str], first: int, count: int, stop: list[float], seed: int,
                samples: Samples | None = None, cpu: int | None = None,
                interval: float | None = None, total: int = 0
                ) -> tuple[list[tuple[float, float]], dict[int | str, int],
                           list[tuple[float, float, bool]]]:
    """``count`` games' clients (in a thread or a client process of their own), on
    CPU ``cpu`` alone if given (Linux: the calling thread's affinity). ``interval``:
    open loop, each game's decisions that many seconds apart, the first ones of all
    ``total`` games spread evenly over one interval (:class:`Pacer`)."""
    samples = samples if samples is not None else Samples()
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})

    def pacer(i: int) -> Pacer | None:
        if interval is None:
            return None
        return Pacer(interval, interval * (first + i) / (total or count), count)

    async def play() -> None:
        await asyncio.gather(*(play_hotseat(None, urls[(first + i) % len(urls)], samples,
                                            stop, random.Random(seed + i), pacer=pacer(i))
                               for i in range(count)))

    asyncio.run(play())
    return samples.times, samples.refusals, samples.late


async def throughput(servers: Servers, games: int, seconds: float, warmup: float,
                     clients: int = 1, cpu: int | None = None, rate: float | None = None
                     ) -> dict[str, Any]:
    """Decisions/s, round-trip percentiles and the servers' CPU per decision; ``rate``:
    open loop at that many decisions/s in all (:class:`Pacer`), with the client's
    lateness.

    One client process: the window opens ``warmup`` seconds after every game has had
    its first decision (creating hundreds of games takes a while on a busy machine).
    Several (``clients``): after a fixed ``warmup`` (time.monotonic is system-wide)."""
    interval = games / rate if rate else None
    samples = Samples()
    stop = [time.monotonic() + 3600.0 if clients == 1 else time.monotonic() + warmup + seconds]
    window: list[float] = []

    async def sample_cpu() -> None:
        if clients == 1:
            while samples.started < games:
                await asyncio.sleep(0.05)
            await asyncio.sleep(warmup)
        else:
            await asyncio.sleep(max(0.0, stop[0] - seconds - time.monotonic()))
        window.append(time.monotonic())
        stop[0] = window[0] + seconds
        cpu0 = servers.cpu_seconds()
        await asyncio.sleep(seconds)
        window.append(time.monotonic())
        window.append(servers.cpu_seconds() - cpu0)

    if clients == 1:
        parts = [asyncio.to_thread(client_part, servers.urls, 0, games, stop, 1, samples,
                                   cpu, interval, games)]
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        shares = [games // clients + (1 if i < games % clients else 0) for i in range(clients)]
        pool = ProcessPoolExecutor(clients, mp_context=multiprocessing.get_context("spawn"))
        loop = asyncio.get_running_loop()
        parts = [loop.run_in_executor(pool, client_part, servers.urls, sum(shares[:i]),
                                      shares[i], stop, 1 + 1000 * i, None, cpu, interval,
                                      games)
                 for i in range(clients)]
    results = await asyncio.gather(sample_cpu(), *parts)
    if clients > 1:
        for times, refusals, lateness in results[1:]:
            samples.times.extend(times)
            samples.late.extend(lateness)
            for key, n in refusals.items():
                samples.refusals[key] = samples.refusals.get(key, 0) + n
    start, end, cpu = window
    measured = samples.window(start, end)
    late = [(dt, waited) for at, dt, waited in samples.late if start <= at <= end]
    late_s = [dt for dt, _ in late]
    return {"decisions_s": len(measured) / (end - start),
            "p50_ms": percentile(measured, 0.5) * 1000,
            "p99_ms": percentile(measured, 0.99) * 1000,
            "cpu_ms": cpu * 1000 / len(measured) if measured else float("nan"),
            "refused": dict(samples.refusals),
            # open loop: the client's own lateness, and the share of decisions that
            # waited past their time for the answer before them
            "late_p50_ms": percentile(late_s, 0.5) * 1000,
            "late_p99_ms": percentile(late_s, 0.99) * 1000,
            "waited": sum(w for _, w in late) / len(late) if late else float("nan")}


async def paced_p99(url: str, seconds: float, ai_games: int, level: str) -> dict[str, Any]:
    """A hot-seat game at one decision per 50 ms, while ``ai_games`` AI games think."""
    stop = time.monotonic() + seconds
    samples = Samples()
    turns: list[float] = []
    async with httpx.AsyncClient(timeout=120) as client:
        tasks = [asyncio.create_task(drive_ai_game(client, url, level, stop, turns, i))
                 for i in range(ai_games)]
        if ai_games:  # let the searches start
            await wait_thinking(client, url, min(ai_games, 1))
        await play_hotseat(client, url, samples, [stop], random.Random(7), pace=0.05)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    measured = [dt for _, dt in samples.times]
    return {"p50_ms": percentile(measured, 0.5) * 1000,
            "p99_ms": percentile(measured, 0.99) * 1000, "decisions": len(measured)}


async def wait_thinking(client: httpx.AsyncClient, url: str, at_least: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        answer = await client.get(f"{url}/api/health")
        if answer.status_code != 200:  # a baseline server without the counters
            await asyncio.sleep(1.0)
            return
        if answer.json()["ai"]["thinking"] >= at_least:
            return
        await asyncio.sleep(0.05)


async def drive_ai_game(client: httpx.AsyncClient, url: str, level: str, stop: float,
                        turns: list[float], seed: int, max_turns: int = 10_000) -> None:
    """A game against the AI: random human decisions; each AI turn timed from the
    human's last decision to the AI's turn being done (watching the game's WebSocket)."""
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    game = (await client.post(f"{url}/api/games", json={
        "mode": "ai", "level": level, "seat": "skull"})).json()
    game_id, token = game["id"], game["token"]
    ws_url = url.replace("http://", "ws://") + f"/api/games/{game_id}/ws"
    async with connect(ws_url) as socket:
        view = (await client.get(f"{url}/api/games/{game_id}", params={"t": token})).json()
        began: float | None = time.perf_counter() if view["decision"]["side"] == "key" \
            else None
        while time.monotonic() < stop and view.get("decision") and len(turns) < max_turns:
            if view["decision"]["mine"]:
                if began is not None:
                    turns.append(time.perf_counter() - began)
                    began = None
                view = (await client.post(f"{url}/api/games/{game_id}/decide", json={
                    "token": token, **answering(view),
                    "option": rng.choice(view["decision"]["options"])})).json()
                if view.get("decision") and not view["decision"]["mine"]:
                    began = time.perf_counter()
                continue
            message = json.loads(await asyncio.wait_for(socket.recv(), timeout=120))
            if message.get("type", "update") == "update":  # a baseline server: {"seq"}
                view = (await client.get(f"{url}/api/games/{game_id}",
                                         params={"t": token})).json()


async def ai_pace(url: str, level: str, turns_wanted: int) -> list[float]:
    turns: list[float] = []
    async with httpx.AsyncClient(timeout=120) as client:
        deadline = time.monotonic() + 60  # the AI workers start with the server
        while time.monotonic() < deadline:
            answer = await client.get(f"{url}/api/health")
            if answer.status_code != 200 or answer.json()["ai"].get("warmed", True):
                break
            await asyncio.sleep(0.1)
        await drive_ai_game(client, url, level, time.monotonic() + 600, turns, 3,
                            max_turns=turns_wanted)
    return turns


async def many_watchers(url: str, count: int, games: int = 20) -> dict[str, Any]:
    """``count`` WebSockets on ``games`` hot-seat games: /api/meta's median latency
    without and with them, how long one decision in each game takes to reach them all,
    and the server's handler count once they closed."""
    from websockets.asyncio.client import connect

    async with httpx.AsyncClient(timeout=120) as client:
        created = [(await client.post(f"{url}/api/games", json={"mode": "hotseat"})).json()
                   for _ in range(games)]

        async def meta_ms(times: int = 40) -> float:
            took = []
            for _ in range(times):
                started = time.perf_counter()
                await client.get(f"{url}/api/meta")
                took.append(time.perf_counter() - started)
            return statistics.median(took) * 1000

        alone = await meta_ms()
        sockets = []
        for i in range(count):
            socket = await connect(url.replace("http://", "ws://")
                                   + f"/api/games/{created[i % games]['id']}/ws")
            await socket.recv()
            sockets.append(socket)
        handlers = (await client.get(f"{url}/api/health")).json()["websockets"]
        crowded = await meta_ms()
        started = time.perf_counter()
        for game in created:
            view = (await client.get(f"{url}/api/games/{game['id']}",
                                     params={"t": game["token"]})).json()
            await client.post(f"{url}/api/games/{game['id']}/decide", json={
                "token": game["token"], **answering(view),
                "option": view["decision"]["options"][0]})
        await asyncio.gather(*(socket.recv() for socket in sockets))
        fan_out = time.perf_counter() - started
        for socket in sockets:
            await socket.close()
        left = handlers
        for _ in range(100):
            left = (await client.get(f"{url}/api/health")).json()["websockets"]
            if not left:
                break
            await asyncio.sleep(0.1)
    return {"handlers": handlers, "meta_alone_ms": alone, "meta_crowded_ms": crowded,
            "fan_out_s": fan_out, "left": left}


# ---------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="20,200", help="concurrent games, comma-separated")
    parser.add_argument("--processes", default="1,2", help="server processes, comma-separated")
    parser.add_argument("--db", default="sqlite,postgresql",
                        help="databases: sqlite, postgresql (comma-separated)")
    parser.add_argument("--pg-url", default=None, help="a PostgreSQL URL (its tables are "
                        "dropped!); default: a throwaway server")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds first")
    parser.add_argument("--server-pythonpath", default=None, metavar="DIR",
                        help="run the servers from another source tree (e.g. an older "
                             "version's src/, exported with git archive) for a baseline")
    parser.add_argument("--compare", default=None, metavar="DIR",
                        help="throughput only: measure a baseline source tree (DIR, its "
                             "src/ as for --server-pythonpath) and this one alternately in "
                             "this run, and print the ratios (what a shared, loaded "
                             "machine can tell); with --server-pythonpath, that tree "
                             "is the current one")
    parser.add_argument("--rounds", type=int, default=3,
                        help="with --compare: baseline/current pairs per configuration")
    parser.add_argument("--clients", type=int, default=1,
                        help="client processes sharing the games (one Python client "
                             "saturates near a thousand requests/s)")
    parser.add_argument("--rate", default=None, metavar="R[,R…]",
                        help="throughput: open loop, each game deciding at steady times "
                             "for R decisions/s in all (several: comma-separated), with "
                             "the client's lateness; default: closed loop, as fast as "
                             "the answers come")
    parser.add_argument("--pin-client", type=int, default=None, metavar="CPU",
                        help="throughput: the load client on this CPU alone, the servers "
                             "(and their AI workers) on the others (Linux)")
    parser.add_argument("--only", choices=("throughput", "interference", "pace", "watchers"),
                        default=None)
    parser.add_argument("--watchers", type=int, default=1000,
                        help="WebSockets opened by the watchers check")
    parser.add_argument("--ai-turns", type=int, default=4, help="AI turns timed per level")
    parser.add_argument("--levels", default="hard,max", help="AI levels to time")
    args = parser.parse_args()
    games = [int(x) for x in args.games.split(",")]
    processes = [int(x) for x in args.processes.split(",")]
    databases = [x.strip() for x in args.db.split(",")]
    load = os.getloadavg()
    print(f"# web_load: {os.cpu_count()} CPUs, load average {load[0]:.1f} at start; the "
          "clients share the CPUs with the servers")
    folder = Path(tempfile.mkdtemp(prefix="reliquary-bench."))
    server_env = {"PYTHONPATH": args.server_pythonpath} if args.server_pythonpath else {}
    pg = contextlib.nullcontext(args.pg_url) if args.pg_url or "postgresql" not in databases \
        else throwaway_postgres()
    results: dict[tuple[str, int, int], dict[str, Any]] = {}
    if args.compare:
        with pg as pg_url:
            compare(args.compare, databases, processes, games, args, folder, pg_url)
        shutil.rmtree(folder, ignore_errors=True)
        print(f"\n# load average at the end: {os.getloadavg()[0]:.1f}")
        return
    with pg as pg_url:
        if args.only in (None, "throughput") and args.rate:
            print("\nOpen loop: each game decides at steady times, games / rate seconds "
                  "apart\n")
            print(OPEN_LOOP_HEAD)
            opened: dict[tuple[str, int, int, float], dict[str, Any]] = {}
            run = 0
            for db in databases:
                for procs in processes:
                    for n in games:
                        for rate in rates_of(args):
                            assert rate is not None
                            run += 1
                            url = fresh_database(db, pg_url, folder, run)
                            r = measure(url, procs, server_env, n, args, rate)
                            opened[(db, procs, n, rate)] = r
                            print(open_loop_row(db, procs, n, rate, r), flush=True)
            print()
            print_crossing(opened)
        elif args.only in (None, "throughput"):
            print("\n| database | processes | games | decisions/s | p50 ms | p99 ms "
                  "| server CPU ms per decision | refused |")
            print("|---|---|---|---|---|---|---|---|")
            run = 0
            for db in databases:
                for procs in processes:
                    for n in games:
                        run += 1
                        url = fresh_database(db, pg_url, folder, run)
                        r = measure(url, procs, server_env, n, args)
                        results[(db, procs, n)] = r
                        print(f"| {db} | {procs} | {n} | {r['decisions_s']:.0f} | "
                              f"{r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['cpu_ms']:.2f} | "
                              f"{r['refused'] or '-'} |", flush=True)
            print_ratios(results, databases, processes, games)
        if args.only in (None, "interference"):
            url = fresh_database("sqlite", None, folder, 900)
            with Servers(url, 1, env=server_env) as servers:
                alone = asyncio.run(paced_p99(servers.urls[0], args.seconds, 0, "max"))
                busy = asyncio.run(paced_p99(servers.urls[0], args.seconds, 4, "max"))
            print("\n| paced hot-seat game (50 ms between decisions) | p50 ms | p99 ms |")
            print("|---|---|---|")
            print(f"| alone | {alone['p50_ms']:.1f} | {alone['p99_ms']:.1f} |")
            print(f"| while 4 `max` AI games think | {busy['p50_ms']:.1f} | "
                  f"{busy['p99_ms']:.1f} |")
            print(f"\np99 with the AI busy / alone: {busy['p99_ms'] / alone['p99_ms']:.2f}× "
                  "(issue 7 before: 10 ms → 1,076 ms with 4 `hard` games)")
        if args.only in (None, "pace"):
            from reliquary.web.ai_pool import level_budget

            print("\n| level | budget s | AI turns | mean s | max s | mean / budget |")
            print("|---|---|---|---|---|---|")
            for level in args.levels.split(","):
                url = fresh_database("sqlite", None, folder, 1000 + len(level))
                with Servers(url, 1, env=server_env) as servers:
                    turns = asyncio.run(ai_pace(servers.urls[0], level, args.ai_turns))
                budget = level_budget(level) or float("nan")
                mean = statistics.fmean(turns) if turns else float("nan")
                print(f"| {level} | {budget:g} | {len(turns)} | {mean:.2f} | "
                      f"{max(turns, default=float('nan')):.2f} | {mean / budget:.2f} |",
                      flush=True)
        if args.only in (None, "watchers"):
            url = fresh_database("sqlite", None, folder, 2000)
            caps = {"RELIQUARY_SOCKETS_PER_CLIENT": "1000000",  # one client opens them all
                    "RELIQUARY_SOCKETS_PER_GAME": "1000000",
                    "RELIQUARY_SOCKETS_PER_MINUTE": "1000000",
                    "RELIQUARY_SOCKETS_BURST": "1000000"}
            with Servers(url, 1, env={**server_env, **caps}) as servers:
                w = asyncio.run(many_watchers(servers.urls[0], args.watchers))
            print(f"\n{w['handlers']} watchers: /api/meta median {w['meta_alone_ms']:.1f} ms "
                  f"alone, {w['meta_crowded_ms']:.1f} ms with them; one decision in each of "
                  f"20 games reached them all in {w['fan_out_s']:.2f} s; handlers left "
                  f"after they closed: {w['left']}", flush=True)
    shutil.rmtree(folder, ignore_errors=True)
    load = os.getloadavg()
    print(f"\n# load average at the end: {load[0]:.1f}")


def measure(url: str, procs: int, env: dict[str, str], games: int,
            args: argparse.Namespace, rate: float | None = None) -> dict[str, Any]:
    """One throughput measurement: ``procs`` servers on ``url``, ``games`` games (open
    loop at ``rate`` decisions/s if given)."""
    with Servers(url, procs, env=env, cpus=server_cpus(args.pin_client)) as servers:
        return asyncio.run(throughput(servers, games, args.seconds, args.warmup,
                                      args.clients, args.pin_client, rate))


def rates_of(args: argparse.Namespace) -> list[float | None]:
    """``--rate``'s rates (decisions/s), or [None]: the closed loop."""
    return [float(x) for x in args.rate.split(",")] if args.rate else [None]


def open_loop_row(db: str, procs: int, n: int, rate: float, r: dict[str, Any]) -> str:
    return (f"| {db} | {procs} | {n} | {rate:g} | {r['decisions_s']:.0f} | "
            f"{r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['cpu_ms']:.2f} | "
            f"{r['late_p50_ms']:.1f} / {r['late_p99_ms']:.1f} | {r['waited']:.1%} | "
            f"{r['refused'] or '-'} | {os.getloadavg()[0]:.1f} |")


OPEN_LOOP_HEAD = ("| database | processes | games | rate asked /s | decisions/s | p50 ms | "
                  "p99 ms | server CPU ms per decision | client late p50 / p99 ms | "
                  "waited for the answer before | refused | load |\n"
                  "|---|---|---|---|---|---|---|---|---|---|---|---|")


def print_crossing(results: dict[tuple[str, int, int, float], dict[str, Any]],
                   limit_ms: float = 100.0) -> None:
    """Per configuration, the rates between which the p99 crosses ``limit_ms``."""
    configs = sorted({key[:3] for key in results})
    for db, procs, n in configs:
        rows = sorted((rate, r) for (d, p, g, rate), r in results.items()
                      if (d, p, g) == (db, procs, n))
        under = [rate for rate, r in rows if r["p99_ms"] < limit_ms]
        over = [rate for rate, r in rows if r["p99_ms"] >= limit_ms]
        if not over:
            print(f"- {db}, {procs} process(es), {n} games: p99 < {limit_ms:g} ms at every "
                  f"rate tried (up to {rows[-1][0]:g}/s)")
        elif not under:
            print(f"- {db}, {procs} process(es), {n} games: p99 ≥ {limit_ms:g} ms at every "
                  f"rate tried (from {rows[0][0]:g}/s)")
        else:
            above = [rate for rate in over if rate > max(under)]
            print(f"- {db}, {procs} process(es), {n} games: p99 < {limit_ms:g} ms up to "
                  f"{max(under):g}/s" + (f", ≥ {limit_ms:g} ms from {min(above):g}/s"
                                         if above else "")
                  + ("" if len(under) + len(above) == len(rows)
                     else " (not monotonic: see the rows)"))


def server_cpus(pin_client: int | None) -> set[int] | None:
    """The CPUs left to the servers when the client has ``pin_client`` to itself."""
    if pin_client is None:
        return None
    others = set(os.sched_getaffinity(0)) - {pin_client}
    if not others:
        raise SystemExit(f"--pin-client {pin_client}: no other CPU is left to the servers")
    return others


def compare(baseline: str, databases: list[str], processes: list[int], games: list[int],
            args: argparse.Namespace, folder: Path, pg_url: str | None = None) -> None:
    """Throughput of a baseline tree and of this one, measured alternately (baseline,
    current, baseline, current …) so that both see the same load; per configuration the
    ratios of the medians: decisions/s, server CPU per decision, p50 and p99. With
    ``--rate``, each rate is a configuration (open loop: both trees get the same
    decisions/s, so their CPU per decision is compared at the same work)."""
    current = {"PYTHONPATH": args.server_pythonpath} if args.server_pythonpath else {}
    trees = {"baseline": {"PYTHONPATH": baseline}, "current": current}
    print(f"\nbaseline: {baseline}; {args.rounds} alternating rounds of {args.seconds:g} s "
          "per tree and configuration")
    print("\n| database | tree | round | processes | games | rate asked /s | decisions/s "
          "| p50 ms | p99 ms | server CPU ms per decision | client late p99 ms | refused "
          "| load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    summary = []
    run = 3000
    for db in databases:
        for procs in processes:
            for n in games:
                for rate in rates_of(args):
                    got: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
                    for round_ in range(1, args.rounds + 1):
                        for name, env in trees.items():
                            run += 1
                            url = fresh_database(db, pg_url, folder, run)
                            r = measure(url, procs, env, n, args, rate)
                            got[name].append(r)
                            print(f"| {db} | {name} | {round_} | {procs} | {n} | "
                                  f"{'closed' if rate is None else f'{rate:g}'} | "
                                  f"{r['decisions_s']:.0f} | {r['p50_ms']:.1f} | "
                                  f"{r['p99_ms']:.1f} | {r['cpu_ms']:.2f} | "
                                  f"{r['late_p99_ms']:.1f} | {r['refused'] or '-'} | "
                                  f"{os.getloadavg()[0]:.1f} |", flush=True)
                    summary.append((db, procs, n, rate, *(
                        _median(got, "current", k) / _median(got, "baseline", k)
                        for k in ("decisions_s", "cpu_ms", "p50_ms", "p99_ms")),
                        _median(got, "current", "p99_ms")))
    print("\n| database | processes | games | rate asked /s | decisions/s now / before | "
          "server CPU per decision now / before | p50 now / before | p99 now / before "
          "| p99 now ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for db, procs, n, rate, speed, cpu, p50, p99, p99_now in summary:
        print(f"| {db} | {procs} | {n} | {'closed' if rate is None else f'{rate:g}'} | "
              f"{speed:.2f}× | {cpu:.2f}× | {p50:.2f}× | {p99:.2f}× | {p99_now:.0f} |")


def _median(got: dict[str, list[dict[str, Any]]], tree: str, key: str) -> float:
    return float(statistics.median(r[key] for r in got[tree]))


def print_ratios(results: dict[tuple[str, int, int], dict[str, Any]], databases: list[str],
                 processes: list[int], games: list[int]) -> None:
    print()
    for (db, procs, n), r in results.items():
        base = BASELINE.get((db, n))
        if procs == 1 and base:
            print(f"- {db}, {n} games, 1 process: {r['decisions_s'] / base:.2f}× issue 7's "
                  f"{base:.0f} decisions/s")
    for n in games:
        for procs in processes:
            sq, pg = results.get(("sqlite", procs, n)), results.get(("postgresql", procs, n))
            if sq and pg:
                print(f"- PostgreSQL / SQLite, {n} games, {procs} process(es): "
                      f"{pg['decisions_s'] / sq['decisions_s']:.2f}×")
    for db in databases:
        for n in games:
            one, two = results.get((db, 1, n)), results.get((db, 2, n))
            if one and two:
                print(f"- {db}, {n} games: 2 processes / 1: "
                      f"{two['decisions_s'] / one['decisions_s']:.2f}×")


if __name__ == "__main__":
    main()
