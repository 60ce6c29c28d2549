/**
 * Drives one third-party MCP client against a prompt server, as an application using that client would: list the
 * prompts, get one with its arguments, then get it without its required argument and catch the error. Prints one JSON
 * line per target: `{ target, prompts, text, error: { code, message, data } }` (or `{ target, failure }`).
 *
 * Run as `node drive.mjs <client> '<targets JSON>'` (the clients that need Node 22 run so, under that binary), or
 * import `drive` (the ones that run on this Node). Targets: `{ stdio: { command, args } }` or `{ http: url }`.
 * Clients: `ai-sdk` (@ai-sdk/mcp createMCPClient), `mastra` (@mastra/mcp MCPClient), `langchain`
 * (@langchain/mcp-adapters MultiServerMCPClient).
 */
import { pathToFileURL } from 'node:url';

/** The prompt each client gets: `create-adr` of examples/prompts, its `title` argument required. */
export const PROMPT = { name: 'create-adr', args: { title: 'Adopt JSON' } };
const SERVER = 'prompts';

/** The JSON-RPC error a client surfaced, wherever that client keeps it (its own error class or its cause). */
function rpcError(error) {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 5; e = e.cause, depth++) {
    if (typeof e.code === 'number') return { code: e.code, message: String(e.message), data: e.data };
  }
  return { code: undefined, message: String(error?.message ?? error), data: undefined };
}

/** Which protocol era answered: a 2026-07-28 result names its server in `_meta`, an initialize-era one does not. */
function eraOf(result) {
  return result?._meta?.['io.modelcontextprotocol/serverInfo'] === undefined ? '2025-11-25' : '2026-07-28';
}

function firstText(result) {
  const content = result?.messages?.[0]?.content;
  return typeof content?.text === 'string' ? content.text : undefined;
}

/** @ai-sdk/mcp: createMCPClient over its stdio transport or its HTTP (streamable) transport. */
async function aiSdk(target) {
  const { createMCPClient } = await import('@ai-sdk/mcp');
  let transport;
  if (target.stdio !== undefined) {
    const { StdioMCPTransport } = await import('@ai-sdk/mcp/mcp-stdio');
    transport = new StdioMCPTransport({ ...target.stdio, env: { ...process.env } });
  } else {
    transport = { type: 'http', url: target.http };
  }
  const client = await createMCPClient({ transport });
  try {
    const listed = await client.listPrompts();
    const got = await client.getPrompt({ name: PROMPT.name, arguments: PROMPT.args });
    let error;
    try {
      await client.getPrompt({ name: PROMPT.name, arguments: {} });
    } catch (caught) {
      error = rpcError(caught);
    }
    return { prompts: listed.prompts.map((p) => p.name), text: firstText(got), era: eraOf(got), error };
  } finally {
    await client.close();
  }
}

/** @mastra/mcp: MCPClient with one server, by command (stdio) or URL (streamable HTTP). */
async function mastra(target) {
  const { MCPClient } = await import('@mastra/mcp');
  const server =
    target.stdio !== undefined
      ? { command: target.stdio.command, args: target.stdio.args, env: { ...process.env } }
      : { url: new URL(target.http) };
  const client = new MCPClient({ id: `drive-${process.pid}-${Math.random()}`, servers: { [SERVER]: server } });
  try {
    // list() logs and swallows a server's failure (an empty list); listWithErrors says why.
    const listed = await client.prompts.listWithErrors();
    if (Object.keys(listed.errors).length > 0) throw new Error(`prompts/list: ${JSON.stringify(listed.errors)}`);
    const got = await client.prompts.get({ serverName: SERVER, name: PROMPT.name, args: PROMPT.args });
    let error;
    try {
      await client.prompts.get({ serverName: SERVER, name: PROMPT.name, args: {} });
    } catch (caught) {
      error = rpcError(caught);
    }
    return { prompts: (listed.prompts[SERVER] ?? []).map((p) => p.name), text: firstText(got), era: eraOf(got), error };
  } finally {
    await client.disconnect();
  }
}

/** @langchain/mcp-adapters: MultiServerMCPClient; prompts go through its per-server SDK client (getClient). */
async function langchain(target) {
  const { MultiServerMCPClient } = await import('@langchain/mcp-adapters');
  const connection =
    target.stdio !== undefined
      ? { transport: 'stdio', command: target.stdio.command, args: target.stdio.args, env: { ...process.env } }
      : { transport: 'http', url: target.http };
  // Connecting loads tools; a prompts-only server answers tools/list with -32601, which 'ignore' lets through.
  const client = new MultiServerMCPClient({ mcpServers: { [SERVER]: connection }, onConnectionError: 'ignore' });
  try {
    const sdk = await client.getClient(SERVER);
    if (sdk === undefined) throw new Error('getClient() returned no client: the connection failed');
    const listed = await sdk.listPrompts();
    const got = await sdk.getPrompt({ name: PROMPT.name, arguments: PROMPT.args });
    let error;
    try {
      await sdk.getPrompt({ name: PROMPT.name, arguments: {} });
    } catch (caught) {
      error = rpcError(caught);
    }
    return { prompts: listed.prompts.map((p) => p.name), text: firstText(got), era: eraOf(got), error };
  } finally {
    await client.close();
  }
}

const CLIENTS = { 'ai-sdk': aiSdk, mastra, langchain };

/** Runs `client` against each target in turn; a target's failure is reported, not thrown. */
export async function drive(client, targets) {
  const run = CLIENTS[client];
  if (run === undefined) throw new Error(`unknown client '${client}' (${Object.keys(CLIENTS).join(', ')})`);
  const results = [];
  for (const target of targets) {
    try {
      results.push({ target, ...(await run(target)) });
    } catch (error) {
      results.push({ target, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [client, targets] = process.argv.slice(2);
  const results = await drive(client ?? '', JSON.parse(targets ?? '[]'));
  for (const result of results) process.stdout.write(`${JSON.stringify(result)}\n`);
  // Clients may keep timers or sockets alive after close: the results are out, so end here.
  process.exit(0);
}
