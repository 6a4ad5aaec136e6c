// The official TypeScript SDK client (@modelcontextprotocol/sdk, installed in .ci/node by install.sh) against horologe.
//
//   node ts_client.mjs stdio <command> [args...]    spawns the server (e.g. python -m horologe serve)
//   node ts_client.mjs http <url>                   Streamable HTTP (e.g. http://127.0.0.1:8080/mcp)
//
// Connects, lists tools, calls get_current_time and convert_timezone with request _meta carrying a language
// preference (io.modelcontextprotocol/acceptLanguage) and W3C trace context (traceparent/tracestate), and prints
// one JSON object on stdout for the pytest to assert on. Exit code 0 on success, 1 with {"error": ...} otherwise.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = process.env.HOROLOGE_NODE_MODULES || path.join(here, "..", "..", ".ci", "node", "node_modules");
const sdk = (rel) => import(pathToFileURL(path.join(modules, "@modelcontextprotocol", "sdk", "dist", "esm", rel)).href);

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const META = {
  "io.modelcontextprotocol/acceptLanguage": "de-AT, de;q=0.9, en;q=0.5",
  traceparent: TRACEPARENT,
  tracestate: "horologe=interop",
};

async function main() {
  const [mode, ...rest] = process.argv.slice(2);
  const { Client } = await sdk("client/index.js");
  let transport;
  if (mode === "stdio") {
    const { StdioClientTransport } = await sdk("client/stdio.js");
    transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: "ignore" });
  } else if (mode === "http") {
    const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
    // SEP-2792 C4: a client sending _meta acceptLanguage MUST send an Accept-Language header that agrees exactly.
    // SDK 1.32 does not do it, and Node's fetch (undici) otherwise sends "Accept-Language: *" on every request,
    // which a conforming server rejects with -32020 HeaderMismatch. So the script sets it, for every request.
    const requestInit = { headers: { "Accept-Language": META["io.modelcontextprotocol/acceptLanguage"] } };
    transport = new StreamableHTTPClientTransport(new URL(rest[0]), { requestInit });
  } else {
    throw new Error(`usage: ts_client.mjs stdio <command...> | http <url> (got ${mode})`);
  }
  const client = new Client({ name: "horologe-interop-ts", version: "1.0.0" });
  await client.connect(transport);
  const pick = (result) => ({
    isError: result.isError ?? false,
    structuredContent: result.structuredContent ?? null,
    meta: result._meta ?? null,
    text: result.content?.[0]?.text ?? null,
  });
  try {
    const tools = await client.listTools();
    const now = await client.callTool({
      name: "get_current_time",
      arguments: { timezone: "Europe/Vienna" },
      _meta: META,
    });
    const converted = await client.callTool({
      name: "convert_timezone",
      arguments: { timestamp: "2026-03-29T00:30:00Z", from_timezone: "UTC", to_timezone: "Europe/Vienna" },
      _meta: META,
    });
    const report = {
      transport: mode,
      sdkVersion: (await import(pathToFileURL(path.join(modules, "@modelcontextprotocol", "sdk", "package.json")).href, { with: { type: "json" } })).default.version,
      serverInfo: client.getServerVersion() ?? null,
      capabilities: client.getServerCapabilities() ?? null,
      tools: tools.tools.map((tool) => tool.name),
      getCurrentTime: pick(now),
      convertTimezone: pick(converted),
    };
    process.stdout.write(JSON.stringify(report) + "\n");
  } finally {
    await client.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stdout.write(JSON.stringify({ error: String(error?.stack ?? error) }) + "\n");
    process.exit(1);
  },
);
