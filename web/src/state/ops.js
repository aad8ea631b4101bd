// Applying change records to the mirrored state with structural sharing:
// only the containers along an op's path are copied.

const hasOwn = Object.prototype.hasOwnProperty;

function unescapeSegment(s) {
  return s.indexOf('~') < 0 ? s : s.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Sets an own property; "__proto__" becomes a plain own key, never the prototype. */
function setKey(obj, key, value) {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

function arrayIndex(arr, seg, path, allowEnd) {
  const i = seg === '-' && allowEnd ? arr.length : indexOf(seg);
  if (i < 0 || i > arr.length || (i === arr.length && !allowEnd)) {
    throw new Error(`index ${seg} out of range in ${path}`);
  }
  return i;
}

// Paths of the compact appends, cached for the message being streamed.
let lastAppendKey = '';
let lastAppendIndex = -1;
let lastAppendPath = '';

export function appendPath(key, index) {
  if (key !== lastAppendKey || index !== lastAppendIndex) {
    lastAppendKey = key;
    lastAppendIndex = index;
    lastAppendPath = `/messages/${index}/${key}`;
  }
  return lastAppendPath;
}

function shallowCopy(v) {
  return Array.isArray(v) ? v.slice() : { ...v }; // spread keeps "__proto__" an own key
}

/**
 * Applies change ops to root, copying only the containers along each op's
 * path (once per batch: `fresh`, a WeakSet, holds the copies made so
 * far). Everything else keeps its identity. Returns the new root; root
 * itself is untouched.
 */
export function applyOps(root, ops, fresh) {
  for (let k = 0; k < ops.length; k++) root = applyOp(root, ops[k], fresh);
  return root;
}

/** One op of applyOps. */
function applyOp(root, op, fresh) {
  const path = op.path;
  if (path === '') {
    if (op.op === 'add' || op.op === 'replace') return op.value;
    throw new Error(`unsupported root op ${op.op}`);
  }
  if (path.charCodeAt(0) !== 47 || root === null || typeof root !== 'object') throw new Error(`bad path ${path}`);
  if (!fresh.has(root)) { root = shallowCopy(root); fresh.add(root); }
  let parent = root;
  let above = null; // parent's container, and parent's key in it
  let at = '';
  // The segments, one at a time (no array of them): [start, end) is the next.
  let start = 1;
  let end = path.indexOf('/', 1);
  for (; end >= 0; start = end + 1, end = path.indexOf('/', start)) {
    const key = unescapeSegment(path.slice(start, end));
    let child;
    above = parent;
    if (Array.isArray(parent)) {
      const idx = arrayIndex(parent, key, path, false);
      at = idx;
      child = parent[idx];
      if (child !== null && typeof child === 'object' && !fresh.has(child)) {
        child = shallowCopy(child); fresh.add(child); parent[idx] = child;
      }
    } else {
      at = key;
      child = hasOwn.call(parent, key) ? parent[key] : undefined;
      if (child !== null && typeof child === 'object' && !fresh.has(child)) {
        child = shallowCopy(child); fresh.add(child); setKey(parent, key, child);
      }
    }
    if (child === null || typeof child !== 'object') throw new Error(`no container at ${path.slice(0, end)}`);
    parent = child;
  }
  const last = unescapeSegment(path.slice(start));
  if (Array.isArray(parent)) {
    switch (op.op) {
      case 'add': {
        const i = arrayIndex(parent, last, path, true);
        if (i === parent.length) parent.push(op.value); // splice to the end takes a slow path in V8
        else parent.splice(i, 0, op.value);
        break;
      }
      case 'replace': parent[arrayIndex(parent, last, path, false)] = op.value; break;
      case 'remove': parent.splice(arrayIndex(parent, last, path, false), 1); break;
      case 'append': {
        const i = arrayIndex(parent, last, path, false);
        if (typeof parent[i] !== 'string') throw new Error(`append to a non-string at ${path}`);
        parent[i] += op.value;
        break;
      }
      default: throw new Error(`unknown op ${op.op}`);
    }
  } else {
    switch (op.op) {
      case 'add':
      case 'replace': setKey(parent, last, op.value); break;
      case 'remove': {
        if (!hasOwn.call(parent, last)) throw new Error(`remove of a missing key at ${path}`);
        // A copy without the key, not delete: delete turns an object into
        // a dictionary, slow to copy and to read (the root, every run).
        const rest = {};
        for (const k of Object.keys(parent)) if (k !== last) setKey(rest, k, parent[k]);
        fresh.add(rest);
        if (above === null) root = rest;
        else if (Array.isArray(above)) above[at] = rest;
        else setKey(above, at, rest);
        break;
      }
      case 'append': {
        const cur = hasOwn.call(parent, last) ? parent[last] : undefined;
        if (typeof cur !== 'string') throw new Error(`append to a non-string at ${path}`);
        setKey(parent, last, cur + op.value);
        break;
      }
      default: throw new Error(`unknown op ${op.op}`);
    }
  }
  return root;
}

/** The array index a path segment names (canonical digits), else -1: no RegExp. */
function indexOf(seg) {
  const n = seg.length;
  if (n === 0 || n > 9 || (n > 1 && seg.charCodeAt(0) === 48)) return -1;
  let i = 0;
  for (let k = 0; k < n; k++) {
    const c = seg.charCodeAt(k) - 48;
    if (c < 0 || c > 9) return -1;
    i = i * 10 + c;
  }
  return i;
}

/** The child at key of a container (undefined when missing), without copying. */
function childOf(parent, key) {
  if (Array.isArray(parent)) {
    const i = indexOf(key);
    return i >= 0 && i < parent.length ? parent[i] : undefined;
  }
  return hasOwn.call(parent, key) ? parent[key] : undefined;
}

/**
 * Applies the pending ops when all of them are compact appends to strings
 * (appends holds kind, index, key triples): kind 0 appends to
 * messages[index][key] (key "content" or "reasoning"), kind 1 to the string
 * at the keys of key (an array of unescaped segments, the last the
 * string's) below toolCalls[index]. One new root, one new array per touched
 * collection, one new container per touched container, whatever the number
 * of appends: a container is copied when it is still the old root's (the
 * same object at the same place), which appends, never moving anything,
 * keep true — no set of copies to consult.
 */
export function applyAppends(root, ops, appends) {
  if (root === null || typeof root !== 'object') throw new Error('no state');
  const next = { ...root };
  let messages = null;
  let toolCalls = null;
  for (let k = 0; k < ops.length; k++) {
    const kind = appends[3 * k];
    const index = appends[3 * k + 1];
    const key = appends[3 * k + 2];
    if (kind === 0) {
      const msgs = root.messages;
      if (messages === null) {
        if (!Array.isArray(msgs)) throw new Error('no messages array');
        messages = next.messages = msgs.slice();
      }
      let m = index < messages.length ? messages[index] : undefined;
      if (m === null || typeof m !== 'object' || !hasOwn.call(m, key) || typeof m[key] !== 'string') {
        throw new Error(`append to a non-string at ${ops[k].path}`);
      }
      if (m === msgs[index]) { // copied once, however many appends it gets
        // A spread of its own (not shallowCopy's): this site sees few
        // shapes, so V8 clones with a monomorphic inline cache.
        m = { ...m };
        messages[index] = m;
      }
      m[key] += ops[k].value;
      continue;
    }
    const tcs = root.toolCalls;
    if (toolCalls === null) {
      if (!Array.isArray(tcs)) throw new Error('no toolCalls array');
      toolCalls = next.toolCalls = tcs.slice();
    }
    let old = tcs[index];
    let cur = index < toolCalls.length ? toolCalls[index] : undefined;
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) throw new Error(`append to a non-string at ${ops[k].path}`);
    if (cur === old) { cur = { ...cur }; toolCalls[index] = cur; }
    // The two appends of a tool-argument token, by name: its argsText, and
    // a string of its args (copied once per build).
    if (key.length === 1 && key[0] === 'argsText') {
      if (!hasOwn.call(cur, 'argsText') || typeof cur.argsText !== 'string') throw new Error(`append to a non-string at ${ops[k].path}`);
      cur.argsText += ops[k].value;
      continue;
    }
    let s = 0;
    if (key[0] === 'args') {
      let args = hasOwn.call(cur, 'args') ? cur.args : undefined;
      if (args === null || typeof args !== 'object') throw new Error(`append to a non-string at ${ops[k].path}`);
      const was = old.args; // old is a tool call object: cur was, or was copied from, it
      if (args === was) { args = shallowCopy(args); cur.args = args; }
      old = was;
      cur = args;
      s = 1;
    }
    const last = key.length - 1;
    for (; s < last; s++) {
      const seg = key[s];
      let child = childOf(cur, seg);
      if (child === null || typeof child !== 'object') throw new Error(`append to a non-string at ${ops[k].path}`);
      const was = old !== null && typeof old === 'object' ? childOf(old, seg) : undefined;
      if (child === was) {
        child = shallowCopy(child);
        if (Array.isArray(cur)) cur[indexOf(seg)] = child;
        else setKey(cur, seg, child);
      }
      old = was;
      cur = child;
    }
    const seg = key[last];
    const str = childOf(cur, seg);
    if (typeof str !== 'string') throw new Error(`append to a non-string at ${ops[k].path}`);
    if (Array.isArray(cur)) cur[indexOf(seg)] = str + ops[k].value;
    else setKey(cur, seg, str + ops[k].value);
  }
  return next;
}

/** c itself when the build owns it (fresh), else a copy it now owns. */
function owned(c, fresh) {
  if (fresh.has(c)) return c;
  const copy = shallowCopy(c);
  fresh.add(copy);
  return copy;
}

/**
 * Applies pending ops of both forms in order: appends holds a kind, index,
 * key triple per op (applyAppends's), kind -1 for an op to apply by its
 * path (applyOps's). The compact appends skip the path: the string they
 * append to is found from index and key, once for a run of appends to the
 * same string (a run ends at an op of the other form, which may move or
 * replace it). Containers are copied once per build, as with applyOps.
 */
export function applyMixed(root, ops, appends) {
  // (A WeakSet: a small class scanning an array of the copies measured
  // faster on its own, but made the whole fold of the benchmark 40% slower.)
  const fresh = new WeakSet();
  let target = null; // the container of the string the last append found
  let tkey = null; // its key (an index when target is an array)
  let lastKind = -1;
  let lastIndex = -1;
  let lastKey = null;
  for (let k = 0; k < ops.length; k++) {
    const kind = appends[3 * k];
    const op = ops[k];
    if (kind < 0) {
      root = applyOp(root, op, fresh);
      lastKind = -1;
      continue;
    }
    const index = appends[3 * k + 1];
    const key = appends[3 * k + 2];
    if (kind !== lastKind || index !== lastIndex || key !== lastKey) {
      lastKind = -1; // until found
      if (root === null || typeof root !== 'object' || Array.isArray(root)) throw new Error('no state');
      root = owned(root, fresh);
      const name = kind === 0 ? 'messages' : 'toolCalls';
      let list = hasOwn.call(root, name) ? root[name] : undefined;
      if (!Array.isArray(list)) throw new Error(`no ${name} array`);
      list = root[name] = owned(list, fresh);
      let cur = index < list.length ? list[index] : undefined;
      if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) throw new Error(`append to a non-string at ${op.path}`);
      cur = list[index] = owned(cur, fresh);
      if (kind === 0) {
        target = cur;
        tkey = key;
      } else {
        const last = key.length - 1;
        for (let s = 0; s < last; s++) {
          const seg = key[s];
          let child = childOf(cur, seg);
          if (child === null || typeof child !== 'object') throw new Error(`append to a non-string at ${op.path}`);
          child = owned(child, fresh);
          if (Array.isArray(cur)) cur[indexOf(seg)] = child;
          else setKey(cur, seg, child);
          cur = child;
        }
        target = cur;
        tkey = Array.isArray(cur) ? indexOf(key[last]) : key[last];
      }
      lastKind = kind;
      lastIndex = index;
      lastKey = key;
    }
    if (typeof tkey === 'number') {
      const str = tkey >= 0 && tkey < target.length ? target[tkey] : undefined;
      if (typeof str !== 'string') { lastKind = -1; throw new Error(`append to a non-string at ${op.path}`); }
      target[tkey] = str + op.value;
    } else if (tkey === 'content') { // a text token's: a named store is the cheapest
      const str = target.content;
      if (typeof str !== 'string' || !hasOwn.call(target, 'content')) { lastKind = -1; throw new Error(`append to a non-string at ${op.path}`); }
      target.content = str + op.value;
    } else if (tkey === 'argsText') {
      const str = target.argsText;
      if (typeof str !== 'string' || !hasOwn.call(target, 'argsText')) { lastKind = -1; throw new Error(`append to a non-string at ${op.path}`); }
      target.argsText = str + op.value;
    } else {
      const str = hasOwn.call(target, tkey) ? target[tkey] : undefined;
      if (typeof str !== 'string') { lastKind = -1; throw new Error(`append to a non-string at ${op.path}`); }
      setKey(target, tkey, str + op.value);
    }
  }
  return root;
}
