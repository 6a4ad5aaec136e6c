"""The stdio edge: newline-delimited JSON-RPC on stdin/stdout, with clear answers to malformed input.

The SDK's own stdio reader drops lines it cannot parse without a word. This edge answers them instead:
invalid UTF-8 or JSON gets -32700, a non-request gets -32600, an over-long line gets -32600 and is skipped; the
server keeps serving. A JSON-RPC batch is served on a connection that opened with `initialize` for 2025-03-26
(the one revision that has them: its members' answers go out as one array line), and refused (-32600) on others.
Only protocol messages are ever written to stdout: while serving, file descriptor 1 points at stderr so stray
prints cannot corrupt the wire.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel.server import Server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from horologe.core.messages import N_, English, msg
from horologe.protocol.errors import (
    InternalError,
    InvalidRequest,
    ParseError,
    RequestError,
    edge_answer,
    handshake_refused,
    unsupported_version_error,
)
from horologe.wire import (
    BATCH_VERSION,
    DEFAULT_ENVELOPE,
    INVALID_REQUEST,
    NOT_AN_OBJECT,
    NOT_JSONRPC,
    PROTOCOL_VERSION_META,
    batch_members,
    message_problem,
    meta_of,
    normalize_request,
    readable_id,
    unsupported_version,
)

logger = logging.getLogger("horologe")

MAX_LINE_BYTES = 4 * 1024 * 1024
CHUNK_BYTES = 64 * 1024
DRAIN_SECONDS = 30.0


class LineSplitter:
    """Splits a byte stream into lines, reporting (and skipping) lines longer than the limit."""

    def __init__(self, limit: int = MAX_LINE_BYTES) -> None:
        self.limit = limit
        self._buffer = bytearray()
        self._discarding = False

    def feed(self, chunk: bytes) -> list[bytes | None]:
        """Lines completed by this chunk; None stands for a line that was too long."""
        lines: list[bytes | None] = []
        start = 0
        while (end := chunk.find(b"\n", start)) != -1:
            piece = chunk[start:end]
            if self._discarding or len(self._buffer) + len(piece) > self.limit:
                lines.append(None)
            else:
                self._buffer += piece
                lines.append(bytes(self._buffer))
            self._buffer.clear()
            self._discarding = False
            start = end + 1
        rest = chunk[start:]
        if not self._discarding:
            if len(self._buffer) + len(rest) > self.limit:
                self._discarding = True
                self._buffer.clear()
            else:
                self._buffer += rest
        return lines

    def finish(self) -> list[bytes | None]:
        """The unterminated last line at end of input, if any."""
        if self._discarding:
            return [None]
        return [bytes(self._buffer)] if self._buffer.strip() else []


def error_line(error: RequestError, request_id: Any = None) -> bytes:
    """The JSON-RPC error answer to a line, newline-terminated (code and message from the error table)."""
    return edge_answer(error, request_id)[1] + b"\n"


class Envelopes:
    """Serves a connection whose first request comes with neither a handshake nor a 2026-07-28 envelope.

    The seed's own example sends a bare `tools/call` line. No MCP text forbids answering it (the 2025 revisions
    only ask clients not to send requests before `initialize`; the 2026-07-28 envelope is required of requests
    that claim that revision), so such a connection is served as the newest revision with empty client
    capabilities: every request of it that lacks the envelope gets one. A connection that opens with
    `initialize` or with an envelope is left exactly as it is.
    """

    __slots__ = ("bare", "batches", "serving")

    def __init__(self) -> None:
        self.bare: bool | None = None
        self.batches = False
        """Whether the connection opened with `initialize` asking for 2025-03-26, the one revision with batches."""
        self.serving: str | None = None
        """The 2026-07-28 revision the connection serves, once its first request (bare or enveloped) chose it."""

    def early_ping(self, payload: dict[str, Any]) -> bool:
        """Whether this is a `ping` without an envelope before the connection chose its era: the 2025 texts allow
        one before `initialize`, and its answer (`{}`) is the same in every era, so the edge answers it and the
        connection stays undecided (a legacy client's `initialize` that follows is then served)."""
        return self.bare is None and payload.get("method") == "ping" and "id" in payload and not _enveloped(payload)

    def refusal(self, payload: dict[str, Any]) -> RequestError | None:
        """The -32022 for `initialize` on a connection serving 2026-07-28 (the SDK's own answer would list only
        that revision as supported; ours lists every revision spoken, as every -32022 does)."""
        if self.serving is None or payload.get("method") != "initialize" or "id" not in payload:
            return None
        params = payload.get("params")
        requested = params.get("protocolVersion") if isinstance(params, dict) else None
        return handshake_refused(self.serving, requested)

    def complete(self, payload: dict[str, Any]) -> None:
        """Add the default envelope to a request of a bare connection (in place)."""
        if "id" not in payload or not isinstance(payload.get("method"), str):
            return
        params = payload.get("params")
        meta = meta_of(params)
        enveloped = _enveloped(payload)
        if self.bare is None:
            self.bare = payload["method"] != "initialize" and not enveloped
            self.batches = not self.bare and isinstance(params, dict) and params.get("protocolVersion") == BATCH_VERSION
            if self.bare or enveloped:
                version = (meta if enveloped and meta is not None else DEFAULT_ENVELOPE)[PROTOCOL_VERSION_META]
                self.serving = str(version)
        if not self.bare or enveloped or not (params is None or isinstance(params, dict)):
            return
        given = dict(meta) if meta is not None else {}
        payload["params"] = {**(params or {}), "_meta": {**DEFAULT_ENVELOPE, **given}}


def decode_message(line: bytes, envelopes: Envelopes | None = None) -> types.JSONRPCMessage | Batch | bytes | None:
    """A validated message, the error line to answer with, or None for a blank line."""
    if not line.strip():
        return None
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return error_line(ParseError(reason=msg(N_("the line is not valid UTF-8 (byte {byte})."), byte=exc.start)))
    try:
        payload = json.loads(text)
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, json.JSONDecodeError):
            why: object = English(exc.msg)
        elif isinstance(exc, ValueError):  # an integer longer than Python's limit (4300 digits)
            why = msg(N_("a number has too many digits"))
        else:
            why = msg(N_("nested too deeply"))
        reason = msg(N_("not valid JSON ({why}). Send one JSON-RPC object per line."), why=why)
        return error_line(ParseError(reason=reason))
    if isinstance(payload, list):
        if envelopes is None or not envelopes.batches:
            reason = msg(N_("JSON-RPC batches belong to the 2025-03-26 revision only; send one message at a time."))
            return error_line(InvalidRequest(reason=reason))
        return decode_batch(payload, envelopes)
    if not isinstance(payload, dict):
        return error_line(InvalidRequest(reason=msg(NOT_AN_OBJECT)))
    request_id = readable_id(payload)
    problem = message_problem(payload, text)
    if problem is not None:
        return _failed_response(payload, request_id) or error_line(InvalidRequest(reason=problem), request_id)
    # What the SDK's parser would drop (SEP-1809's top-level clientContext, SEP-1655's capabilities.state) moves
    # where it keeps it first.
    normalize_request(payload)
    requested = unsupported_version(payload) if "id" in payload else None
    if requested is not None:
        return error_line(unsupported_version_error(requested), request_id)
    if envelopes is not None:
        if envelopes.early_ping(payload) and request_id is not None:
            return (
                json.dumps({"jsonrpc": "2.0", "id": request_id, "result": {}}, separators=(",", ":")).encode() + b"\n"
            )
        refused = envelopes.refusal(payload)
        if refused is not None:
            return error_line(refused, request_id)
        envelopes.complete(payload)
    try:
        return types.jsonrpc_message_adapter.validate_python(payload, by_name=False)
    except ValidationError:
        return _failed_response(payload, request_id) or error_line(InvalidRequest(reason=msg(NOT_JSONRPC)), request_id)


def _failed_response(payload: dict[str, Any], request_id: Any) -> types.JSONRPCError | None:
    """A malformed answer to one of our requests (an elicitation) as an error for that request, so the call waiting
    for it ends at once with the error it had; None for anything that is not an answer. A response is not answered.
    """
    if "method" in payload or not ("result" in payload or "error" in payload) or request_id is None:
        return None
    error = types.ErrorData(code=INVALID_REQUEST, message="The client's response was malformed.")
    return types.JSONRPCError(jsonrpc="2.0", id=request_id, error=error)


def _enveloped(payload: dict[str, Any]) -> bool:
    meta = meta_of(payload.get("params"))
    return meta is not None and PROTOCOL_VERSION_META in meta


@dataclass(frozen=True, slots=True)
class Batch:
    """The messages of a 2025-03-26 JSON-RPC batch line, and the error answers of its members that were not."""

    messages: list[types.JSONRPCMessage]
    errors: list[bytes]


def decode_batch(payload: list[Any], envelopes: Envelopes) -> Batch | bytes:
    """Each member of a batch judged by `wire.batch_members` and decoded as a line of its own; an empty or
    oversized batch is one error line."""
    members = batch_members(payload)
    if not isinstance(members, list):
        return error_line(InvalidRequest(reason=members))
    batch = Batch([], [])
    for member in members:
        decoded = decode_message(json.dumps(member.message).encode(), envelopes) if member.message is not None else None
        if member.problem is not None or decoded is None:
            reason = member.problem or msg(NOT_AN_OBJECT)
            batch.errors.append(error_line(InvalidRequest(reason=reason), member.request_id))
        elif isinstance(decoded, bytes):
            batch.errors.append(decoded)
        elif not isinstance(decoded, Batch):  # a member is an object, never a batch itself
            batch.messages.append(decoded)
    return batch


class BatchReplies:
    """Holds the answers to a batch's requests until all are there, then gives them as one array line."""

    def __init__(self) -> None:
        self._waiting: dict[types.RequestId, list[Any]] = {}

    def open(self, batch: Batch) -> bytes | None:
        """Start collecting for a batch; the line to write now when none of its members awaits an answer."""
        ids = [m.id for m in batch.messages if isinstance(m, types.JSONRPCRequest)]
        replies = [json.loads(line) for line in batch.errors]
        if not ids:
            return json.dumps(replies).encode() + b"\n" if replies else None
        pending: list[Any] = [set(ids), replies]
        for request_id in ids:
            self._waiting[request_id] = pending
        return None

    def collect(self, message: types.JSONRPCMessage, line: bytes) -> bytes | None:
        """None while `message` answers a batch member and others still wait; else the line to write."""
        request_id = message.id if isinstance(message, types.JSONRPCResponse | types.JSONRPCError) else None
        pending = self._waiting.pop(request_id, None) if request_id is not None else None
        if pending is None:
            return line
        waiting, replies = pending
        waiting.discard(request_id)
        replies.append(json.loads(line))
        return json.dumps(replies).encode() + b"\n" if not waiting else None


class WireClosed(Exception):
    """The client closed its end of stdout: nobody can read answers any more."""


class Wire:
    """The private duplicate of stdout that carries protocol messages."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def write(self, data: bytes) -> None:
        """Write all bytes (blocking; messages are small and the client reads them)."""
        view = memoryview(data)
        try:
            while view:
                written = os.write(self.fd, view)
                view = view[written:]
        except (BrokenPipeError, ConnectionResetError):
            raise WireClosed from None


def claim_stdio() -> tuple[int, Wire, Callable[[], None]]:
    """Take fds 0 and 1 for the protocol; point them at /dev/null and stderr while serving."""
    sys.stdout.flush()
    stdin_fd, stdout_fd = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    saved_in, saved_out = os.dup(0), os.dup(1)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)

    def restore() -> None:
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        for fd in (saved_in, saved_out, stdin_fd, stdout_fd):
            os.close(fd)

    return stdin_fd, Wire(stdout_fd), restore


async def serve_stdio(server: Server[Any]) -> None:
    """Serve MCP on this process's stdin and stdout until stdin closes."""
    stdin_fd, wire, restore = claim_stdio()
    try:
        await serve_streams(server, stdin_fd, wire)
    finally:
        restore()


class InFlight:
    """Requests forwarded to the server and not yet answered, so end of input can wait for them."""

    def __init__(self) -> None:
        self._ids: set[types.RequestId] = set()
        self._drained = anyio.Event()
        self._drained.set()

    def add(self, message: types.JSONRPCMessage) -> None:
        """Note a request that will be answered, or one the client cancelled (which gets no answer)."""
        if isinstance(message, types.JSONRPCRequest):
            self._ids.add(message.id)
            self._drained = anyio.Event() if self._drained.is_set() else self._drained
        elif isinstance(message, types.JSONRPCNotification) and message.method == "notifications/cancelled":
            cancelled = (message.params or {}).get("requestId")
            if isinstance(cancelled, str | int):
                self._forget(cancelled)

    def answered(self, message: types.JSONRPCMessage) -> None:
        """Note a response leaving."""
        if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
            self._forget(message.id)

    def _forget(self, request_id: types.RequestId | None) -> None:
        if request_id in self._ids:
            self._ids.discard(request_id)
            if not self._ids:
                self._drained.set()

    async def wait(self, timeout: float) -> None:
        """Wait until every request has been answered, at most `timeout` seconds."""
        with anyio.move_on_after(timeout):
            await self._drained.wait()
        if self._ids:
            logger.warning("input closed with %d request(s) still unanswered after %.0fs", len(self._ids), timeout)


async def serve_streams(server: Server[Any], input_fd: int, wire: Wire, drain_timeout: float = DRAIN_SECONDS) -> None:
    """Serve MCP reading lines from `input_fd` and writing responses to `wire`; answer everything before leaving."""
    read_send, read_receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_send, write_receive = anyio.create_memory_object_stream[SessionMessage](0)
    in_flight = InFlight()
    envelopes = Envelopes()
    batches = BatchReplies()

    async def write_responses() -> None:
        async with write_receive:
            async for item in write_receive:
                line = batches.collect(item.message, _encoded(item.message))
                if line is not None:
                    wire.write(line)
                in_flight.answered(item.message)

    async def read_requests() -> None:
        async with read_send:
            async for line in read_lines(input_fd):
                decoded = (
                    decode_message(line, envelopes)
                    if line is not None
                    else error_line(
                        InvalidRequest(
                            reason=msg(N_("message larger than {limit} bytes was skipped."), limit=MAX_LINE_BYTES)
                        )
                    )
                )
                if isinstance(decoded, Batch):
                    at_once = batches.open(decoded)
                    if at_once is not None:
                        wire.write(at_once)
                    for message in decoded.messages:
                        in_flight.add(message)
                        await read_send.send(SessionMessage(message))
                elif isinstance(decoded, bytes):
                    wire.write(decoded)
                elif decoded is not None:
                    in_flight.add(decoded)
                    await read_send.send(SessionMessage(decoded))
            # End of input: requests already read are answered before the server loop is told to stop.
            await in_flight.wait(drain_timeout)

    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(write_responses)
            tasks.start_soon(read_requests)
            await server.run(read_receive, write_send, server.create_initialization_options())
    except* WireClosed:
        logger.info("the client closed stdout; stopping")


def _encoded(message: types.JSONRPCMessage) -> bytes:
    """A message as one line; one that cannot be encoded becomes the internal error answer to its request."""
    try:
        return message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"
    except (UnicodeEncodeError, ValueError):
        logger.exception("an answer could not be encoded")
        request_id = getattr(message, "id", None)
        return error_line(InternalError(), request_id if isinstance(request_id, str | int) else None)


async def read_lines(fd: int) -> Any:
    """Lines of `fd` (None for an over-long one), read without a thread where the fd allows it."""
    splitter = LineSplitter()
    read_chunk = await _chunk_reader(fd)
    while chunk := await read_chunk():
        for line in splitter.feed(chunk):
            yield line
    for line in splitter.finish():
        yield line


async def _chunk_reader(fd: int) -> Callable[[], Any]:
    mode = os.fstat(fd).st_mode
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)):
        # Regular files and /dev/null (`horologe serve < requests.jsonl`) cannot be polled; read them in a thread.
        return lambda: anyio.to_thread.run_sync(os.read, fd, CHUNK_BYTES)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=CHUNK_BYTES)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(fd, "rb", 0, closefd=False))

    async def read() -> bytes:
        return await reader.read(CHUNK_BYTES)

    return read
