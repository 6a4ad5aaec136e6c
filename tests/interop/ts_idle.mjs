// The official TypeScript SDK client (@modelcontextprotocol/sdk, installed in .ci/node by install.sh) held idle on
// one Streamable HTTP connection to horologe, the way VS Code, the Inspector and other TS-based hosts hold theirs.
//
//   node ts_idle.mjs <url> <idle seconds>
//
// Connects (the SDK then opens its GET stream for server-to-client messages), lists tools, stays idle, lists tools
// again, and prints one JSON object on stdout: every error the transport reported while connected (the SDK says
// "SSE stream disconnected" when a stream is cut), and the status of every GET it sent (a stream cut and reopened
// shows as a second GET). Exit code 0 when it ran, 1 with {"error": ...} otherwise.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = process.env.HOROLOGE_NODE_MODULES || path.join(here, "..", "..", ".ci", "node", "node_modules");
const sdk = (rel) => import(pathToFileURL(path.join(modules, "@modelcontextprotocol", "sdk", "dist", "esm", rel)).href);

async function main() {
  const [url, idleText] = process.argv.slice(2);
  const idleSeconds = Number(idleText);
  if (!url || !(idleSeconds >= 0)) {
    throw new Error("usage: ts_idle.mjs <url> <idle seconds>");
  }
  const { Client } = await sdk("client/index.js");
  const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
  const gets = [];
  const counted = async (input, init) => {
    const response = await fetch(input, init);
    if ((init?.method ?? "GET") === "GET") {
      gets.push(response.status);
    }
    return response;
  };
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: counted });
  const client = new Client({ name: "horologe-interop-ts-idle", version: "1.0.0" });
  const errors = [];
  client.onerror = (error) => errors.push(String(error?.message ?? error));
  await client.connect(transport);
  const before = await client.listTools();
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  const after = await client.listTools();
  const report = {
    idleSeconds,
    sessionId: transport.sessionId ?? null,
    errors: [...errors],
    gets,
    toolsBefore: before.tools.length,
    toolsAfter: after.tools.length,
  };
  client.onerror = () => {}; // closing aborts the GET stream on purpose: not an error of the connection
  await client.close();
  process.stdout.write(JSON.stringify(report) + "\n");
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stdout.write(JSON.stringify({ error: String(error?.stack ?? error) }) + "\n");
    process.exit(1);
  },
);
