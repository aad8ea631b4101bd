// Streams at the edges of the drop-in's token lane (web/src/ag-ui/lane.js):
// each a list of runs, for lane.test.mjs (1.0) and bench/ag-ui-059 (0.0.59).

export const START = { type: 'RUN_STARTED', threadId: 'thread-1', runId: 'run-0' };
export const FINISH = { type: 'RUN_FINISHED', threadId: 'thread-1', runId: 'run-0' };
export const MSG = { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant' };
export const TC = { type: 'TOOL_CALL_START', toolCallId: 't1', toolCallName: 'f', parentMessageId: 'm1' };
export const text = (delta, extra = {}) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta, ...extra });
export const args = (delta) => ({ type: 'TOOL_CALL_ARGS', toolCallId: 't1', delta });

const run = (...events) => [START, ...events, FINISH];
export const laneStreams = () => new Map([
  ['plain', [run(MSG, text('Hel'), text('lo'), { type: 'TEXT_MESSAGE_END', messageId: 'm1' }, TC, args('{"a":'), args('1}'), { type: 'TOOL_CALL_END', toolCallId: 't1' })]],
  ['timestamps', [run({ type: 'TEXT_MESSAGE_START', timestamp: 1, messageId: 'm1', role: 'assistant' }, { type: 'TEXT_MESSAGE_CONTENT', timestamp: 2, messageId: 'm1', delta: 'a' },
    { type: 'TEXT_MESSAGE_CONTENT', timestamp: 2.5, messageId: 'm1', delta: 'b' }, { type: 'TEXT_MESSAGE_END', messageId: 'm1' })]],
  ['fields out of order', [run(MSG, { delta: 'a', messageId: 'm1', type: 'TEXT_MESSAGE_CONTENT' }, text('b'), { type: 'TEXT_MESSAGE_END', messageId: 'm1' })]],
  ['an unknown field', [run(MSG, text('a'), text('b', { note: 'x' }), text('c'), { type: 'TEXT_MESSAGE_END', messageId: 'm1' })]],
  ['a delta not a string', [run(MSG, text('a'), text(7), { type: 'TEXT_MESSAGE_END', messageId: 'm1' })]],
  ['content after its end', [run(MSG, text('a'), { type: 'TEXT_MESSAGE_END', messageId: 'm1' }, text('b'))]],
  ['content of another message', [run(MSG, text('a'), { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'b' })]],
  ['content after the run', [[START, MSG, text('a'), { type: 'TEXT_MESSAGE_END', messageId: 'm1' }, FINISH, text('b')]]],
  ['a message left open', [run(MSG, text('a'))]],
  ['two runs in one response', [[START, MSG, text('a'), { type: 'TEXT_MESSAGE_END', messageId: 'm1' }, FINISH,
    { ...START, runId: 'run-0b' }, { ...MSG, messageId: 'm2' }, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'b' }, { type: 'TEXT_MESSAGE_END', messageId: 'm2' }, { ...FINISH, runId: 'run-0b' }]]],
  ['a message reopened', [run(MSG, text('a'), { type: 'TEXT_MESSAGE_END', messageId: 'm1' }, MSG, text('b'), { type: 'TEXT_MESSAGE_END', messageId: 'm1' })]],
  ['chunks, then deltas', [run({ type: 'TEXT_MESSAGE_CHUNK', messageId: 'm0', role: 'assistant', delta: 'x' }, MSG, text('a'), { type: 'TEXT_MESSAGE_END', messageId: 'm1' })]],
  ['a subagent\'s message', [run({ type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'helper' }, { ...MSG, subagentRunId: 's1' }, text('a'), text('b', { subagentRunId: 's1' }),
    { type: 'TEXT_MESSAGE_END', messageId: 'm1', subagentRunId: 's1' }, { type: 'SUBAGENT_FINISHED', subagentRunId: 's1' })]],
  ['reasoning between deltas', [run(MSG, text('a'), { type: 'REASONING_START', messageId: 'r1' }, { type: 'REASONING_MESSAGE_START', messageId: 'r2', role: 'reasoning' },
    { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r2', delta: 'hm' }, text('b'), { type: 'REASONING_MESSAGE_END', messageId: 'r2' }, { type: 'REASONING_END', messageId: 'r1' }, { type: 'TEXT_MESSAGE_END', messageId: 'm1' })]],
  ['reasoning content after its end', [run({ type: 'REASONING_START', messageId: 'r1' }, { type: 'REASONING_MESSAGE_START', messageId: 'r2', role: 'reasoning' },
    { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r2', delta: 'hm' }, { type: 'REASONING_MESSAGE_END', messageId: 'r2' },
    { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r2', delta: 'late' }, { type: 'REASONING_END', messageId: 'r1' })]],
  ['reasoning content with no message', [run({ type: 'REASONING_START', messageId: 'r1' }, { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'x' }, { type: 'REASONING_END', messageId: 'r1' })]],
  ['several runs', [run(MSG, text('a'), { type: 'TEXT_MESSAGE_END', messageId: 'm1' }), [{ ...START, runId: 'run-1' }, { ...MSG, messageId: 'm2' }, { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm2', delta: 'b' }, { type: 'TEXT_MESSAGE_END', messageId: 'm2' }, { ...FINISH, runId: 'run-1' }]]],
]);

