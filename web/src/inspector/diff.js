// The difference between two states as a JSON Patch (RFC 6902: add,
// remove, replace), and as a tree of the paths that changed.

const esc = (k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1');

const isObj = (v) => v !== null && typeof v === 'object';

/** The JSON Patch that turns a into b. Arrays are compared index by index (a grown or shrunk tail is added or removed). */
export function jsonPatch(a, b, path = '', out = []) {
  if (a === b) return out;
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) jsonPatch(a[i], b[i], `${path}/${i}`, out);
    for (let i = n; i < b.length; i++) out.push({ op: 'add', path: `${path}/${i}`, value: b[i] });
    for (let i = a.length - 1; i >= n; i--) out.push({ op: 'remove', path: `${path}/${i}` });
    return out;
  }
  if (isObj(a) && isObj(b) && !Array.isArray(a) && !Array.isArray(b)) {
    for (const k of Object.keys(a)) {
      if (!(k in b)) out.push({ op: 'remove', path: `${path}/${esc(k)}` });
      else jsonPatch(a[k], b[k], `${path}/${esc(k)}`, out);
    }
    for (const k of Object.keys(b)) if (!(k in a)) out.push({ op: 'add', path: `${path}/${esc(k)}`, value: b[k] });
    return out;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ op: 'replace', path, value: b });
  return out;
}

/** Applies a patch jsonPatch made (for tests): returns the new value. */
export function applyPatch(doc, patch) {
  let root = structuredClone(doc);
  for (const op of patch) {
    const keys = op.path === '' ? [] : op.path.slice(1).split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (keys.length === 0) { root = op.op === 'remove' ? undefined : structuredClone(op.value); continue; }
    let parent = root;
    for (const k of keys.slice(0, -1)) parent = parent[k];
    const last = keys[keys.length - 1];
    if (op.op === 'remove') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1); else delete parent[last];
    } else if (op.op === 'add' && Array.isArray(parent)) {
      parent.splice(last === '-' ? parent.length : Number(last), 0, structuredClone(op.value));
    } else {
      parent[last] = structuredClone(op.value);
    }
  }
  return root;
}

/** The value at a JSON Pointer, or undefined. */
export function valueAt(doc, path) {
  if (path === '') return doc;
  let v = doc;
  for (const raw of path.slice(1).split('/')) {
    const k = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObj(v) || !(k in v)) return undefined;
    v = v[k];
  }
  return v;
}

/**
 * The changed paths as a tree: {key, children: Map, change?: {op, before, after}}.
 */
export function changeTree(a, patch) {
  const root = { key: '', children: new Map() };
  for (const op of patch) {
    const keys = op.path === '' ? [] : op.path.slice(1).split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    let node = root;
    for (const k of keys) {
      let c = node.children.get(k);
      if (!c) node.children.set(k, (c = { key: k, children: new Map() }));
      node = c;
    }
    node.change = { op: op.op, before: op.op === 'add' ? undefined : valueAt(a, op.path), after: op.value };
  }
  return root;
}
