"""Answers of the authorization server read with a size limit while they stream in, never whole first."""

from __future__ import annotations

from typing import Any

import httpx2


class TooLarge(ValueError):
    """The answer went past its size limit (the rest was never read)."""


async def limited_body(
    client: httpx2.AsyncClient, method: str, url: str, limit: int, **kwargs: Any
) -> tuple[int, bytes]:
    """The status and body of a request, reading at most `limit` bytes; raises TooLarge past it.

    A declared Content-Length past the limit is refused before any of the body is read.
    """
    async with client.stream(method, url, **kwargs) as response:
        declared = response.headers.get("content-length", "")
        if declared.isascii() and declared.isdigit() and int(declared) > limit:
            raise TooLarge(f"answer of {declared} bytes, more than {limit}")
        body = bytearray()
        async for chunk in response.aiter_bytes():
            body += chunk
            if len(body) > limit:
                raise TooLarge(f"answer of more than {limit} bytes")
        return response.status_code, bytes(body)
