"""`python -m release COMMAND`: the release artefacts the Makefile builds into dist/ (see `make dist`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from release import bundle, docs, image, registry, sizes
from release.identity import ROOT, identity, unpublishable


def main(argv: Sequence[str] | None = None) -> int:
    """Build the artefact the command names; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m release", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("dist"), help="where artefacts go (default dist/)")
    commands = parser.add_subparsers(dest="command", required=True)
    make_bundle = commands.add_parser("bundle", help="the MCP Bundle, <out>/horologe-<version>.mcpb")
    make_bundle.add_argument("--wheel", type=Path, required=True, help="horologe's wheel")
    make_bundle.add_argument("--requirements", type=Path, required=True, help="`uv export` of the locked dependencies")
    make_bundle.add_argument("--uv", type=Path, required=True, help="the uv that locks the bundle")
    commands.add_parser("server-json", help="<out>/server.json for the MCP Registry (after `bundle`)")
    commands.add_parser("image-context", help="<out>/image/, the image's build context")
    commands.add_parser("docs", help="rewrite the parts of README.md and docs/ that list tools, from the registry")
    commands.add_parser("sizes", help="write the artefacts' sizes (from <out>/) into docs/deployment.md")
    commands.add_parser("publishable", help="refuse (exit 1) a placeholder or foreign owner, or `released = false`")
    args = parser.parse_args(argv)
    me = identity()
    if args.command == "bundle":
        pins = [line.strip() for line in args.requirements.read_text(encoding="utf-8").splitlines()]
        requirements = [pin for pin in pins if pin and not pin.startswith("#")]
        print(bundle.build(me, args.wheel, requirements, args.uv, args.out))
    elif args.command == "server-json":
        entry = registry.server_json(me, bundle.sha256(args.out / me.bundle_name))
        (args.out / "server.json").write_text(json.dumps(entry, indent=2) + "\n", encoding="utf-8")
        print(args.out / "server.json")
    elif args.command == "image-context":
        print(image.context(me, image.revision(), args.out))
    elif args.command == "publishable":
        refused = unpublishable(me)
        for reason in refused:
            print(reason, file=sys.stderr)
        return 1 if refused else 0
    elif args.command == "sizes":
        table = sizes.table(me, sizes.measure(me, args.out))
        docs.fill(ROOT / "docs" / "deployment.md", "sizes", table, command="sizes")
        print(table)
    else:
        for changed in docs.write():
            print(f"rewrote {changed}")
    return 0


raise SystemExit(main())
