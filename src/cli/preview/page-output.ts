/** The second half of the preview page's script: the rendered output, diffs, cases and the event stream. */

/** @internal The page script's output, diffs, cases and events (after SCRIPT_STATE in one module). */
export const SCRIPT_OUTPUT = String.raw`const MIME = /^[a-z]+\/[a-z0-9.+-]+$/i;
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
