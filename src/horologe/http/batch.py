"""JSON-RPC batches on POST /mcp, for the 2025-03-26 revision, the only one that has them.

2025-03-26 requires a server to receive batches (arrays of requests and notifications); 2025-06-18 removed them
and 2026-07-28 carries one message per POST. A batch under `MCP-Protocol-Version: 2025-03-26`, or under no
version header (which that revision's clients may omit: a server then assumes 2025-03-26), is split here: each
message passes the layers behind this one on the route as its own request (era, language, auth, rate limits,
the SDK's endpoint; the whole batch is one request to the timeout), and the answers go back as one JSON array
(JSON-RPC 2.0 §6), or as 202 when the batch held only notifications. Any other era gets -32600 saying to send one
message per request.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from horologe.core.messages import N_, msg
from horologe.http.asgi import header, refuse, replay, respond
from horologe.http.errors import http_answer
from horologe.http.request import FACTS_KEY, facts_of, read_facts
from horologe.protocol.errors import InvalidRequest
from horologe.wire import BATCH_VERSION, NOT_AN_OBJECT, batch_members, normalize_request


class Batches:
    """POST /mcp behind the body guard: a 2025-03-26 batch becomes one request per message, answered as one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        facts = facts_of(scope)
        if facts is None or not isinstance(facts.payload, list):
            await self.app(scope, receive, send)
            return
        version = header(scope, b"mcp-protocol-version")
        messages: list[Any] = facts.payload
        if version not in (None, BATCH_VERSION):
            reason = msg(N_("JSON-RPC batches belong to the 2025-03-26 revision only; send one message at a time."))
            await refuse(send, InvalidRequest(reason=reason))
            return
        members = batch_members(messages)
        if not isinstance(members, list):
            await refuse(send, InvalidRequest(reason=members))
            return
        await receive()  # the buffered batch itself: each message is handed on as its own body
        answers: list[Any] = []
        headers: dict[bytes, list[bytes]] = {}
        for member in members:
            if member.message is None:
                refusal = InvalidRequest(reason=member.problem or msg(NOT_AN_OBJECT))
                answers.append(json.loads(http_answer(refusal, member.request_id)[1]))
                continue
            status, sub_headers, body = await self._one(scope, receive, normalize_request(member.message))
            for name in (b"content-language", b"vary", b"cache-control", b"mcp-session-id"):
                headers.setdefault(name, []).extend(v for k, v in sub_headers if k == name)
            answers.extend(_answers(status, sub_headers, body))
        if not answers:
            await send({"type": "http.response.start", "status": 202, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        await respond(send, 200, json.dumps(answers).encode(), _batch_headers(headers, len(answers)))

    async def _one(self, scope: Scope, receive: Receive, message: dict[str, Any]) -> tuple[int, list[Any], bytes]:
        """Pass one message through the layers behind this one; what they answered."""
        body = json.dumps(message).encode()
        sub_headers = [(k, v) for k, v in scope["headers"] if k != b"content-length"]
        sub_headers.append((b"content-length", str(len(body)).encode()))
        sub_scope = {**scope, "headers": sub_headers, "state": {**scope.get("state", {})}}
        sub_scope["state"][FACTS_KEY] = read_facts(message)
        start: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def sub_send(event: Message) -> None:
            if event["type"] == "http.response.start":
                start.update(event)
            elif event["type"] == "http.response.body":
                chunks.append(event.get("body", b""))

        await self.app(sub_scope, replay(body, receive), sub_send)
        return int(start.get("status", 500)), list(start.get("headers", [])), b"".join(chunks)


def _answers(status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> list[Any]:
    """The JSON-RPC responses in one message's answer: a JSON body, or the responses of an SSE stream."""
    if status == 202 or not body:
        return []
    content_type = next((v for k, v in headers if k == b"content-type"), b"")
    if content_type.startswith(b"text/event-stream"):
        events = [json.loads(line[5:]) for line in body.splitlines() if line.startswith(b"data:") and line[5:].strip()]
        return [event for event in events if "id" in event and ("result" in event or "error" in event)]
    try:
        return [json.loads(body)]
    except ValueError:
        return []


def _batch_headers(found: dict[bytes, list[bytes]], count: int) -> list[tuple[bytes, bytes]]:
    """The batch answer's headers: a `Content-Language` only when every answer said the same one; the others
    as any answer said them."""
    headers: list[tuple[bytes, bytes]] = []
    languages = found.get(b"content-language", [])
    if len(languages) == count and len(set(languages)) == 1:
        headers.append((b"content-language", languages[0]))
    for name in (b"vary", b"cache-control", b"mcp-session-id"):
        values = list(dict.fromkeys(found.get(name, [])))
        if values:
            headers.append((name, b", ".join(values) if name != b"mcp-session-id" else values[0]))
    return headers
