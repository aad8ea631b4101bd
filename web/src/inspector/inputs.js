// The inputs a reducer folded, as the inspector keeps and replays them: an
// event's data as the text the reducer was given, an action as the wasm
// export takes it (its argument text made by ../reducer/calls.js, as the
// reducers make it), and the ids an entry is filtered by.

import { args, valueArgs, snapshotArgs } from '../reducer/calls.js';

const textDecoder = new TextDecoder();

/** Event data (object, text, bytes) as the text the reducer was given. */
export function dataText(data) {
  if (typeof data === 'string') return data;
  if (data instanceof Uint8Array) return textDecoder.decode(data);
  if (data instanceof ArrayBuffer) return textDecoder.decode(new Uint8Array(data));
  if (ArrayBuffer.isView(data)) return textDecoder.decode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  return JSON.stringify(data);
}

/** The id fields an entry is filtered by. */
export const ID_FIELDS = ['messageId', 'toolCallId', 'parentMessageId', 'runId', 'threadId', 'stepName', 'subagentRunId', 'entityId'];

/** The generated id an action's change record holds (addUserMessage, addToolResult without an id). */
export function addedMessageId(record) {
  for (const op of record?.ops ?? []) {
    if (op.op === 'add' && /^\/messages\/\d+$/.test(op.path) && op.value && typeof op.value.id === 'string') return op.value.id;
  }
  return undefined;
}

/**
 * An action as the wasm export takes it: [export name, argument text or
 * undefined]; args as a recording holds them (JSON values).
 */
export function actionCall(name, argv) {
  switch (name) {
    case 'addUserMessage': case 'addToolResult': case 'fail': return [name, args[name](...argv)];
    case 'stop': case 'reset': return [name, undefined];
    case 'setState': case 'setMessages': return [name, valueArgs(name, argv[0]).text];
    case 'restore': return ['restore', snapshotArgs(argv[0]).text];
    case 'setLastEventId': return ['setLastEventId', String(argv[0] ?? '')];
    // The tools whose schemas validate tool-call arguments (setTools(), a run's input).
    case 'setTools': return ['setTools', JSON.stringify(Array.isArray(argv[0]) ? argv[0] : [])];
    default: return null;
  }
}
