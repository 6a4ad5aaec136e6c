"""The era guard: on POST /mcp, the body decides the protocol era and the `MCP-Protocol-Version` header must agree.

The SDK routes by the header alone, so a 2026-07-28 request (its `_meta` names a protocol version) sent with a
2025 header, or with none, would be served as a 2025 request. The 2026-07-28 texts make the header required and
equal to the envelope's version: such a request is refused with HTTP 400 and -32020 (HeaderMismatch), naming the
header to send. A revision we do not speak is refused with -32022 and the list of every revision we do speak:
first an unknown header (it takes precedence over a mismatch, conformance PR #293), then, once header and
envelope agree, an envelope version that is not a per-request revision. The conformance suite holds this order:
a known header over an unknown envelope version is a mismatch.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Receive, Scope, Send

from horologe.http.asgi import header, refuse
from horologe.http.errors import HeaderMismatch
from horologe.http.request import facts_of
from horologe.protocol.errors import unsupported_version_error
from horologe.wire import PROTOCOL_VERSION_META, SUPPORTED_VERSIONS, envelope_version, unsupported_version

VERSION_HEADER = b"mcp-protocol-version"


class EraGuard:
    """POST /mcp behind the body guard: refuse a request whose header and body disagree on the era."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        facts = facts_of(scope)
        if facts is None or not isinstance(facts.payload, dict) or "method" not in facts.payload:
            await self.app(scope, receive, send)
            return
        version_header = header(scope, VERSION_HEADER)
        if version_header is not None and version_header not in SUPPORTED_VERSIONS:
            await refuse(send, unsupported_version_error(version_header), facts.request_id)
            return
        enveloped, version = envelope_version(facts.payload)
        if enveloped and version_header != version:
            error = HeaderMismatch(
                field=repr(PROTOCOL_VERSION_META),
                body=json.dumps(version)[:60],
                header="MCP-Protocol-Version",
                value="absent" if version_header is None else json.dumps(version_header),
                data={"mismatch": {"header": "MCP-Protocol-Version", "body": "params._meta." + PROTOCOL_VERSION_META}},
            )
            await refuse(send, error, facts.request_id)
            return
        requested = unsupported_version(facts.payload)
        if requested is not None:
            await refuse(send, unsupported_version_error(requested), facts.request_id)
            return
        await self.app(scope, receive, send)
