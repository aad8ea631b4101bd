// Types of agui.js: change records (re-exported by ../agui.d.ts).

import type { JSONValue } from './state.js';

/** One operation on the state document (JSON Pointer path; append concatenates a string). */
export type ChangeOp =
  | { op: 'add' | 'replace'; path: string; value: JSONValue }
  | { op: 'remove'; path: string }
  | { op: 'append'; path: string; value: string };

export interface Diagnostic {
  code: string;
  level: 'warning' | 'error';
  message: string;
}

/** What a CUSTOM event produced (custom events are not stored in the state). */
export type CustomEvent =
  | { type: 'custom'; name: string; value: JSONValue }
  | { type: 'state_update'; state: { [key: string]: JSONValue } };

/** What one event or action changed. Empty lists are left out. Treat as read-only: the
 *  mirror applies a record's ops when the state is next read, and their values become part
 *  of the state. */
export interface ChangeRecord {
  ops?: ChangeOp[];
  events?: CustomEvent[];
  diagnostics?: Diagnostic[];
}
