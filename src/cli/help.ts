/** The command's help texts. */

export const MAIN_HELP = `Usage: mcp-prompt-kit <command> [options]

Prompt files (JSON, YAML, Markdown with front matter) as an MCP prompt server.

Commands:
  check <dir>          validate every prompt file; exit 1 on any error (for CI)
  list <dir>           list the prompts a directory defines
  render <dir> <name>  render one prompt with arguments
  serve <dir>          serve the prompts over MCP (stdio, or streamable HTTP with --http)
  openapi <dir>        print the OpenAPI 3.1 document of the prompts over HTTP (mcp-prompt-kit/http)
  test <dir>           run the example cases beside the prompts; exit 1 on a failure (for CI)

Options:
  -h, --help           show help (also after a command: mcp-prompt-kit serve --help)
  -v, --version        show the version

Exit codes: 0 success, 1 failure (errors found, render failed, a case failed), 2 usage mistake.
`;

const DOCS = `  --docs <scheme=dir>  serve {{resource:scheme://...}} documents from dir (repeatable)`;

export const COMMAND_HELP: Readonly<Record<string, string>> = {
  check: `Usage: mcp-prompt-kit check <dir> [--json] [--docs scheme=dir]...

Validates every prompt file under <dir> (recursive): syntax, definition fields, templates, limits, duplicate
names, and the documents prompts embed: a {{resource:URI}} directive or resource block that no --docs root serves
is an error at its file:line:col. Prints one line per problem, then a summary line, all on stdout. Exits 1 when
there is any error.

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
  --arg <key=value>    an argument (repeatable)
  --args-json <json>   arguments as a JSON object (repeatable)
                       --arg and --args-json apply in the order given: a later one overrides the keys it sets
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
  test: `Usage: mcp-prompt-kit test <dir> [--update] [--reporter default|junit] [--output <file>] [--filter <text>] [--docs scheme=dir]...

Runs every example case of the prompts under <dir> (a prompt file's \`cases\`, or <name>.cases.yaml / .cases.json
beside it) through prompts/get, without a model or network. Prints each case that failed with a diff of expected
(-) and actual (+), then a summary line. Exits 0 when all pass, 1 when one fails, 2 on a usage mistake or when the
directory has errors (as 'check' reports them).

Options:
  --update             rewrite the messages snapshot of each case whose snapshot differs (or that has no
                       expectation yet), in place: only that case's messages change; the write is atomic
  --reporter <name>    default, or junit: JUnit XML for CI on stdout (or in --output)
  --output <file>      write the JUnit XML to this file (the default report still goes to stdout)
  --filter <text>      run only the cases whose <prompt>/<case name> contains this text
${DOCS}
`,
  serve: `Usage: mcp-prompt-kit serve <dir> [--docs scheme=dir]... [--watch] [--http <port> [--host 127.0.0.1]]

Serves the prompts under <dir> as an MCP server: prompts/list, prompts/get, completion/complete, and with --docs
resources/list and resources/read. Speaks the 2025-11-25 (initialize) and 2026-07-28 (server/discover) protocol
eras. Checks the directory as 'check' does first: exits 1, naming them, when a prompt would be left out (a file
with an error) or embeds documents no --docs root serves. Needs the MCP SDK v2: npm install @modelcontextprotocol/server.

Options:
  --watch                   reload on file changes (notifications/prompts/list_changed; the log shows
                            +added ~changed -removed); without it no list_changed is promised
  --debounce <ms>           changes within this window are applied together (default 100)
  --http <port>             streamable HTTP at http://<host>:<port>/mcp instead of stdio (0: a free port);
                            2025-era clients get sessions (Mcp-Session-Id, GET stream, DELETE ends one)
  --max-sessions <n>        2025-era sessions held at once with --http (default 100); at the limit the one idle
                            the longest makes room, and when all are in use a new one gets 503
  --idle-timeout <ms>       close a session without requests or open streams for this long (default 300000)
  --host <host>             interface to bind with --http (default 127.0.0.1). Off loopback (0.0.0.0, a LAN
                            address) --allowed-host is required and only the listed names are accepted
  --allowed-host <name>     accept this Host header name (repeatable); on loopback localhost names always are
  --allowed-origin <name>   also accept browser requests from this Origin hostname (repeatable)
  --name <name>             server name reported to clients (default mcp-prompt-kit)
  --no-elicitation          answer a prompts/get without its required arguments with -32602 only; by default a
                            2026-07-28 client that declared form elicitation is asked for them with a form
  --cache-ttl <ms>          2026-07-28 cache hint (ttlMs) of every list, read and server/discover result, instead
                            of the derived ones (without --watch: 3600000 for prompts and discover, 0 for documents;
                            with --watch: how long a change may take to be announced). Up to 86400000
  --cache-scope <scope>     public (default: listings do not vary per caller) or private
${DOCS}

Over stdio, stdout carries only the protocol; logs go to stderr.
`,
};
