// @agui-reducer/web/inspector: <agui-inspector>, a custom element that
// shows what a reducer folds (an event timeline, time travel, diffs,
// swimlanes, recordings). A separate entry: an app that does not import it
// ships none of it. Importing it registers the element (in a browser).
// Types: types/inspector.d.ts. Documentation: docs/inspector.md.

import { AguiInspector, defineInspector } from './element.js';

export { AguiInspector, defineInspector };
export { Session } from './session.js';
export { toRecording, toFixture, parseRecording } from './recording.js';
export { jsonPatch, applyPatch } from './diff.js';

defineInspector();
