/** The command's help texts. */

export const MAIN_HELP = `Usage: mcp-prompt-kit <command> [options]

Prompt files (JSON, YAML, Markdown with front matter) as an MCP prompt server.

Commands:
  check <dir>          validate every prompt file; exit 1 on any error (for CI)
  list <dir>           list the prompts a directory defines
  render <dir> <name>  render one prompt with arguments
  serve <dir>          serve the prompts over MCP (stdio, or streamable HTTP with --http)
  openapi <dir>        print the OpenAPI 3.1 document of the prompts over HTTP (mcp-prompt-kit/http)
  push <dir>           publish the prompts to a label of a PostgreSQL store (only what changed) and show the drift
  pull <dir>           write the prompts a label of a PostgreSQL store serves as files
  preview <dir>        a local page that renders the prompts from a form, live as the files change
  test <dir>           run the example cases beside the prompts; exit 1 on a failure (for CI)

Options:
  -h, --help           show help (also after a command: mcp-prompt-kit serve --help)
  -v, --version        show the version

Exit codes: 0 success, 1 failure (errors found, render failed, a case failed), 2 usage mistake, 3 database
unreachable or failed (push, pull).
`;

const DATABASE = `  --database <url>     the PostgreSQL database (default: the DATABASE_URL variable; never shown with its password)
  --table <name>       the prompt table (default prompts); --schema <name> its schema (default public)
  --timeout <ms>       give up on a connection attempt or request after this long (default 60000): exit 3
  --json               print the report as JSON`;

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
  push: `Usage: mcp-prompt-kit push <dir> [--database <url>] [--label production] [--dry-run] [--prune] [--actor name] [--json]

Publishes the prompts under <dir> to a label of the PostgreSQL store (mcp-prompt-kit/postgres; needs the pg package).
The directory is loaded as 'check' loads it: any error, and nothing is written (exit 1, file:line:col on stderr).
Each prompt is compared with the version the label points at: an equal one is left alone; a changed or new one gets a
new version (or, if the newest version already has its content, the label moves to that), and the label moves to
it. All writes are one transaction: all are committed or none is. Prints the drift: prompts added, changed (per
field) and unchanged, and those under the label that the directory does not have. Creates the tables when missing.
A second push with no change writes nothing. On a database failure exits 3, saying what was applied (nothing, or
everything when only the commit's answer was lost): run it again, it converges.

Options:
  --label <label>      the label to publish to (default production)
  --dry-run            print what would be written, write nothing
  --prune              remove the label from prompts the directory no longer has (their versions and history stay)
  --actor <name>       recorded as who made the change (default: the database user)
${DATABASE}
`,
  pull: `Usage: mcp-prompt-kit pull <dir> [--database <url>] [--label production] [--format json|yaml] [--force] [--json]

Writes the prompts a label of the PostgreSQL store serves into <dir> (created if missing), one file per prompt, so
that 'push' of the directory changes nothing. A prompt the directory already defines is written to its own file (in
that file's format), and only when its content differs; a new one to <name>.json (or .yaml). Each file is written
atomically and only once the loader has read it back as exactly the stored prompt. A file in the way that is not the
prompt's own (another prompt, not a prompt file, or one that does not load) is left alone unless --force; prompts of
the directory that the label does not serve are left alone. Exits 1 when a prompt was not written.

Options:
  --label <label>      the label to read (default production; latest: the newest versions)
  --format <format>    json (default) or yaml, for new files
  --force              replace a file in the way
${DATABASE}
`,
  preview: `Usage: mcp-prompt-kit preview <dir> [--port <n>] [--host 127.0.0.1] [--docs scheme=dir]... [--debounce <ms>]

Serves one local page for writing prompts: the prompts (filter by name or #tag), a form per prompt built from its
argument schema (selects, typed numbers and booleans, defaults, format/pattern hints, completions), the messages as
prompts/get returns them (or the -32602 on the offending fields), a raw-JSON toggle, and a diff of the rendering
against the previous version of the prompt and against git HEAD. Saving a file (or a document it embeds) updates
the page without losing what is typed; a broken edit shows its file:line:col while the last good version stays.
Prints the page's URL on stdout: it carries a random token every request needs. Runs until Ctrl-C.

Options:
  --port <n>           port to listen on (default 0: any free port)
  --host <host>        interface to bind (default 127.0.0.1); off loopback only with --allow-remote
  --allow-remote       allow a --host other machines can reach (the token is still required)
  --debounce <ms>      changes within this window are applied together (default 30)
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
