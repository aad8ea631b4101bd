// Types of agui.js: the agent state (the reducer's JSON document; field names are the contract) (re-exported by ../agui.d.ts).

export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

export interface AgentState {
  threadId: string;
  runId: string;
  status: 'idle' | 'running' | 'error';
  isLoading: boolean;
  error: null | { message: string; code?: string; /** streaming dialect: whether retrying may help */ recoverable?: boolean };
  messages: Message[];
  toolCalls: ToolCall[];
  /** Shared agent state (STATE_SNAPSHOT / STATE_DELTA). */
  state: JSONValue;
  steps: Step[];
  /** Pending interrupts, from RUN_FINISHED with outcome "interrupt". */
  interrupts: JSONValue[];
  /** TokenUsage[] of the last RUN_FINISHED / RUN_ERROR. */
  usage: JSONValue[];
  /** The result of the last successful RUN_FINISHED, when sent (an interrupted or cancelled run keeps the previous one). */
  result?: JSONValue;
  /** Class of the last RUN_FINISHED outcome; absent before any. */
  outcome?: 'success' | 'interrupt' | 'cancelled';
  /**
   * Tool calls the last successful run left for the client to run: the
   * outcome's non-empty pendingToolCallIds, else the calls the run started
   * that no TOOL_CALL_RESULT answered ([] after an interrupt or a cancel).
   */
  pendingToolCallIds: string[];
  /**
   * The open run's tool-call tally behind the next pendingToolCallIds: the
   * calls it started and those a TOOL_CALL_RESULT answered, in order.
   * Absent while empty (cleared when a run starts or ends); kept so that
   * restore(snapshot()) mid-run is exact.
   */
  runToolCalls?: { started: string[]; answered: string[] };
  /**
   * How many events of the open run changed the state in ways it cannot be compared with (state
   * and activity snapshots and patches, messages snapshots): a reducer restored mid-run skips that
   * many when the server resends the run from its start. Absent while 0 (cleared when a run
   * starts or ends).
   */
  runPatches?: number;
  /** Subagent invocations (SUBAGENT_STARTED / _FINISHED / _ERROR), in start order. */
  subagents: Subagent[];
  /** The SSE id of the last frame folded (feed(), apply(event, {id})); absent when the frames
   *  carried none. What a reconnect sends as Last-Event-ID; kept by snapshot() and restore(). */
  lastEventId?: string;
}

/** One subagent invocation; nest them by parentSubagentRunId. */
export interface Subagent {
  /** The invocation's subagentRunId. */
  id: string;
  name: string;
  description?: string;
  parentSubagentRunId?: string;
  parentToolCallId?: string;
  parentMessageId?: string;
  /** suspended: paused on interrupts (interruptIds); a later run may continue it. */
  status: 'running' | 'finished' | 'suspended' | 'error';
  result?: JSONValue;
  interruptIds?: string[];
  error?: { message: string; code?: string };
  /** Milliseconds: the event's timestamp, else the reducer's clock; absent without either. */
  startTime?: number;
  endTime?: number;
}

export type Role = 'user' | 'assistant' | 'system' | 'developer' | 'tool' | 'activity';

export type InputContent =
  | { type: 'text'; text: string }
  | { type: string; [key: string]: JSONValue };

/** AG-UI 1.0 name of InputContent: text and media parts. */
export type ContentPart = InputContent;

export type Citation = string | {
  id?: string; index?: number; title?: string; url?: string; snippet?: string;
  sourceType?: string; iconUrl?: string; publishedAt?: string; extra?: JSONValue;
};

export interface Message {
  id: string;
  role: Role;
  /** string for text; content parts for multimodal user messages and 1.0 tool results; an object for activity messages. */
  content: string | ContentPart[] | { [key: string]: JSONValue };
  name?: string;
  /** The subagent the message is attributed to (copied from the event that created it). */
  subagentRunId?: string;
  reasoning?: string;
  reasoningDurationMs?: number;
  citations?: Citation[];
  /** Assistant messages: the tool calls they own, in order. */
  toolCallIds?: string[];
  /** Tool messages. */
  toolCallId?: string;
  error?: JSONValue;
  /** Activity messages. */
  activityType?: string;
  encryptedValue?: string;
  metadata?: JSONValue;
  /** true between START and END. */
  streaming: boolean;
}

/** ToolCall.argsStatus. */
export type ArgsStatus = 'streaming' | 'valid' | 'invalid' | 'unchecked';

/** One way a tool call's arguments break the tool's schema. A type, not an interface, so
 *  that it is a JSONValue: a tool result can carry the errors as they are. */
export type ArgsError = {
  /** JSON Pointer of the offending value in the arguments ('' is the arguments object). */
  path: string;
  /** The schema keyword that failed: 'type', 'enum', 'required', 'additionalProperties', ...;
   *  'truncated' for arguments that are not complete JSON. */
  keyword: string;
  /** What is wrong, for people: "must be one of celsius, fahrenheit". */
  message: string;
};

/** A tool as a RunAgentInput carries it (AG-UI Tool): its parameters are a JSON Schema. */
export interface ToolDefinition {
  name: string;
  description?: string;
  parameters: JSONValue;
  [key: string]: JSONValue | undefined;
}

export interface ToolCall {
  id: string;
  name: string;
  parentMessageId: string;
  status: 'running' | 'complete' | 'error';
  /** Raw concatenated TOOL_CALL_ARGS deltas. */
  argsText: string;
  /** Best-effort parse while streaming; exact parse at END; {} if unparseable (then argsStatus
   *  is 'invalid', keyword 'truncated', and status 'error'). */
  args: JSONValue;
  /** The arguments against the tool's parameters schema (docs/tool-validation.md):
   *  'streaming' (arriving, no error known yet), 'valid', 'invalid' (an error no continuation can
   *  repair, the complete arguments break the schema, or they were cut off: keyword
   *  'truncated'), 'unchecked' (the tool's schema is unknown). */
  argsStatus: ArgsStatus;
  /** What is wrong with the arguments (at most 20), each at the event that completed the
   *  offending value while streaming, the final list at END. Absent when none. */
  argsErrors?: ArgsError[];
  /** Calls with a schema: the arguments that are valid so far, for a UI that renders from
   *  arguments while they stream: the top-level members of the arguments object that are
   *  complete and brought no error (never a half-written number, an out-of-enum string or a
   *  forbidden field), and a string that only its type constrains as it streams; all of args once
   *  valid. Absent on an unchecked call. */
  safeArgs?: JSONValue;
  /** The result's text: the string sent, or the text parts of a content-part result joined by newlines. */
  result?: string;
  /** A content-part result as sent (TOOL_CALL_RESULT content: ContentPart[]). */
  resultContent?: ContentPart[];
  resultMessageId?: string;
  /** Its assistant message's subagentRunId. */
  subagentRunId?: string;
  error?: JSONValue;
  encryptedValue?: string;
  /** An approval the agent asked for before running the tool (dialects). */
  approval?: Record<string, unknown>;
  /** The client must run this tool itself and send addToolResult (dialects). */
  clientSide?: boolean;
  metadata?: JSONValue;
}

export interface Step {
  name: string;
  status: 'running' | 'finished';
}
