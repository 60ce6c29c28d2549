/**
 * The preview page: plain HTML, CSS and one small ES module, served from these strings (no framework, no CDN: it works
 * offline). The script puts every server value into the DOM with textContent or properties, never as HTML.
 */
import { SCRIPT_OUTPUT } from './page-output.js';
import { SCRIPT_STATE } from './page-state.js';

/** The page (its script and style are separate requests, so the page's CSP allows no inline code). */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mcp-prompt-kit preview</title>
<link rel="stylesheet" href="/app.css">
<script type="module" src="/app.js"></script>
</head>
<body>
<header><h1>mcp-prompt-kit preview</h1><span id="status" role="status">connecting…</span></header>
<main>
<nav aria-label="Prompts">
<input id="filter" type="search" placeholder="Filter by name, title or #tag" aria-label="Filter prompts" autocomplete="off">
<p id="count"></p>
<ul id="prompts"></ul>
<section id="problems" class="diagnostics" hidden><h2>Problems</h2><ul></ul></section>
</nav>
<section id="detail"><p class="muted">Pick a prompt on the left.</p></section>
</main>
</body>
</html>
`;

/** The page's style. */
export const PAGE_CSS = `:root { color-scheme: light dark; --fg: #1d2329; --muted: #5d6873; --bg: #f7f8fa; --panel: #fff; --line: #d9dee3; --accent: #2957c4; --bad: #b3261e; --good: #1e7a3c; --add: #e6f4ea; --del: #fce8e6; font: 14px/1.45 system-ui, sans-serif; }
@media (prefers-color-scheme: dark) { :root { --fg: #e4e7eb; --muted: #9aa5b1; --bg: #15181c; --panel: #1d2126; --line: #343a42; --accent: #7ea2ff; --bad: #ff8a80; --good: #7bd88f; --add: #173b24; --del: #4a1f1c; } }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); }
body > header { display: flex; align-items: center; gap: 1rem; padding: .6rem 1rem; border-bottom: 1px solid var(--line); background: var(--panel); }
h1 { font-size: 1.05rem; margin: 0; }
#status { font-size: .8rem; color: var(--muted); }
#status[data-kind="live"]::before { content: "● "; color: var(--good); }
#status[data-kind="error"] { color: var(--bad); }
main { display: grid; grid-template-columns: minmax(14rem, 20rem) 1fr; min-height: calc(100vh - 2.8rem); }
nav { border-right: 1px solid var(--line); padding: .8rem; background: var(--panel); overflow: auto; }
nav input[type=search] { width: 100%; padding: .4rem .5rem; }
#count { color: var(--muted); font-size: .8rem; margin: .4rem 0; }
#prompts { list-style: none; margin: 0; padding: 0; }
#prompts li { margin: .15rem 0; }
.prompt-link { display: flex; flex-wrap: wrap; gap: .1rem .5rem; width: 100%; text-align: left; border: 0; background: none; padding: .35rem .4rem; border-radius: 4px; cursor: pointer; color: inherit; font: inherit; }
.prompt-link:hover, .prompt-link[aria-current] { background: color-mix(in srgb, var(--accent) 14%, transparent); }
.prompt-name { font-family: ui-monospace, monospace; }
.prompt-title, .tags, .file, .muted, .hint, .description { color: var(--muted); }
.tags { font-size: .8rem; padding-left: .4rem; }
.badge { font-size: .7rem; border-radius: 3px; padding: 0 .3rem; }
.badge.error { background: var(--bad); color: #fff; }
#detail { padding: 1rem 1.4rem; max-width: 90rem; }
.columns { display: grid; grid-template-columns: minmax(18rem, 1fr) minmax(20rem, 1.3fr); gap: 1.2rem; align-items: start; }
@media (max-width: 60rem) { .columns { grid-template-columns: 1fr; } }
.results { min-width: 0; }
.results h3 { margin: .4rem 0; font-size: 1rem; }
article header { display: flex; flex-wrap: wrap; align-items: baseline; gap: .6rem; }
article h2 { margin: 0; }
.file { flex-basis: 100%; margin: 0; font-size: .8rem; font-family: ui-monospace, monospace; }
.diagnostics { border: 1px solid var(--bad); border-radius: 6px; padding: .4rem .8rem; margin: .6rem 0; }
.diagnostic { font-family: ui-monospace, monospace; white-space: pre-wrap; }
.diagnostic.error { color: var(--bad); }
form { display: grid; gap: .7rem; margin: 0; padding: 1rem; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; }
.field { display: grid; gap: .2rem; }
.field label { font-weight: 600; display: flex; gap: .5rem; align-items: baseline; }
.field label code { font-weight: 400; color: var(--muted); }
.required { color: var(--bad); font-weight: 400; font-size: .8rem; }
.field .description { margin: 0; font-size: .85rem; }
.field input:not([type=checkbox]), .field select, .field textarea { width: 100%; padding: .35rem .45rem; font: inherit; }
.field input[type=checkbox] { justify-self: start; width: 1.1rem; height: 1.1rem; }
.field textarea { font-family: ui-monospace, monospace; resize: vertical; }
.field-error { margin: 0; color: var(--bad); font-size: .85rem; }
.field-error:empty { display: none; }
.field.invalid input, .field.invalid select, .field.invalid textarea { outline: 2px solid var(--bad); }
button#render { justify-self: start; padding: .4rem 1.2rem; background: var(--accent); color: #fff; border: 0; border-radius: 4px; font: inherit; cursor: pointer; }
.toolbar { display: flex; align-items: center; justify-content: space-between; }
#messages { list-style: none; padding: 0; margin: .4rem 0; display: grid; gap: .6rem; }
.message { background: var(--panel); border: 1px solid var(--line); border-left: 4px solid var(--accent); border-radius: 6px; padding: .5rem .8rem; }
.message.role-assistant { border-left-color: var(--good); }
.role { font-size: .75rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
pre { white-space: pre-wrap; word-break: break-word; margin: .3rem 0; font: 13px/1.45 ui-monospace, monospace; }
#raw { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .6rem; }
.error { color: var(--bad); }
#error { border: 1px solid var(--bad); border-radius: 6px; padding: .5rem .8rem; }
img.image { max-width: 100%; max-height: 20rem; }
.diff pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .4rem; }
.diff .add { background: var(--add); display: block; }
.diff .del { background: var(--del); display: block; }
.diff .same { display: block; color: var(--muted); }
#cases table { border-collapse: collapse; width: 100%; }
#cases td, #cases th { text-align: left; border-bottom: 1px solid var(--line); padding: .3rem .4rem; vertical-align: top; }
.pass { color: var(--good); }
.fail { color: var(--bad); }
#run-cases { padding: .25rem .8rem; font: inherit; cursor: pointer; }
.case-diff { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .3rem; }
.case-diff .add { background: var(--add); display: block; }
.case-diff .del { background: var(--del); display: block; }
.case-diff .same { display: block; }
.case-diff .meta { display: block; color: var(--muted); }
.failure { margin: .2rem 0; }
`;

/** The page's script (an ES module): its state, listing and form, then its output, diffs and events. */
export const PAGE_SCRIPT = SCRIPT_STATE + SCRIPT_OUTPUT;
