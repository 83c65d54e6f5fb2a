"""How the server refuses a request: :class:`WebError` (a status, a stable code, a
message that never echoes large input) and the API's JSON encoding."""

from __future__ import annotations

import json
from typing import Any

#: The stable code of a refusal by status, when the raiser names none.
DEFAULT_CODES = {400: "bad_request", 403: "forbidden", 404: "not_found", 409: "stale",
                 410: "gone", 413: "too_large", 415: "unsupported_media_type",
                 422: "illegal_option", 429: "rate_limited", 503: "busy"}
#: The longest message a refusal carries (user input quoted in it is cut short).
MAX_MESSAGE = 500


def clip(value: Any, limit: int = 60) -> str:
    """``repr`` of a value from a request, cut short: refusals never echo large input."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


class WebError(Exception):
    """A request the server refuses: an HTTP status, a stable code and a clear message.

    ``extra`` fields go into the answer's body beside ``error`` and ``code`` (e.g. the
    current ``rev`` of a stale request)."""

    def __init__(self, status: int, message: str, code: str | None = None,
                 **extra: Any) -> None:
        if len(message) > MAX_MESSAGE:
            message = message[:MAX_MESSAGE] + "…"
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code or DEFAULT_CODES.get(status, "bad_request")
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The JSON body of the refusal."""
        return {"error": self.message, "code": self.code, **self.extra}


#: One encoder for every answer (``json.dumps`` with options builds a new one per call,
#: and a decision encodes its view and each new log line).
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def encode_json(value: Any) -> str:
    """JSON as the API answers it (UTF-8 text, no spaces)."""
    return _ENCODER.encode(value)
