/** The first half of the preview page's script: its state, the listing and the form built from a schema. */

/** @internal The page script's state, listing and form (joined to SCRIPT_OUTPUT as one module). */
export const SCRIPT_STATE = String.raw`// The preview page: every value from the server reaches the DOM through textContent or a property, never as HTML.
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
`;
