"""JSON-RPC batches on POST /mcp, for the 2025-03-26 revision, the only one that has them.

2025-03-26 requires a server to receive batches (arrays of requests and notifications); 2025-06-18 removed them
and 2026-07-28 carries one message per POST. A batch under `MCP-Protocol-Version: 2025-03-26`, or under no
version header (which that revision's clients may omit: a server then assumes 2025-03-26), is split here: each
message passes the layers behind this one on the route as its own request (timeout, era, language, auth, rate
limits, the SDK's endpoint), and the answers go back as one JSON array (JSON-RPC 2.0 §6), or as 202 when the batch
held only notifications. Any other era gets -32600 saying to send one message per request.

A batch is still one request: it costs no more than its messages sent one by one would.
- One size limit: the body guard's, for the whole batch; and one for its answer (`MAX_ANSWER_BYTES`): once the
  answers reach it, the rest of the messages are not run, each answered with an error saying to send it in a
  smaller batch.
- One timeout: the request timeout, for the whole batch; a message still running at it, and those after it, are
  answered with the timeout error.
- One budget: the tool calls of a batch share one call's budget (`BATCH_DEADLINE_KEY` in the scope tells the
  handlers when it ends); calls past it are answered `budget_exceeded` at once.
- Rate limits count each message, since each passes the limiter as its own request.
"""

from __future__ import annotations

import json
import time
from typing import Any, Final

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from horologe.core.messages import N_, msg
from horologe.http.asgi import header, refuse, replay, respond
from horologe.http.calls import BATCH_DEADLINE_KEY
from horologe.http.errors import BatchAnswerTooLarge, RequestTimedOut, http_answer
from horologe.http.request import FACTS_KEY, facts_of, read_facts
from horologe.protocol.errors import InvalidRequest, RequestError
from horologe.wire import BATCH_VERSION, NOT_AN_OBJECT, batch_members, normalize_request

MAX_ANSWER_BYTES: Final = 1024 * 1024
"""The most a batch's answer holds; the messages after the one that reached it are not run."""


class Batches:
    """POST /mcp behind the body guard: a 2025-03-26 batch becomes one request per message, answered as one,
    within one timeout, one tool budget and one answer size."""

    def __init__(self, app: ASGIApp, seconds: float = 30.0, budget_seconds: float = 5.0) -> None:
        self.app = app
        self.seconds = seconds
        self.budget_seconds = budget_seconds

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
        started = time.monotonic()
        ends, budget_ends = started + self.seconds, started + self.budget_seconds
        size = 2
        stopped: RequestError | None = None  # why the messages left are not run
        for member in members:
            if member.message is None:
                refusal = InvalidRequest(reason=member.problem or msg(NOT_AN_OBJECT))
                answers.append(json.loads(http_answer(refusal, member.request_id)[1]))
                continue
            message = member.message
            if stopped is None and time.monotonic() >= ends:
                stopped = RequestTimedOut()
            if stopped is not None:
                answers.extend([_error(stopped, message)] if "id" in message else [])
                continue
            with anyio.move_on_after(ends - time.monotonic()) as within:
                status, sub_headers, body = await self._one(scope, receive, normalize_request(message), budget_ends)
            if within.cancelled_caught:
                stopped = RequestTimedOut()
                answers.extend([_error(stopped, message)] if "id" in message else [])
                continue
            for name in (b"content-language", b"vary", b"cache-control", b"mcp-session-id"):
                headers.setdefault(name, []).extend(v for k, v in sub_headers if k == name)
            these = _answers(status, sub_headers, body)
            size += sum(len(json.dumps(answer)) + 1 for answer in these)
            if size > MAX_ANSWER_BYTES:
                stopped = BatchAnswerTooLarge(limit=MAX_ANSWER_BYTES)
                these = [_error(stopped, message)] if "id" in message else []
            answers.extend(these)
        if not answers:
            await send({"type": "http.response.start", "status": 202, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        await respond(send, 200, json.dumps(answers).encode(), _batch_headers(headers, len(answers)))

    async def _one(
        self, scope: Scope, receive: Receive, message: dict[str, Any], budget_ends: float
    ) -> tuple[int, list[Any], bytes]:
        """Pass one message through the layers behind this one (its tool call within the batch's budget); what they
        answered."""
        body = json.dumps(message).encode()
        sub_headers = [(k, v) for k, v in scope["headers"] if k != b"content-length"]
        sub_headers.append((b"content-length", str(len(body)).encode()))
        sub_scope = {**scope, "headers": sub_headers, "state": {**scope.get("state", {})}}
        sub_scope["state"][FACTS_KEY] = read_facts(message)
        sub_scope["state"][BATCH_DEADLINE_KEY] = budget_ends
        start: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def sub_send(event: Message) -> None:
            if event["type"] == "http.response.start":
                start.update(event)
            elif event["type"] == "http.response.body":
                chunks.append(event.get("body", b""))

        await self.app(sub_scope, replay(body, receive), sub_send)
        return int(start.get("status", 500)), list(start.get("headers", [])), b"".join(chunks)


def _error(error: RequestError, message: object) -> Any:
    """A message's answer: this error, with its id."""
    return json.loads(http_answer(error, _id_of(message))[1])


def _id_of(message: object) -> Any:
    request_id = message.get("id") if isinstance(message, dict) else None
    return request_id if isinstance(request_id, str | int) and not isinstance(request_id, bool) else None


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
