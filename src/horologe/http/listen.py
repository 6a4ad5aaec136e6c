"""The listening socket, bound before anything starts, and the address a server announces once it accepts.

uvicorn binds after the application has started, so a busy port used to be reported after "Application startup
complete". horologe binds first: a port it cannot have is one `horologe:` line and a non-zero exit before any
start-up message, and "listening on" is said only when requests are accepted.
"""

from __future__ import annotations

import errno
import socket
from typing import Final

_WHY: Final = {
    errno.EADDRINUSE: (
        "the address is already in use (stop the server holding it, or choose another port: --port, PORT)"
    ),
    errno.EACCES: "permission denied (ports below 1024 need privileges: choose one from 1024 up with --port, PORT)",
    errno.EADDRNOTAVAIL: "no interface of this machine has that address (127.0.0.1 for this machine, 0.0.0.0 for all)",
}


class ListenError(ValueError):
    """The server cannot listen where it was asked to; the message says why and what to change."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to `host:port`, inheritable by worker processes (it listens once a server takes it)."""
    bare = host.strip("[]")
    family = socket.AF_INET6 if ":" in bare else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((bare, port))
    except OSError as exc:
        sock.close()
        why = "unknown host name" if isinstance(exc, socket.gaierror) else _WHY.get(exc.errno or 0, exc.strerror)
        raise ListenError(f"cannot listen on {address(host, port)}: {why or exc}") from None
    sock.set_inheritable(True)
    return sock


def address(host: str, port: int) -> str:
    """`host:port`, an IPv6 address in brackets."""
    bare = host.strip("[]")
    return f"[{bare}]:{port}" if ":" in bare else f"{bare}:{port}"


def mcp_url(host: str, port: int) -> str:
    """Where the MCP endpoint of a server bound to `host:port` is: what "listening on" names."""
    return f"http://{address(host, port)}/mcp"
