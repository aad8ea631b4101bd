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
  const i = seg === '-' && allowEnd ? arr.length : /^(0|[1-9][0-9]*)$/.test(seg) ? Number(seg) : -1;
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
 * path (once per batch: `fresh` holds the copies made so far). Everything
 * else keeps its identity. Returns the new root; root itself is untouched.
 */
export function applyOps(root, ops, fresh) {
  for (const op of ops) {
    const path = op.path;
    if (path === '') {
      if (op.op === 'add' || op.op === 'replace') { root = op.value; continue; }
      throw new Error(`unsupported root op ${op.op}`);
    }
    const segs = path.split('/');
    if (segs[0] !== '' || root === null || typeof root !== 'object') throw new Error(`bad path ${path}`);
    if (!fresh.has(root)) { root = shallowCopy(root); fresh.add(root); }
    let parent = root;
    for (let i = 1; i < segs.length - 1; i++) {
      const key = unescapeSegment(segs[i]);
      let child;
      if (Array.isArray(parent)) {
        const idx = arrayIndex(parent, key, path, false);
        child = parent[idx];
        if (child !== null && typeof child === 'object' && !fresh.has(child)) {
          child = shallowCopy(child); fresh.add(child); parent[idx] = child;
        }
      } else {
        child = hasOwn.call(parent, key) ? parent[key] : undefined;
        if (child !== null && typeof child === 'object' && !fresh.has(child)) {
          child = shallowCopy(child); fresh.add(child); setKey(parent, key, child);
        }
      }
      if (child === null || typeof child !== 'object') throw new Error(`no container at ${segs.slice(0, i + 1).join('/')}`);
      parent = child;
    }
    const last = unescapeSegment(segs[segs.length - 1]);
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
        case 'remove':
          if (!hasOwn.call(parent, last)) throw new Error(`remove of a missing key at ${path}`);
          delete parent[last];
          break;
        case 'append': {
          const cur = hasOwn.call(parent, last) ? parent[last] : undefined;
          if (typeof cur !== 'string') throw new Error(`append to a non-string at ${path}`);
          setKey(parent, last, cur + op.value);
          break;
        }
        default: throw new Error(`unknown op ${op.op}`);
      }
    }
  }
  return root;
}

/**
 * Applies the pending ops when all of them are compact text appends
 * (appends holds index, key pairs): one new root, one new messages array,
 * one new object per touched message, whatever the number of appends.
 */
export function applyAppends(root, ops, appends) {
  const msgs = root !== null && typeof root === 'object' ? root.messages : undefined;
  if (!Array.isArray(msgs)) throw new Error('no messages array');
  const messages = msgs.slice();
  for (let k = 0; k < ops.length; k++) {
    const index = appends[2 * k];
    const key = appends[2 * k + 1];
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
  }
  const next = { ...root };
  next.messages = messages;
  return next;
}
