// The 1.0 → 0.0.x bridge of the drop-in's transport (resume.js): with
// @ag-ui/client 0.0.x (CopilotKit 1.75 pins 0.0.59), whose transport parses
// every event with its zod schemas and fails the whole run on a shape AG-UI
// 1.0 added, an event of such a shape is handed to that parse in the shape
// 0.0.x's types promise, while the reducer folds the event as it came
// (originalOf: the parsed event → the 1.0 one). What it changes:
//
//   TOOL_CALL_RESULT content parts   → their text, joined with "\n" (a part
//                                      that is not text: a fallback text)
//   RUN_FINISHED outcome cancelled   → no outcome and no result (a run that
//                                      ended without failing; its result is
//                                      not captured, as in 1.0), the event
//                                      handed on with outcome {type:"cancelled"}
//   success outcome with pendingToolCallIds → {type:"success"} for the parse,
//                                      the event handed on with the ids
//   RUN_STARTED input without tools/context → [] (0.0.x's defaults)
//   a message part whose source is a provider's file (image, audio, video,
//     document) → a text part saying what it was (RUN_STARTED input,
//                                      MESSAGES_SNAPSHOT); tool messages'
//                                      content parts → their text
//   an event type 0.0.x does not know → not parsed: passed on as it came (it
//                                      reaches onEvent subscribers only), with
//                                      one warning per type and agent
//
// A malformed event (a required field missing) still fails the run: the
// bridge changes only the shapes above and the parse judges the rest. The
// view (view.js, legacy) gives the reducer's messages the same shapes.
// docs/ag-ui-agent.md, "AG-UI 1.0 events on @ag-ui/client 0.0.x".

const ORIGINAL = new WeakMap();

/** The event as it came, for one the bridge changed (else the event itself). */
export function originalOf(event) {
  return ORIGINAL.get(event) ?? event;
}

/** The text of content parts: the text parts' text, a fallback for the others, joined with "\n". */
export function partsText(parts) {
  return parts.map((p) => (p?.type === 'text' && typeof p.text === 'string' ? p.text : fallbackText(p))).join('\n');
}

/** What a part 0.0.x's types cannot hold says in its place. */
export function fallbackText(p) {
  const type = typeof p?.type === 'string' ? p.type : 'part';
  const s = p?.source;
  if (s?.type === 'file') return `[${type}: file ${s.value}${s.provider ? ` (${s.provider})` : ''}]`;
  if (s?.type === 'url') return `[${type}: ${s.value}]`;
  return `[${type}]`;
}

const MEDIA = new Set(['image', 'audio', 'video', 'document']);

/** A user message's parts in 0.0.x's shapes (a file source → a text part), or parts itself. */
export function legacyParts(parts) {
  let out = null;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (MEDIA.has(p?.type) && p.source?.type === 'file') {
      out ??= parts.slice(0, i);
      out.push({ type: 'text', text: fallbackText(p) });
    } else if (out !== null) out.push(p);
  }
  return out ?? parts;
}

/** A message in 0.0.x's shape, or m itself. */
export function legacyMessage(m) {
  if (m === null || typeof m !== 'object' || !Array.isArray(m.content)) return m;
  if (m.role === 'tool') return { ...m, content: partsText(m.content) };
  if (m.role === 'user') {
    const parts = legacyParts(m.content);
    return parts === m.content ? m : { ...m, content: parts };
  }
  return m;
}

function legacyMessages(list) {
  if (!Array.isArray(list)) return list;
  let out = null;
  for (let i = 0; i < list.length; i++) {
    const m = legacyMessage(list[i]);
    if (m !== list[i]) out ??= list.slice(0, i);
    if (out !== null) out.push(m);
  }
  return out ?? list;
}

/**
 * event in the shape 0.0.x's parse takes, or event itself when it needs no
 * change; null when its type is one 0.0.x does not know (known: the
 * client's EventType values).
 */
export function down(event, known) {
  switch (event.type) {
    case 'TOOL_CALL_RESULT':
      return Array.isArray(event.content) ? { ...event, content: partsText(event.content) } : event;
    case 'RUN_FINISHED': {
      const o = event.outcome;
      if (o?.type === 'cancelled') {
        const { outcome: _o, result: _r, ...rest } = event;
        return rest;
      }
      if (o?.type === 'success' && o.pendingToolCallIds !== undefined) {
        const { pendingToolCallIds: _, ...outcome } = o;
        return { ...event, outcome };
      }
      return event;
    }
    case 'RUN_STARTED': {
      const input = event.input;
      if (input === null || typeof input !== 'object') return event;
      const messages = legacyMessages(input.messages);
      if (Array.isArray(input.tools) && Array.isArray(input.context) && messages === input.messages) return event;
      return { ...event, input: { ...input, tools: input.tools ?? [], context: input.context ?? [], ...(messages === undefined ? {} : { messages }) } };
    }
    case 'MESSAGES_SNAPSHOT': {
      const messages = legacyMessages(event.messages);
      return messages === event.messages ? event : { ...event, messages };
    }
    default:
      return known.size === 0 || known.has(event.type) ? event : null; // (no list given: none dropped)
  }
}

/**
 * After the parse: parsed (what 0.0.x made of down(event)) handed on with
 * the 1.0 outcome a RUN_FINISHED came with, and remembered as event's.
 */
export function up(parsed, event) {
  if (parsed === event) return parsed;
  if (event.type === 'RUN_FINISHED' && event.outcome !== undefined && parsed.outcome?.type !== 'interrupt') {
    parsed.outcome = event.outcome;
  }
  ORIGINAL.set(parsed, event);
  return parsed;
}

const warned = new WeakMap(); // agent → the types it warned of

/** One warning per agent and event type the installed client does not know. */
export function warnUnknown(agent, type) {
  let types = warned.get(agent);
  if (types === undefined) warned.set(agent, (types = new Set()));
  if (types.has(type)) return;
  types.add(type);
  console.warn(`agui reducer: an event of type ${JSON.stringify(type)}, which the installed @ag-ui/client does not know, `
    + 'was left out of its apply step (onEvent subscribers receive it as it came)');
}
