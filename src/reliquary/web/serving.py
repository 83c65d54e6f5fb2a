"""How ``reliquary serve`` runs the app under uvicorn: who is trusted to say where a
request came from, how long a connection may dawdle, and a stop that starts at once.

- **Forwarded headers.** ``X-Forwarded-For`` names the client only when the peer that
  sent it is a configured proxy (``--trusted-proxies`` or ``RELIQUARY_TRUSTED_PROXIES``,
  comma-separated addresses or networks); by default none is, and a client's own
  header is ignored (uvicorn alone would trust 127.0.0.1, so any local process, or a
  proxy that passes the header on, could choose the address the limits count).
- **Timeouts.** A connection must send a request's headers within
  ``RELIQUARY_HEADER_TIMEOUT_S`` seconds (default 10) of opening, or of starting the
  request, or it is closed; an idle keep-alive connection is closed after
  ``timeout_keep_alive`` (5 s); a POST body must arrive within ``body_timeout_s``
  (:class:`reliquary.web.guard.Limits`, 408 beyond). So half-open connections cannot
  hold the process's file descriptors.
- **Stopping.** On SIGTERM or Ctrl+C the app's :class:`reliquary.web.capacity.Capacity`
  is told at once (:class:`Server`): WebSockets close (1001) and AI searches are killed
  while uvicorn stops listening, rather than after its graceful wait, so the process
  is gone well within two seconds.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from types import FrameType
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .config import env_number

#: Seconds uvicorn waits for open connections on shutdown before cancelling them.
SHUTDOWN_GRACE_S = 1
#: Seconds an idle keep-alive connection is kept.
KEEP_ALIVE_S = 5


def header_timeout() -> float:
    """``RELIQUARY_HEADER_TIMEOUT_S``: seconds to send a request's headers (default 10)."""
    return env_number("RELIQUARY_HEADER_TIMEOUT_S", 10.0, low=0.1, high=3600, unit="seconds")


class TimedHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, closing a connection whose request headers do not
    arrive in time (uvicorn times out idle keep-alive connections only: one that opens
    and sends nothing, or half a header, would otherwise be held forever)."""

    timeout_s = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._headers_due: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        if self._headers_due is None:
            self._headers_due = self.loop.call_later(self.timeout_s, self._late)

    def _late(self) -> None:
        self._headers_due = None
        if not self.transport.is_closing():
            self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()  # the next request on a kept-alive connection: the clock starts

    def on_headers_complete(self) -> None:
        if self._headers_due is not None:
            self._headers_due.cancel()
            self._headers_due = None
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._headers_due is not None:
            self._headers_due.cancel()
            self._headers_due = None
        super().connection_lost(exc)


def trusted_proxies(given: str | None = None) -> str:
    """The proxies whose ``X-Forwarded-For`` is believed: ``given``, else
    ``RELIQUARY_TRUSTED_PROXIES``, else none (an empty string)."""
    raw = given if given is not None else os.environ.get("RELIQUARY_TRUSTED_PROXIES", "")
    return ",".join(part.strip() for part in raw.split(",") if part.strip())


def uvicorn_options(proxies: str | None = None) -> dict[str, Any]:
    """The keyword arguments ``reliquary serve`` gives :class:`uvicorn.Config`."""
    trusted = trusted_proxies(proxies)
    protocol = type("TimedHttpProtocol", (TimedHttpProtocol,), {"timeout_s": header_timeout()})
    return {
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": trusted or "",
        "http": protocol,
        "timeout_keep_alive": KEEP_ALIVE_S,
        "timeout_graceful_shutdown": SHUTDOWN_GRACE_S,
        "log_level": "warning",
    }


class Server(uvicorn.Server):
    """uvicorn's server, calling ``on_stop`` on the event loop as soon as a stop signal
    arrives (uvicorn tells the app only after waiting for open connections)."""

    def __init__(self, config: uvicorn.Config, on_stop: Callable[[], Any]) -> None:
        super().__init__(config)
        self.on_stop = on_stop
        self.loop: asyncio.AbstractEventLoop | None = None

    async def serve(self, sockets: Any = None) -> None:
        self.loop = asyncio.get_running_loop()
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        first = not self.should_exit
        super().handle_exit(sig, frame)
        if first and self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.on_stop)
