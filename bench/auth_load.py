"""Cost of auth (JWT via JWKS) plus Redis-backed rate limits on /mcp, next to the same server unprotected.

Starts a redis-server and a token issuer on loopback, then horologe twice (plain; auth + Redis limits) and drives
/mcp with bench/drive.py on the realistic mix (bench/mix.py, 32 clients, 10 s, 2026-07-28 era), with a bearer
token on the protected one. Prints a Markdown table.

    .venv/bin/python bench/auth_load.py [--duration 10] [--concurrency 32] [--rounds 1] [--era modern|legacy]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from needs import require_shared  # noqa: E402  (bench/, the script's own directory)

from tests.e2e.conftest import free_port, start_http_server  # noqa: E402
from tests.e2e.test_ratelimit_redis import Redis  # noqa: E402
from tests.http.auth.issuer import Issuer, new_key, serve  # noqa: E402  (the tests' real issuer, reused)


def run(url: str, args: argparse.Namespace, label: str, authorization: str = "") -> dict[str, Any]:
    """One 32-client run of the full mix against url; its JSON result, labelled."""
    command = [
        sys.executable,
        str(ROOT / "bench" / "drive.py"),
        "http",
        "--url",
        url,
        "--mix",
        "full",
        "--era",
        args.era,
        "--concurrency",
        str(args.concurrency),
        "--duration",
        str(args.duration),
        "--authorization",
        authorization,
    ]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    found: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return {"label": label, **found}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--era", choices=("modern", "legacy"), default="modern")
    args = parser.parse_args()
    require_shared(args.shared, "tools/http_bench.py")
    if shutil.which("redis-server") is None:
        raise SystemExit("redis-server is not installed")
    issuer = Issuer([new_key("RS256")])
    issuer_server = serve(issuer)
    redis = Redis()
    redis.start()
    port = free_port()
    protected_env = {
        "HOROLOGE_AUTH__ENABLED": "true",
        "HOROLOGE_AUTH__ISSUER": issuer.url,
        "HOROLOGE_AUTH__RESOURCE": f"http://127.0.0.1:{port}/mcp",
        "HOROLOGE_AUTH__JWKS_URL": issuer.jwks_url,
        "HOROLOGE_RATE_LIMIT__ENABLED": "true",
        "HOROLOGE_RATE_LIMIT__STORAGE_URI": f"redis://127.0.0.1:{redis.port}/0",
        "HOROLOGE_RATE_LIMIT__DEFAULT": "100000000/hour",
        "HOROLOGE_HTTP__ACCESS_LOG": "false",
    }
    plain = start_http_server(env={"HOROLOGE_HTTP__ACCESS_LOG": "false"})
    protected = start_http_server(env=protected_env, port=port)
    token = issuer.token(aud=f"http://127.0.0.1:{port}/mcp", exp=2**31 - 1)
    rows = []
    try:
        for _ in range(args.rounds):  # interleaved, so drift hits both alike
            rows.append(run(f"{plain.url}/mcp", args, "off"))
            rows.append(run(f"{protected.url}/mcp", args, "auth+redis", f"Bearer {token}"))
    finally:
        plain.stop()
        protected.stop()
        redis.kill()
        issuer_server.shutdown()
    print("| config | req/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['label']} | {row['req_per_s']} | {row['p50_ms']} | {row['p99_ms']} | {row.get('errors', 0)} |")
    off = [row["req_per_s"] for row in rows if row["label"] == "off"]
    on = [row["req_per_s"] for row in rows if row["label"] != "off"]
    print(f"\nratio on/off (mean req/s): {sum(on) / len(on) / (sum(off) / len(off)):.3f}")


if __name__ == "__main__":
    main()
