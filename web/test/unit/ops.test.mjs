// The mirror's read of pending ops against applying them one by one: random
// interleavings of compact appends (the token fast path's kind, index, key
// triples) and ops applied by their paths, read at random points, give the
// state the ops give one at a time; states read earlier never change; op
// values are never changed; containers no op touched keep their identity.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Mirror } from '../../src/state/mirror.js';
import { applyOps, applyMixed } from '../../src/state/ops.js';
import { rng } from '../support/helpers.mjs';

const apply1 = (root, op) => applyOps(root, [op], new WeakSet());

/** A mirror that reports errors by throwing (no reducer to resynchronise from). */
class TestMirror extends Mirror {
  _report(err) { throw err; }
  _resync() { throw new Error('resync'); }
}

const ARGS_TEXT = Object.freeze(['argsText']);
const words = ['a', 'bc', 'é€', '😀', ' ', 'xyz', '~1/'];

/** One random op valid on state s: [op, form] with form 'general' or a compact triple. */
function randomOp(s, rand, keyCache) {
  const pick = (a) => a[Math.floor(rand() * a.length)];
  const word = () => pick(words);
  const r = rand();
  const msgs = s.messages;
  const tcs = s.toolCalls;
  if (r < 0.35 && msgs.length > 0) { // a text or reasoning append
    const i = Math.floor(rand() * msgs.length);
    const key = rand() < 0.7 ? 'content' : 'reasoning';
    const op = { op: 'append', path: `/messages/${i}/${key}`, value: word() };
    return rand() < 0.8 ? [op, [0, i, key]] : [op, null];
  }
  if (r < 0.6 && tcs.length > 0) { // a tool-argument append
    const i = Math.floor(rand() * tcs.length);
    const tc = tcs[i];
    const strings = [['argsText']];
    const walk = (v, segs) => {
      if (typeof v === 'string') strings.push(segs);
      else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) walk(v[k], [...segs, k]);
    };
    walk(tc.args, ['args']);
    const segs = pick(strings);
    const esc = segs.map((x) => x.replace(/~/g, '~0').replace(/\//g, '~1'));
    const op = { op: 'append', path: `/toolCalls/${i}/${esc.join('/')}`, value: word() };
    if (rand() < 0.2) return [op, null];
    // The same key array for the same pointer, as core.js hands them (most of the time).
    const id = `${i}:${segs.join('\u0000')}`;
    let key = segs.length === 1 && segs[0] === 'argsText' ? ARGS_TEXT : keyCache.get(id);
    if (key === undefined || rand() < 0.2) { key = Object.freeze(segs.slice()); keyCache.set(id, key); }
    return [op, [1, i, key]];
  }
  // An op by path.
  const g = Math.floor(rand() * 9);
  switch (g) {
    case 0: return [{ op: 'add', path: '/messages/-', value: { id: `m${msgs.length}`, content: '', reasoning: word() } }, null];
    case 1: if (msgs.length > 0) return [{ op: 'remove', path: `/messages/${Math.floor(rand() * msgs.length)}` }, null]; break;
    case 2: if (msgs.length > 0) return [{ op: 'replace', path: `/messages/${Math.floor(rand() * msgs.length)}`, value: { id: 'r', content: word(), reasoning: '' } }, null]; break;
    case 3: if (msgs.length > 0) return [{ op: 'add', path: `/messages/${Math.floor(rand() * (msgs.length + 1))}`, value: { id: 'i', content: word(), reasoning: '' } }, null]; break;
    case 4: return [{ op: 'add', path: '/toolCalls/-', value: { id: `t${tcs.length}`, argsText: '', args: {} } }, null];
    case 5: if (tcs.length > 0) {
      const i = Math.floor(rand() * tcs.length);
      const k = pick(['city', 'note', '__proto__', 'a/b', 'list']);
      return [{ op: 'add', path: `/toolCalls/${i}/args/${k.replace(/\//g, '~1')}`, value: k === 'list' ? [word(), { deep: word() }] : word() }, null];
    } break;
    case 6: if (tcs.length > 0) return [{ op: 'replace', path: `/toolCalls/${Math.floor(rand() * tcs.length)}/args`, value: { city: word(), list: [''] } }, null]; break;
    case 7: if (msgs.length > 0) return [{ op: 'replace', path: `/messages/${Math.floor(rand() * msgs.length)}/streaming`, value: rand() < 0.5 }, null]; break;
    default: return [{ op: 'replace', path: '/status', value: word() }, null];
  }
  return [{ op: 'add', path: '/state/n', value: rand() }, null];
}

/** Commits [op, form] to the mirror as the reducer would. */
function commit(m, op, form, single) {
  if (form === null) m._commit([{ ops: [op] }]);
  else if (form[0] === 0 && single) m._commitAppend({ ops: [op] }, form[2], form[1]);
  else m._commitAppends({ ops: [op] }, [form[0]], [form[1]], [form[2]]);
}

/** Which message and tool call indices an op touches, and whether it moves any. */
function touches(op, t) {
  const m = /^\/(messages|toolCalls)(?:\/([^/]+))?(\/.*)?$/.exec(op.path);
  if (m === null) return;
  if (m[3] === undefined) t.moved.add(m[1]);
  else t[m[1]].add(Number(m[2]));
}

test('mixed reads equal ops applied one by one; old states and op values unchanged; untouched containers shared', () => {
  for (let seed = 1; seed <= 60; seed++) {
    const rand = rng(seed);
    const init = JSON.parse('{"status":"idle","state":{},"messages":[{"id":"m","content":"","reasoning":""}],"toolCalls":[{"id":"t","argsText":"","args":{"__proto__":"p","x":[""]}}]}');
    const m = new TestMirror(init);
    let ref = init;
    const keyCache = new Map();
    const reads = [[init, JSON.stringify(init)]];
    const values = [];
    let t = { messages: new Set(), toolCalls: new Set(), moved: new Set() };
    let prev = init;
    for (let step = 0; step < 400; step++) {
      const [op, form] = randomOp(ref, rand, keyCache);
      values.push([op, JSON.stringify(op.value)]);
      ref = apply1(ref, op);
      touches(op, t);
      commit(m, op, form, step % 2 === 0);
      if (rand() < 0.08 || step === 399) {
        const s = m.state;
        assert.deepStrictEqual(s, ref, `seed ${seed} step ${step}`);
        assert.equal(JSON.stringify(s), JSON.stringify(ref));
        for (const name of ['messages', 'toolCalls']) {
          if (t.moved.has(name)) continue;
          for (let i = 0; i < prev[name].length; i++) {
            if (!t[name].has(i)) assert.equal(s[name][i], prev[name][i], `seed ${seed}: ${name}[${i}] shared`);
          }
        }
        if (!t.moved.has('messages') && t.messages.size === 0 && s !== prev) assert.equal(s.messages, prev.messages);
        reads.push([s, JSON.stringify(s)]);
        prev = s;
        t = { messages: new Set(), toolCalls: new Set(), moved: new Set() };
      }
    }
    for (const [s, json] of reads) assert.equal(JSON.stringify(s), json, `seed ${seed}: an old state changed`);
    for (const [op, json] of values) assert.equal(JSON.stringify(op.value), json, `seed ${seed}: an op value changed`);
    assert.equal(Object.getPrototypeOf(m.state.toolCalls[0].args), Object.prototype);
  }
});

test('mixed reads: appends to what an op by path replaced or removed fail as one by one', () => {
  const init = { messages: [{ content: 'a' }], toolCalls: [{ argsText: '', args: { x: 'b' } }] };
  const X = Object.freeze(['args', 'x']);
  const cases = [
    // an append after the string became a number
    [[{ op: 'append', path: '/messages/0/content', value: 'b' }, [0, 0, 'content']],
      [{ op: 'replace', path: '/messages/0/content', value: 1 }, null],
      [{ op: 'append', path: '/messages/0/content', value: 'c' }, [0, 0, 'content']]],
    // an append to a tool call's argument after its args lost the key
    [[{ op: 'append', path: '/toolCalls/0/args/x', value: 'b' }, [1, 0, X]],
      [{ op: 'replace', path: '/toolCalls/0/args', value: {} }, null],
      [{ op: 'append', path: '/toolCalls/0/args/x', value: 'c' }, [1, 0, X]]],
    // an append to a message that was removed
    [[{ op: 'append', path: '/messages/0/content', value: 'b' }, [0, 0, 'content']],
      [{ op: 'remove', path: '/messages/0' }, null],
      [{ op: 'append', path: '/messages/0/content', value: 'c' }, [0, 0, 'content']]],
  ];
  for (const ops of cases) {
    assert.throws(() => applyOps(init, ops.map(([op]) => op), new WeakSet()));
    assert.throws(() => applyMixed(init, ops.map(([op]) => op), ops.flatMap(([, f]) => f ?? [-1, 0, null])), /append to a non-string/);
  }
  assert.deepStrictEqual(init, { messages: [{ content: 'a' }], toolCalls: [{ argsText: '', args: { x: 'b' } }] });
});

test('a removed key leaves an own-key copy in fast mode; "__proto__" keys stay own keys', () => {
  const json = '{"o":{"__proto__":{"x":1},"a":1,"b":[{"__proto__":2,"c":3}]},"r":1}';
  const root = JSON.parse(json);
  const next = applyOps(root, [
    { op: 'remove', path: '/o/a' },
    { op: 'remove', path: '/o/b/0/c' },
    { op: 'add', path: '/o/z', value: 1 },
    { op: 'remove', path: '/r' },
  ], new WeakSet());
  assert.equal(JSON.stringify(next), '{"o":{"__proto__":{"x":1},"b":[{"__proto__":2}],"z":1}}');
  assert.deepStrictEqual(Object.keys(next.o.b[0]), ['__proto__']);
  assert.equal(Object.getPrototypeOf(next.o), Object.prototype);
  assert.equal(JSON.stringify(root), json, 'input untouched');
  assert.throws(() => applyOps(root, [{ op: 'remove', path: '/o/missing' }], new WeakSet()), /remove of a missing key/);
});

