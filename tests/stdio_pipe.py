"""horologe's stdio edge served in process over two pipes, and an SDK client transport on their other ends.

The server side is the real edge (`horologe.stdio.serve_streams`: line splitting, decoding, error lines, the
wire writer, draining at end of input); only the process boundary is missing. The client reads its pipe in a
worker thread, as a separate process would, so the edge's blocking writes never wait on the event loop.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.lowlevel.server import Server
from mcp.shared.message import SessionMessage

from horologe.stdio import LineSplitter, Wire, serve_streams

Streams = tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]


@asynccontextmanager
async def served_over_pipes(server: Server[Any]) -> AsyncIterator[Streams]:
    """Serve `server` on a pipe pair through the stdio edge; yield the client's read and write streams."""
    requests_read, requests_write = os.pipe()
    answers_read, answers_write = os.pipe()
    to_client, client_reads = anyio.create_memory_object_stream[SessionMessage | Exception](32)
    client_writes, from_client = anyio.create_memory_object_stream[SessionMessage](32)

    async def serve() -> None:
        try:
            await serve_streams(server, requests_read, Wire(answers_write), drain_timeout=5)
        finally:
            os.close(answers_write)  # the client sees end of output once the server is done
            os.close(requests_read)

    async def send_requests() -> None:
        async with from_client:
            async for message in from_client:
                line = message.message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"
                await anyio.to_thread.run_sync(os.write, requests_write, line)
        os.close(requests_write)  # end of input: the edge answers what it read, then stops

    async def read_answers() -> None:
        splitter = LineSplitter()
        async with to_client:
            # Read to the end even after the client stopped listening, so the server never blocks on a full pipe.
            while chunk := await anyio.to_thread.run_sync(os.read, answers_read, 65536):
                for line in splitter.feed(chunk):
                    assert line is not None
                    message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                    with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                        await to_client.send(SessionMessage(message))
        os.close(answers_read)

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(serve)
        tasks.start_soon(send_requests)
        tasks.start_soon(read_answers)
        yield client_reads, client_writes
        await client_writes.aclose()


class PipeTransport:
    """An SDK client `Transport` over `served_over_pipes`."""

    def __init__(self, server: Server[Any]) -> None:
        self._context = served_over_pipes(server)

    async def __aenter__(self) -> Streams:
        return await self._context.__aenter__()

    async def __aexit__(self, *exc_info: Any) -> bool | None:
        return await self._context.__aexit__(*exc_info)


async def exchange_lines(server: Server[Any], lines: list[bytes]) -> list[Any]:
    """Write these exact lines to the stdio edge, close its input, and return every line it answered, parsed."""
    requests_read, requests_write = os.pipe()
    answers_read, answers_write = os.pipe()
    answers: list[Any] = []

    async def serve() -> None:
        try:
            await serve_streams(server, requests_read, Wire(answers_write), drain_timeout=5)
        finally:
            os.close(answers_write)
            os.close(requests_read)

    def write_all() -> None:
        for line in lines:
            os.write(requests_write, line if line.endswith(b"\n") else line + b"\n")
        os.close(requests_write)

    async def read_all() -> None:
        splitter = LineSplitter()
        while chunk := await anyio.to_thread.run_sync(os.read, answers_read, 65536):
            answers.extend(json.loads(line) for line in splitter.feed(chunk) if line is not None)
        os.close(answers_read)

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(serve)
        tasks.start_soon(read_all)
        await anyio.to_thread.run_sync(write_all)
    return answers
