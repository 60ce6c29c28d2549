/** The command's help texts. */

export const MAIN_HELP = `Usage: mcp-prompt-kit <command> [options]

Prompt files (JSON, YAML, Markdown with front matter) as an MCP prompt server.

Commands:
  check <dir>          validate every prompt file; exit 1 on any error (for CI)
  list <dir>           list the prompts a directory defines
  render <dir> <name>  render one prompt with arguments
  serve <dir>          serve the prompts over MCP (stdio, or streamable HTTP with --http)
  openapi <dir>        print the OpenAPI 3.1 document of the prompts over HTTP (mcp-prompt-kit/http)

Options:
  -h, --help           show help (also after a command: mcp-prompt-kit serve --help)
  -v, --version        show the version

Exit codes: 0 success, 1 failure (errors found, render failed), 2 usage mistake.
`;

const DOCS = `  --docs <scheme=dir>  serve {{resource:scheme://...}} documents from dir (repeatable)`;

export const COMMAND_HELP: Readonly<Record<string, string>> = {
  check: `Usage: mcp-prompt-kit check <dir> [--json] [--docs scheme=dir]...

Validates every prompt file under <dir> (recursive): syntax, definition fields, templates, limits, duplicate
names. Prints one line per problem, file:line:col: message. Exits 1 when there is any error.

Options:
  --json               print {files, prompts, errors, warnings, diagnostics} as JSON
${DOCS}
`,
  list: `Usage: mcp-prompt-kit list <dir> [--json] [--docs scheme=dir]...

Lists the prompts under <dir>: name, arguments (* = required) and description. Problems go to stderr.

Options:
  --json               print the prompts/list result as JSON
${DOCS}
`,
  render: `Usage: mcp-prompt-kit render <dir> <name> [--arg key=value]... [--args-json '{...}'] [--json] [--docs scheme=dir]...

Renders one prompt as prompts/get would, with its arguments validated.

Options:
  --arg <key=value>    an argument (repeatable; wins over --args-json)
  --args-json <json>   arguments as a JSON object
  --json               print the GetPromptResult as JSON
${DOCS}
`,
  openapi: `Usage: mcp-prompt-kit openapi <dir> [--title T] [--version V] [--server-url URL] [--base-path /api] [--docs scheme=dir]...

Prints the OpenAPI 3.1 document of the prompts under <dir> as createFetchHandler / createNodeHandler serve them
(mcp-prompt-kit/http): GET /prompts, GET and POST /prompts/{name}, GET /openapi.json. Problems go to stderr; exits 1
when a file has an error.

Options:
  --title <text>       info.title (default "Prompts")
  --version <text>     info.version (default "1.0.0")
  --server-url <url>   servers[0].url
  --base-path <path>   the handlers' basePath
${DOCS}
`,
  serve: `Usage: mcp-prompt-kit serve <dir> [--docs scheme=dir]... [--watch] [--http <port> [--host 127.0.0.1]]

Serves the prompts under <dir> as an MCP server: prompts/list, prompts/get, completion/complete, and with --docs
resources/list and resources/read. Speaks the 2025-11-25 (initialize) and 2026-07-28 (server/discover) protocol
eras. Needs the MCP SDK v2: npm install @modelcontextprotocol/server.

Options:
  --watch                   reload on file changes (notifications/prompts/list_changed)
  --debounce <ms>           changes within this window are applied together (default 100)
  --http <port>             streamable HTTP at http://<host>:<port>/mcp instead of stdio (0: a free port)
  --host <host>             interface to bind with --http (default 127.0.0.1)
  --allowed-host <name>     also accept this Host header (repeatable; localhost names always are)
  --allowed-origin <name>   also accept browser requests from this Origin hostname (repeatable)
  --name <name>             server name reported to clients (default mcp-prompt-kit)
${DOCS}

Over stdio, stdout carries only the protocol; logs go to stderr.
`,
};
