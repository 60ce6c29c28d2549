/**
 * The preview page: plain HTML, CSS and one small ES module, served from these strings (no framework, no CDN: it works
 * offline). The script puts every server value into the DOM with textContent or properties, never as HTML.
 */

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

/** The page's script (an ES module). */
export const PAGE_SCRIPT = String.raw`// The preview page: every value from the server reaches the DOM through textContent or a property, never as HTML.
const params = new URLSearchParams(location.search);
const token = params.get('token') || sessionStorage.getItem('preview-token') || '';
if (params.has('token')) {
  sessionStorage.setItem('preview-token', token);
  history.replaceState(null, '', location.pathname + location.hash);
}

const view = {
  listing: { prompts: [], problems: [], version: 0 },
  open: null,
  fieldsKey: '',
  values: new Map(),
  submitted: false,
  lastResponse: null,
  raw: false,
};

function el(tag, props, children) {
  const node = document.createElement(tag);
  if (props) {
    for (const key of Object.keys(props)) {
      const value = props[key];
      if (value === undefined || value === null) continue;
      if (key === 'text') node.textContent = String(value);
      else if (key === 'class') node.className = value;
      else if (key.startsWith('data-') || key.startsWith('aria-') || key === 'for' || key === 'role') node.setAttribute(key, String(value));
      else node[key] = value;
    }
  }
  for (const child of children || []) if (child) node.append(child);
  return node;
}

const $ = (id) => document.getElementById(id);

// Replaces a node's children with the given ones, leaving out the absent (null, false) ones.
function fill(node, ...children) {
  node.replaceChildren(...children.filter(Boolean));
}

async function api(path, body) {
  const init = { headers: { 'x-preview-token': token }, cache: 'no-store' };
  if (body !== undefined) {
    init.method = 'POST';
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const json = await response.json();
  if (!response.ok) {
    const error = new Error(json && json.error ? json.error.message : 'HTTP ' + response.status);
    error.rpc = json && json.error;
    throw error;
  }
  return json;
}

function setStatus(text, kind) {
  const status = $('status');
  status.textContent = text;
  status.dataset.kind = kind || '';
}

function promptValues(name) {
  let values = view.values.get(name);
  if (!values) {
    values = new Map();
    view.values.set(name, values);
  }
  return values;
}

// ---- listing ----
function matches(prompt, filter) {
  if (!filter) return true;
  const f = filter.toLowerCase();
  if (prompt.name.toLowerCase().includes(f)) return true;
  if (prompt.title && prompt.title.toLowerCase().includes(f)) return true;
  return prompt.tags.some((t) => t.toLowerCase().includes(f.replace(/^#/, '')));
}

function renderListing() {
  const list = $('prompts');
  const filter = $('filter').value.trim();
  const items = [];
  for (const p of view.listing.prompts) {
    if (!matches(p, filter)) continue;
    const button = el('button', { type: 'button', class: 'prompt-link', 'data-name': p.name }, [
      el('span', { class: 'prompt-name', text: p.name }),
      p.title ? el('span', { class: 'prompt-title', text: p.title }) : null,
      p.broken ? el('span', { class: 'badge error', text: 'error' }) : null,
    ]);
    if (view.open && view.open.name === p.name) button.setAttribute('aria-current', 'true');
    button.addEventListener('click', () => openPrompt(p.name));
    const tags = p.tags.length ? el('span', { class: 'tags', text: p.tags.map((t) => '#' + t).join(' ') }) : null;
    items.push(el('li', null, [button, tags]));
  }
  fill(list, ...items);
  $('count').textContent = items.length + ' of ' + view.listing.prompts.length + ' prompt(s)';
  const problems = $('problems');
  problems.hidden = view.listing.problems.length === 0;
  fill(problems.querySelector('ul'),
    ...view.listing.problems.map((d) => el('li', { class: 'diagnostic ' + d.severity, text: d.text })),
  );
}

// The listing is rebuilt only when it changed (an edit of one prompt's text leaves it as it was).
let listingText = '';
function applyListing(listing) {
  const text = JSON.stringify(listing);
  view.listing = listing;
  if (text === listingText) return;
  listingText = text;
  renderListing();
}

async function refreshListing() {
  applyListing(await api('/api/listing'));
}

// ---- the form ----
function hintFor(field) {
  const parts = [];
  if (field.format) parts.push('format: ' + field.format);
  if (field.pattern) parts.push('pattern: ' + field.pattern);
  if (field.minimum !== undefined) parts.push('min ' + field.minimum);
  if (field.maximum !== undefined) parts.push('max ' + field.maximum);
  if (field.minLength !== undefined) parts.push('at least ' + field.minLength + ' characters');
  if (field.maxLength !== undefined) parts.push('at most ' + field.maxLength + ' characters');
  if (field.control === 'json') parts.push('JSON value');
  return parts.join(' · ');
}

function control(field, id, values) {
  const stored = values.has(field.name) ? values.get(field.name) : field.default;
  let input;
  if (field.control === 'select' || (field.control === 'boolean' && !field.required && field.default === undefined)) {
    const options = field.control === 'boolean' ? ['true', 'false'] : field.options;
    input = el('select', { id, name: field.name }, [
      el('option', { value: '', text: field.required ? '(choose)' : '(not given)' }),
      ...options.map((o) => el('option', { value: o, text: o })),
    ]);
    input.value = stored !== undefined && options.includes(stored) ? stored : '';
  } else if (field.control === 'boolean') {
    input = el('input', { id, name: field.name, type: 'checkbox' });
    input.checked = stored === 'true';
  } else if (field.control === 'json' || (field.control === 'text' && !field.completes && !field.format && !field.pattern && (field.maxLength === undefined || field.maxLength > 200))) {
    input = el('textarea', { id, name: field.name, rows: field.control === 'json' ? 3 : 2 });
    input.value = stored === undefined ? '' : stored;
  } else {
    const number = field.control === 'number' || field.control === 'integer';
    input = el('input', { id, name: field.name, type: number ? 'number' : 'text', autocomplete: 'off' });
    if (number) {
      input.step = field.control === 'integer' ? '1' : 'any';
      if (field.minimum !== undefined) input.min = String(field.minimum);
      if (field.maximum !== undefined) input.max = String(field.maximum);
    }
    input.value = stored === undefined ? '' : stored;
  }
  if (field.required) input.setAttribute('aria-required', 'true');
  const remember = () => values.set(field.name, readControl(input));
  input.addEventListener('input', remember);
  input.addEventListener('change', remember);
  return input;
}

function readControl(input) {
  return input.type === 'checkbox' ? String(input.checked) : input.value;
}

let completionTimer = 0;
function attachCompletion(field, input, list) {
  input.setAttribute('list', list.id);
  input.addEventListener('input', () => {
    clearTimeout(completionTimer);
    completionTimer = setTimeout(async () => {
      try {
        const answer = await api('/api/complete', {
          name: view.open.name,
          argument: field.name,
          value: input.value,
          arguments: formArguments(),
        });
        fill(list, ...answer.values.map((v) => el('option', { value: v })));
      } catch {
        fill(list);
      }
    }, 120);
  });
}

function buildForm(prompt) {
  const values = promptValues(prompt.name);
  const form = el('form', { id: 'form', novalidate: true });
  prompt.fields.forEach((field, i) => {
    const id = 'arg-' + i;
    const input = control(field, id, values);
    const label = el('label', { for: id }, [
      el('span', { text: field.title || field.name }),
      field.title ? el('code', { text: field.name }) : null,
      field.required ? el('span', { class: 'required', text: ' required', 'aria-hidden': 'true' }) : null,
    ]);
    const hint = hintFor(field);
    const row = el('div', { class: 'field', 'data-arg': field.name }, [
      label,
      field.description ? el('p', { class: 'description', text: field.description }) : null,
      input,
      hint ? el('small', { class: 'hint', text: hint }) : null,
      el('p', { class: 'field-error', role: 'alert' }),
    ]);
    if (field.completes) {
      const list = el('datalist', { id: 'complete-' + i });
      row.append(list);
      attachCompletion(field, input, list);
    }
    form.append(row);
  });
  if (prompt.fields.length === 0) form.append(el('p', { class: 'muted', text: 'This prompt takes no arguments.' }));
  form.append(el('button', { type: 'submit', id: 'render', text: 'Render' }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    view.submitted = true;
    submit();
  });
  return form;
}

function formArguments() {
  const out = {};
  const prompt = view.open;
  if (!prompt) return out;
  const values = promptValues(prompt.name);
  for (const field of prompt.fields) {
    let value = values.has(field.name) ? values.get(field.name) : field.default;
    if (field.control === 'boolean' && (field.required || field.default !== undefined) && value === undefined) value = 'false';
    if (value !== undefined && value !== '') out[field.name] = value;
  }
  return out;
}

// ---- output ----
const MIME = /^[a-z]+\/[a-z0-9.+-]+$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function block(content) {
  if (!content || typeof content !== 'object') return el('pre', { class: 'text', text: String(content) });
  switch (content.type) {
    case 'text':
      return el('pre', { class: 'text', text: content.text });
    case 'image':
    case 'audio': {
      const ok = typeof content.data === 'string' && BASE64.test(content.data) && MIME.test(content.mimeType || '');
      if (!ok) return el('p', { class: 'muted', text: content.type + ' (' + content.mimeType + '): not shown' });
      const media = el(content.type === 'image' ? 'img' : 'audio', { class: content.type, alt: content.type + ' ' + content.mimeType });
      if (content.type === 'audio') media.controls = true;
      media.src = 'data:' + content.mimeType + ';base64,' + content.data;
      return el('figure', null, [media, el('figcaption', { text: content.mimeType })]);
    }
    case 'resource': {
      const r = content.resource || {};
      const body = typeof r.text === 'string'
        ? el('pre', { class: 'text', text: r.text })
        : el('p', { class: 'muted', text: 'binary, ' + (typeof r.blob === 'string' ? r.blob.length : 0) + ' base64 characters' });
      return el('details', { class: 'resource' }, [
        el('summary', { text: 'resource ' + r.uri + (r.mimeType ? ' (' + r.mimeType + ')' : '') }),
        body,
      ]);
    }
    case 'resource_link':
      return el('p', { class: 'resource-link' }, [
        el('span', { text: 'resource link ' }),
        el('code', { text: content.uri }),
        el('span', { text: content.name ? ' ' + content.name : '' }),
      ]);
    default:
      return el('pre', { class: 'text', text: JSON.stringify(content, null, 2) });
  }
}

function showFieldErrors(error) {
  for (const row of document.querySelectorAll('.field')) {
    row.classList.remove('invalid');
    row.querySelector('.field-error').textContent = '';
  }
  if (!error || !error.data) return;
  const mark = (name, text) => {
    const row = [...document.querySelectorAll('.field')].find((r) => r.dataset.arg === name);
    if (!row) return false;
    row.classList.add('invalid');
    const p = row.querySelector('.field-error');
    p.textContent = p.textContent ? p.textContent + '; ' + text : text;
    return true;
  };
  const data = error.data;
  if (Array.isArray(data.missing_arguments)) for (const name of data.missing_arguments) mark(String(name), 'missing: this argument is required');
  if (Array.isArray(data.details)) for (const d of data.details) if (d && typeof d.argument === 'string') mark(d.argument, d.message);
  if (typeof data.argument === 'string') mark(data.argument, error.message);
}

function showOutput(response) {
  view.lastResponse = response;
  const out = $('output');
  out.hidden = false;
  const messages = $('messages');
  const error = $('error');
  const raw = $('raw');
  raw.textContent = JSON.stringify('result' in response ? response.result : { error: response.error }, null, 2);
  if ('error' in response) {
    const e = response.error;
    error.hidden = false;
    fill(error,
      el('strong', { text: 'Error ' + e.code + ': ' + e.message }),
      e.data !== undefined ? el('pre', { text: JSON.stringify(e.data, null, 2) }) : null,
    );
    fill(messages);
    showFieldErrors(e);
  } else {
    error.hidden = true;
    fill(error);
    showFieldErrors(null);
    const r = response.result;
    const items = (r.messages || []).map((m) => {
      const contents = Array.isArray(m.content) ? m.content : [m.content];
      return el('li', { class: 'message role-' + m.role }, [el('div', { class: 'role', text: m.role }), ...contents.map(block)]);
    });
    fill(messages, ...items);
    $('result-description').textContent = r.description || '';
  }
  applyRaw();
}

function applyRaw() {
  $('raw').hidden = !view.raw;
  $('messages').hidden = view.raw;
}

function showDiffs(diffs) {
  const section = $('diffs');
  section.hidden = diffs.length === 0;
  fill(section,
    el('h3', { text: 'Diff' }),
    ...diffs.map((d) =>
      el('details', { class: 'diff', open: d.changed, 'data-against': d.against }, [
        el('summary', { text: 'against ' + d.against + (d.changed ? '' : ' (no change)') }),
        el('pre', null, d.lines.map((l) => el('span', { class: l.op === '+' ? 'add' : l.op === '-' ? 'del' : 'same', text: l.op + ' ' + l.text + '\n' }))),
      ]),
    ),
  );
}

let renderSeq = 0;
function renderRequest() {
  return api('/api/render', { name: view.open.name, arguments: formArguments() }).catch((error) => ({
    error: error.rpc || { code: 0, message: error.message },
  }));
}

// Shows a rendering (the one given, or a fresh one), then its diffs once they come (they may wait for git).
async function submit(pending) {
  if (!view.open) return;
  const seq = ++renderSeq;
  const name = view.open.name;
  const body = { name, arguments: formArguments() };
  const response = await (pending || renderRequest());
  if (seq !== renderSeq || !view.open || view.open.name !== name) return;
  showOutput(response);
  try {
    const answer = await api('/api/diff', body);
    if (seq === renderSeq) showDiffs(answer.diffs);
  } catch {
    if (seq === renderSeq) showDiffs([]);
  }
}

// ---- cases ----
// Which prompts' cases were run: they run again after each change of the prompt.
const casesRun = new Set();

function diffBlock(text) {
  return el('pre', { class: 'case-diff' }, text.split('\n').map((line) =>
    el('span', { class: /^(\+\+\+|---|@@) /.test(line) ? 'meta' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'same', text: line + '\n' })));
}

function showCases(answer) {
  const r = answer.report;
  const body = $('cases-body');
  const rows = r.results.map((c) =>
    el('tr', { class: 'case', 'data-case': c.case, 'data-status': c.status }, [
      el('td', { text: c.case }),
      el('td', { class: c.status === 'pass' ? 'pass' : 'fail', text: c.status }),
      el('td', null, [
        c.line !== undefined ? el('div', { class: 'muted', text: 'line ' + c.line + (c.column !== undefined ? ':' + c.column : '') }) : null,
        ...c.failures.map((f) => el('div', { class: 'failure' }, [
          el('span', { text: f.message }),
          f.diff ? diffBlock(f.diff) : null,
        ])),
      ]),
    ]),
  );
  fill(body,
    el('p', { id: 'cases-summary', class: r.failed + r.errored > 0 ? 'fail' : 'pass',
      text: r.total === 0 ? 'No cases for this prompt.' : r.passed + ' of ' + r.total + ' passed' + (r.failed ? ', ' + r.failed + ' failed' : '') + (r.errored ? ', ' + r.errored + ' could not run' : '') }),
    answer.problems.length ? el('ul', null, answer.problems.map((p) => el('li', { class: 'diagnostic error', text: p }))) : null,
    r.total ? el('table', null, [el('thead', null, [el('tr', null, [el('th', { text: 'case' }), el('th', { text: 'result' }), el('th', { text: '' })])]), el('tbody', null, rows)]) : null,
  );
}

async function runCases(name) {
  casesRun.add(name);
  const button = $('run-cases');
  if (button) button.disabled = true;
  try {
    const answer = await api('/api/cases', { name });
    if (view.open && view.open.name === name) showCases(answer);
  } catch (error) {
    $('cases-body').replaceChildren(el('p', { class: 'error', text: error.message }));
  } finally {
    if (button) button.disabled = false;
  }
}

function casesPanel(prompt) {
  const section = $('cases');
  if (!section.firstChild) {
    const button = el('button', { type: 'button', id: 'run-cases', text: 'Run cases' });
    button.addEventListener('click', () => runCases(view.open.name));
    section.append(el('div', { class: 'toolbar' }, [el('h3', { text: 'Cases' }), button]), el('div', { id: 'cases-body' }));
  }
  section.hidden = false;
  // A broken file's cases cannot be read (nor its prompt's new version run): they run again once it is fixed.
  if (prompt.broken) {
    fill($('cases-body'), el('p', { class: 'muted', text: 'The file has errors: its cases run again once it is fixed.' }));
    return;
  }
  if (casesRun.has(prompt.name)) runCases(prompt.name);
}

// ---- the open prompt ----
function showDiagnostics(prompt) {
  const box = $('diagnostics');
  box.hidden = prompt.diagnostics.length === 0;
  fill(box,
    prompt.broken ? el('p', { text: 'The file has errors: showing its last good version.' }) : null,
    el('ul', null, prompt.diagnostics.map((d) => el('li', { class: 'diagnostic ' + d.severity, text: d.text }))),
  );
}

function buildDetail(prompt) {
  const article = el('article', { id: 'prompt', 'data-name': prompt.name }, [
    el('header', null, [
      el('h2', { id: 'prompt-title', text: prompt.title || prompt.name }),
      el('code', { class: 'name', text: prompt.name }),
      prompt.tags.length ? el('span', { class: 'tags', text: prompt.tags.map((t) => '#' + t).join(' ') }) : null,
      prompt.file ? el('p', { class: 'file', text: prompt.file }) : null,
    ]),
    prompt.description ? el('p', { class: 'description', id: 'prompt-description', text: prompt.description }) : null,
    el('section', { id: 'diagnostics', class: 'diagnostics', role: 'alert' }),
    el('div', { class: 'columns' }, [
    buildForm(prompt),
    el('div', { class: 'results' }, [
    el('section', { id: 'output', hidden: true }, [
      el('div', { class: 'toolbar' }, [
        el('h3', { text: 'Messages' }),
        el('label', null, [rawToggle(), el('span', { text: ' Raw JSON' })]),
      ]),
      el('p', { id: 'result-description', class: 'muted' }),
      el('div', { id: 'error', class: 'error', hidden: true, role: 'alert' }),
      el('ol', { id: 'messages' }),
      el('pre', { id: 'raw', hidden: true }),
    ]),
    el('section', { id: 'diffs', hidden: true }),
    el('section', { id: 'cases', hidden: true }),
    ]),
    ]),
  ]);
  $('detail').replaceChildren(article);
  showDiagnostics(prompt);
}

function rawToggle() {
  const box = el('input', { type: 'checkbox', id: 'raw-toggle' });
  box.checked = view.raw;
  box.addEventListener('change', () => {
    view.raw = box.checked;
    applyRaw();
  });
  return box;
}

async function openPrompt(name) {
  let prompt;
  try {
    prompt = await api('/api/prompt?name=' + encodeURIComponent(name));
  } catch (error) {
    $('detail').replaceChildren(el('p', { class: 'error', text: error.message }));
    view.open = null;
    return;
  }
  const switching = !view.open || view.open.name !== name;
  view.open = prompt;
  view.fieldsKey = JSON.stringify(prompt.fields);
  view.submitted = false;
  if (switching) history.replaceState(null, '', '#' + encodeURIComponent(name));
  buildDetail(prompt);
  casesPanel(prompt);
  renderListing();
}

// The open prompt changed on disk: same fields keep the form as it is (focus, caret, typed text); other fields rebuild
// it with the typed values; a submitted form renders again.
async function refreshOpen() {
  if (!view.open) return;
  // The rendering is asked for at once, with the fields as they are: a change that keeps the fields needs no second trip.
  const pending = view.submitted ? renderRequest() : null;
  let prompt;
  try {
    prompt = await api('/api/prompt?name=' + encodeURIComponent(view.open.name));
  } catch {
    $('detail').replaceChildren(el('p', { class: 'muted', text: view.open.name + ' was removed.' }));
    view.open = null;
    return;
  }
  const key = JSON.stringify(prompt.fields);
  view.open = prompt;
  const header = $('prompt').querySelector('header');
  header.querySelector('h2').textContent = prompt.title || prompt.name;
  const description = $('prompt-description');
  if (description) description.textContent = prompt.description || '';
  const sameFields = key === view.fieldsKey;
  if (!sameFields) {
    view.fieldsKey = key;
    $('form').replaceWith(buildForm(prompt));
  }
  showDiagnostics(prompt);
  casesPanel(prompt);
  if (view.submitted) await submit(sameFields ? pending : null);
}

// ---- live updates ----
// One update at a time; events that arrive meanwhile are folded into one more.
let updating = false;
let latest = 0;
async function update() {
  if (updating) return;
  updating = true;
  try {
    let done = -1;
    while (done !== latest) {
      done = latest;
      // The open prompt first: it is what the author is looking at.
      const listing = api('/api/listing');
      listing.catch(() => {});
      await refreshOpen();
      applyListing(await listing);
      document.body.dataset.version = String(done);
    }
  } catch (error) {
    setStatus(error.message, 'error');
  } finally {
    updating = false;
  }
}

function connect() {
  const source = new EventSource('/api/events');
  let first = true;
  source.onopen = () => setStatus('live', 'live');
  source.onerror = () => setStatus('reconnecting…', 'warn');
  source.onmessage = (message) => {
    const event = JSON.parse(message.data);
    latest = event.version;
    // The hello of a reconnect may follow changes the page missed.
    if (event.type !== 'hello' || !first) update();
    first = false;
  };
}

$('filter').addEventListener('input', renderListing);
await refreshListing();
const wanted = decodeURIComponent(location.hash.slice(1));
if (wanted && view.listing.prompts.some((p) => p.name === wanted)) await openPrompt(wanted);
connect();
`;
