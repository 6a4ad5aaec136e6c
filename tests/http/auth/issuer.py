"""A real token issuer for tests: keys made at test time (RSA once per process), a JWKS and an RFC 7662 endpoint on
127.0.0.1.

The HTTP server is the standard library's, in a thread, on a free port. It counts JWKS fetches and introspection
calls so tests can see caching and refetch limits.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import json
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from jwt.algorithms import ECAlgorithm, OKPAlgorithm, RSAAlgorithm

RESOURCE = "http://127.0.0.1:8080/mcp"
CLIENT_ID = "horologe-rs"
CLIENT_SECRET = "s3cret-for-tests"


@dataclass
class Key:
    """A private key with its kid and JWS algorithm."""

    kid: str
    alg: str
    private: Any

    def public_jwk(self) -> dict[str, Any]:
        family = {"RS": RSAAlgorithm, "PS": RSAAlgorithm, "ES": ECAlgorithm, "Ed": OKPAlgorithm}[self.alg[:2]]
        jwk: dict[str, Any] = family.to_jwk(self.private.public_key(), as_dict=True)  # type: ignore[attr-defined]
        return {**jwk, "kid": self.kid, "alg": self.alg, "use": "sig"}


@functools.cache
def _rsa_private() -> rsa.RSAPrivateKey:
    """One RSA 2048 key per process: making one takes ~65 ms of CPU (36 issuers made 2.4 s of the suite), and no test
    needs two different RSA keys; a test that needs a key the server has never seen makes an EC or Ed25519 one."""
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def new_key(alg: str = "RS256", kid: str | None = None) -> Key:
    """A key for `alg` under a fresh kid: RSA 2048 (the process's one RSA key), or a fresh EC P-256 or Ed25519."""
    if alg.startswith(("RS", "PS")):
        private: Any = _rsa_private()
    elif alg == "ES256":
        private = ec.generate_private_key(ec.SECP256R1())
    else:
        private = ed25519.Ed25519PrivateKey.generate()
    return Key(kid or f"{alg.lower()}-{uuid.uuid4().hex[:8]}", alg, private)


@dataclass
class Issuer:
    """Signs tokens, publishes the JWKS, answers introspection; `url` is its issuer identifier."""

    keys: list[Key]
    port: int = 0
    jwks_fetches: int = 0
    introspections: int = 0
    opaque: dict[str, dict[str, Any]] = field(default_factory=dict)
    jwks_status: int = 200
    delay: float = 0.0
    token_log: list[str] = field(default_factory=list)
    flood_bytes: int = 0
    """When set, the JWKS and introspection answers are this many bytes of JSON whitespace, streamed without a
    Content-Length (a hostile issuer); `flood_sent` counts what the client let through."""
    flood_sent: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def jwks_url(self) -> str:
        return f"{self.url}/jwks"

    @property
    def introspection_url(self) -> str:
        return f"{self.url}/introspect"

    def jwks(self) -> dict[str, Any]:
        return {"keys": [key.public_jwk() for key in self.keys]}

    def claims(self, **overrides: Any) -> dict[str, Any]:
        now = int(time.time())
        claims = {
            "iss": self.url,
            "aud": RESOURCE,
            "sub": "user-1",
            "client_id": "client-a",
            "scope": "horologe:read",
            "iat": now,
            "exp": now + 300,
            "jti": uuid.uuid4().hex,
        }
        claims.update(overrides)
        return {name: value for name, value in claims.items() if value is not None}

    def token(self, key: Key | None = None, headers: dict[str, Any] | None = None, **claims: Any) -> str:
        """A JWT signed with `key` (the first key by default); claims override the defaults, None drops one."""
        key = key or self.keys[0]
        return jwt.encode(
            self.claims(**claims), key.private, algorithm=key.alg, headers={"kid": key.kid, **(headers or {})}
        )

    def opaque_token(self, **claims: Any) -> str:
        """An opaque token that introspection describes with these claims (active unless told otherwise)."""
        token = uuid.uuid4().hex
        self.opaque[token] = {"active": True, "token_type": "Bearer", **self.claims(**claims)}
        return token


def serve(issuer: Issuer) -> ThreadingHTTPServer:
    """Start the issuer's HTTP server on a free loopback port (a daemon thread); returns it for shutdown()."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def answer(self, status: int, body: object) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up (timeout tests)
                self.wfile.write(data)

        def flood(self) -> bool:
            if not issuer.flood_bytes:
                return False
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            chunk = b" " * 65536
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                while issuer.flood_sent < issuer.flood_bytes:
                    self.wfile.write(chunk)
                    issuer.flood_sent += len(chunk)
            self.close_connection = True
            return True

        def do_GET(self) -> None:
            if self.flood():
                return
            if self.path != "/jwks":
                self.answer(404, {"error": "not found"})
                return
            issuer.jwks_fetches += 1
            time.sleep(issuer.delay)
            self.answer(issuer.jwks_status, issuer.jwks() if issuer.jwks_status == 200 else {"error": "down"})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            form = parse_qs(self.rfile.read(length).decode())
            expected = "Basic " + base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
            if self.path != "/introspect" or self.headers.get("Authorization") != expected:
                self.answer(401, {"error": "invalid_client"})
                return
            issuer.introspections += 1
            if self.flood():
                return
            token = form.get("token", [""])[0]
            self.answer(200, issuer.opaque.get(token, {"active": False}))

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    issuer.port = server.server_address[1]
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()
    return server


@contextlib.contextmanager
def live_issuer(*algorithms: str) -> Iterator[Issuer]:
    """An issuer with a key per algorithm (see `new_key`), served on loopback while the block runs."""
    issuer = Issuer([new_key(alg) for alg in algorithms])
    server = serve(issuer)
    try:
        yield issuer
    finally:
        server.shutdown()
        server.server_close()
