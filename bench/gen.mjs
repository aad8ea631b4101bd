// Deterministic (seeded) AG-UI event streams for the benchmark.
//
// A conversation is a list of turns; each turn is one agent run:
//
//   RUN_STARTED
//   (first turn only) STATE_SNAPSHOT {turn, notes: [], facts: {}}
//   REASONING_START, REASONING_MESSAGE_START, ~20 REASONING_MESSAGE_CONTENT,
//     REASONING_MESSAGE_END, REASONING_END
//   TEXT_MESSAGE_START, ~200 TEXT_MESSAGE_CONTENT, TEXT_MESSAGE_END
//   TOOL_CALL_START (parent: the assistant message), ~20 TOOL_CALL_ARGS,
//     TOOL_CALL_END, TOOL_CALL_RESULT
//   STATE_DELTA of 3 ops (replace /turn, add /notes/-, add /facts/<key>):
//     the shared state grows by a note and a fact every turn
//   CUSTOM "progress"
//   RUN_FINISHED
//
// Deltas are 2–8 characters of realistic text (words, punctuation, the odd
// newline and non-ASCII character); ids look like what providers send.
// Everything derives from the seed, so Node and Chromium fold the same bytes.
//
// Also here: the official Message[] and state that N turns fold into (used to
// start the official reducer at turn N without folding N-1 turns through it,
// and checked against both reducers in gen.test.mjs).

/** mulberry32: a small, fast, seedable PRNG. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';

const WORDS = (
  'the a of to and in is it that for on with as this be are by at from or an was which you can ' +
  'weather forecast Paris temperature rain sunny cloudy wind humidity degrees Celsius tomorrow ' +
  'morning evening week trip plan museum river walk café train ticket hotel booking price ' +
  'budget option recommend should would could might because however therefore also first ' +
  'second finally check result data source according current conditions expected around ' +
  'between likely chance percent light jacket umbrella outdoor indoor visit open closed'
).split(' ');

class Gen {
  constructor(seed) { this.r = rng(seed); }
  int(lo, hi) { return lo + Math.floor(this.r() * (hi - lo + 1)); }
  pick(a) { return a[Math.floor(this.r() * a.length)]; }
  chars(set, n) { let s = ''; for (let i = 0; i < n; i++) s += set[Math.floor(this.r() * set.length)]; return s; }
  uuid() {
    const h = this.chars(HEX, 32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[this.int(0, 3)]}${h.slice(17, 20)}-${h.slice(20)}`;
  }
  /** Prose of about n characters. */
  prose(n) {
    let s = '';
    let sentence = 0;
    while (s.length < n) {
      let w = this.pick(WORDS);
      if (sentence === 0) w = w[0].toUpperCase() + w.slice(1);
      s += (s && !s.endsWith('\n') ? ' ' : '') + w;
      sentence++;
      if (sentence > 6 && this.r() < 0.18) {
        s += this.pick(['.', '.', '.', '!', '?', ':', ' —']);
        if (this.r() < 0.15) s += '\n';
        sentence = 0;
      } else if (this.r() < 0.05) {
        s += this.pick([',', ';', ' "quoted"', ' (aside)', ' 21°C', ' ✓']);
      }
    }
    return s;
  }
  /** Splits text into pieces of 2–8 characters (the last may be shorter). */
  split(text) {
    const out = [];
    for (let i = 0; i < text.length;) {
      const n = this.int(2, 8);
      out.push(text.slice(i, i + n));
      i += n;
    }
    return out;
  }
}

/** ~5 characters a delta on average: a delta count → a text length. */
const CHARS_PER_DELTA = 5;

/**
 * A conversation of `turns` turns. Returns {threadId, turns: [{runId,
 * events: object[]}], messages(n), state(n)}: messages(n)/state(n) are what
 * the first n turns fold into, in the official AG-UI shapes.
 */
export function generate({ turns, seed = 42, reasoningDeltas = 20, textDeltas = 200, argDeltas = 20 }) {
  const g = new Gen(seed);
  const threadId = g.uuid();
  const out = [];
  const msgs = []; // official Message[] after each turn, appended
  const perTurnMessages = [];
  const notes = [];
  const facts = {};
  const statesAfter = [];
  for (let t = 0; t < turns; t++) {
    const runId = g.uuid();
    const reasoningId = `rs_${g.chars(ALNUM, 24)}`;
    const msgId = `msg_${g.chars(ALNUM, 24)}`;
    const callId = `call_${g.chars(ALNUM, 24)}`;
    const resultId = `tool_${g.chars(ALNUM, 24)}`;
    const city = g.pick(['Paris', 'Lyon', 'Berlin', 'Tokyo', 'Lisbon', 'Oslo', 'Montréal']);
    const reasoning = g.prose(reasoningDeltas * CHARS_PER_DELTA);
    const text = g.prose(textDeltas * CHARS_PER_DELTA);
    const args = JSON.stringify({ city, units: 'metric', days: g.int(1, 7), include: ['hourly', 'alerts'], note: g.prose(argDeltas * CHARS_PER_DELTA - 75) });
    const result = JSON.stringify({ city, temperatureC: g.int(-5, 35), conditions: g.pick(['sunny', 'cloudy', 'rain', 'snow']), humidity: g.int(20, 95), wind: { kmh: g.int(0, 60), dir: g.pick(['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW']) }, summary: g.prose(90) });
    const ev = [];
    ev.push({ type: 'RUN_STARTED', threadId, runId });
    if (t === 0) ev.push({ type: 'STATE_SNAPSHOT', snapshot: { turn: 0, notes: [], facts: {} } });
    ev.push({ type: 'REASONING_START', messageId: reasoningId });
    ev.push({ type: 'REASONING_MESSAGE_START', messageId: reasoningId, role: 'reasoning' });
    for (const d of g.split(reasoning)) ev.push({ type: 'REASONING_MESSAGE_CONTENT', messageId: reasoningId, delta: d });
    ev.push({ type: 'REASONING_MESSAGE_END', messageId: reasoningId });
    ev.push({ type: 'REASONING_END', messageId: reasoningId });
    ev.push({ type: 'TEXT_MESSAGE_START', messageId: msgId, role: 'assistant' });
    for (const d of g.split(text)) ev.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: msgId, delta: d });
    ev.push({ type: 'TEXT_MESSAGE_END', messageId: msgId });
    ev.push({ type: 'TOOL_CALL_START', toolCallId: callId, toolCallName: 'get_weather', parentMessageId: msgId });
    for (const d of g.split(args)) ev.push({ type: 'TOOL_CALL_ARGS', toolCallId: callId, delta: d });
    ev.push({ type: 'TOOL_CALL_END', toolCallId: callId });
    ev.push({ type: 'TOOL_CALL_RESULT', messageId: resultId, toolCallId: callId, content: result, role: 'tool' });
    const note = { turn: t + 1, city, text: g.prose(40) };
    const factKey = `${city.toLowerCase()}_${t + 1}`;
    const factValue = g.pick(['sunny', 'cloudy', 'rain', 'snow']);
    ev.push({
      type: 'STATE_DELTA',
      delta: [
        { op: 'replace', path: '/turn', value: t + 1 },
        { op: 'add', path: '/notes/-', value: note },
        { op: 'add', path: `/facts/${factKey}`, value: factValue },
      ],
    });
    ev.push({ type: 'CUSTOM', name: 'progress', value: { turn: t + 1, pct: 100, stage: 'done' } });
    ev.push({ type: 'RUN_FINISHED', threadId, runId });
    out.push({ runId, events: ev });

    perTurnMessages.push([
      { id: reasoningId, role: 'reasoning', content: reasoning },
      { id: msgId, role: 'assistant', content: text, toolCalls: [{ id: callId, type: 'function', function: { name: 'get_weather', arguments: args } }] },
      { id: resultId, role: 'tool', content: result, toolCallId: callId },
    ]);
    notes.push(note);
    facts[factKey] = factValue;
    statesAfter.push({ notes: notes.length, facts: { ...facts }, turn: t + 1 });
  }
  return {
    threadId,
    turns: out,
    /** The official Message[] after the first n turns (fresh objects). */
    messages(n) {
      const m = [];
      for (let i = 0; i < n; i++) for (const x of perTurnMessages[i]) m.push(structuredClone(x));
      return m;
    },
    /** The shared state after the first n turns (fresh object). */
    state(n) {
      if (n === 0) return undefined;
      const s = statesAfter[n - 1];
      return { turn: s.turn, notes: structuredClone(notes.slice(0, s.notes)), facts: { ...s.facts } };
    },
  };
}

/** Events of turns [from, to) as objects. */
export function eventsOf(conv, from = 0, to = conv.turns.length) {
  const out = [];
  for (let t = from; t < to; t++) out.push(...conv.turns[t].events);
  return out;
}
