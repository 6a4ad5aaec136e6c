"""The body guard: POST bodies on /mcp routes are bounded in size and depth, parsed once, and described for the
layers behind (`horologe.http.request.RequestFacts`)."""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from horologe.core.messages import N_, msg
from horologe.http.asgi import header, refuse, replay
from horologe.http.request import FACTS_KEY, read_facts
from horologe.protocol.errors import BodyTooLarge, InvalidRequest, ParseError
from horologe.wire import needs_normalizing, normalize_request

JSON_BODY_PATHS = ("/mcp",)


class BodyGuard:
    """POST bodies on /mcp routes: bounded size, valid JSON, bounded nesting; the parsed body goes to the state."""

    def __init__(self, app: ASGIApp, max_bytes: int, max_depth: int) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_depth = max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or not scope["path"].startswith(JSON_BODY_PATHS):
            await self.app(scope, receive, send)
            return
        trim_field_values(scope)
        declared = header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await refuse(send, BodyTooLarge(limit=self.max_bytes))
            return
        body = await self._read(receive)
        if body is None:
            await refuse(send, BodyTooLarge(limit=self.max_bytes))
            return
        try:
            # JSON over HTTP is UTF-8 (RFC 8259 §8.1); decoding first skips json.loads' encoding sniffing, which
            # cost as much as the parse itself. Other encodings and invalid UTF-8 are a parse error.
            payload = json.loads(body.decode())
        except (ValueError, RecursionError):
            await refuse(send, ParseError(reason=msg(N_("the body is not valid JSON."))))
            return
        # Counting brackets is cheap and bounds the depth from above; walk the tree only when it might be deep.
        brackets = body.count(b"{") + body.count(b"[")
        if brackets > self.max_depth and _depth(payload, self.max_depth) > self.max_depth:
            await refuse(send, InvalidRequest(reason=msg(N_("JSON nested deeper than {depth}."), depth=self.max_depth)))
            return
        if isinstance(payload, dict) and needs_normalizing(payload):
            # What the SDK's parser would drop (SEP-1809's top-level clientContext, SEP-1655's capabilities.state)
            # moves where it keeps it; the SDK then reads the rewritten body.
            body = json.dumps(normalize_request(payload)).encode()
        scope.setdefault("state", {})[FACTS_KEY] = read_facts(scope["path"], payload)
        await self.app(scope, replay(body, receive), send)

    async def _read(self, receive: Receive) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


def trim_field_values(scope: Scope) -> None:
    """Strip every header value of the request of surrounding spaces and tabs (RFC 9110 §5.5: they are not part
    of the value). h11 strips them, httptools (uvicorn's default parser) keeps them, so `Mcp-Name: x ` must not
    reach the SDK's exact comparison with the body."""
    headers = scope["headers"]
    if not any(value[:1] in _OWS or value[-1:] in _OWS for _, value in headers if value):
        return
    scope["headers"] = [(name, value.strip(b" \t")) for name, value in headers]


_OWS = (b" ", b"\t")


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of a JSON value, counted without recursion and stopping past `limit`."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict | list):
            deepest = max(deepest, level)
            if deepest > limit:
                return deepest
            children = node.values() if isinstance(node, dict) else node
            stack.extend((child, level + 1) for child in children)
    return deepest
