"""The body guard: POST bodies on the routes that take JSON are bounded in size and depth, parsed once, and described
for the layers behind (`horologe.http.request.RequestFacts`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from horologe.core.messages import N_, msg
from horologe.http.asgi import header, refuse, replay
from horologe.http.errors import BodyTooLarge, ServerBusy
from horologe.http.request import FACTS_KEY, read_facts
from horologe.protocol.errors import InvalidRequest, ParseError
from horologe.wire import message_problem, needs_normalizing, normalize_request, readable_id

RETRY_SOON = ((b"retry-after", b"1"),)


@dataclass(slots=True)
class BodyBudget:
    """The limits on request bodies, and the bytes of bodies this process holds right now (declared lengths, or
    what arrived of others): one budget for every route that reads a body, made by the app factory."""

    max_bytes: int
    max_depth: int
    max_buffered: int
    buffered: int = 0


class BodyGuard:
    """A route's POST body: bounded size, valid JSON, bounded nesting; the parsed body goes to the state.

    `performs` is the MCP method a REST route performs (None on /mcp, where the body says it).
    """

    def __init__(self, app: ASGIApp, budget: BodyBudget, performs: str | None = None) -> None:
        self.app = app
        self.budget = budget
        self.performs = performs

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        budget = self.budget
        trim_field_values(scope)
        declared = header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > budget.max_bytes):
            await refuse(send, BodyTooLarge(limit=budget.max_bytes))
            return
        # Many clients holding large bodies half-sent would each keep what they sent: a budget bounds the total.
        held = [int(declared) if declared is not None else 0]
        if budget.buffered + held[0] > budget.max_buffered:
            await refuse(send, ServerBusy(seconds=1), headers=RETRY_SOON)
            return
        budget.buffered += held[0]
        try:
            await self._guard(scope, receive, send, held)
        finally:
            budget.buffered -= held[0]

    async def _guard(self, scope: Scope, receive: Receive, send: Send, held: list[int]) -> None:
        body = await self._read(receive, held)
        if not isinstance(body, bytes):
            await refuse(send, body, headers=RETRY_SOON if isinstance(body, ServerBusy) else ())
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
        depth = self.budget.max_depth
        if brackets > depth and _depth(payload, depth) > depth:
            await refuse(send, InvalidRequest(reason=msg(N_("JSON nested deeper than {depth}."), depth=depth)))
            return
        problem = message_problem(payload, body) if isinstance(payload, dict) else None
        if problem is not None:
            await refuse(send, InvalidRequest(reason=problem), readable_id(payload))
            return
        if isinstance(payload, dict) and needs_normalizing(payload):
            # What the SDK's parser would drop (SEP-1809's top-level clientContext, SEP-1655's capabilities.state)
            # moves where it keeps it; the SDK then reads the rewritten body.
            body = json.dumps(normalize_request(payload)).encode()
        scope.setdefault("state", {})[FACTS_KEY] = read_facts(payload, self.performs)
        await self.app(scope, replay(body, receive), send)

    async def _read(self, receive: Receive, held: list[int]) -> bytes | BodyTooLarge | ServerBusy:
        budget = self.budget
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > budget.max_bytes:
                return BodyTooLarge(limit=budget.max_bytes)
            if size > held[0]:  # a chunked body (or more than declared): count what arrives
                budget.buffered += size - held[0]
                held[0] = size
                if budget.buffered > budget.max_buffered:
                    return ServerBusy(seconds=1)
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
