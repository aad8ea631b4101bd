// The inspector's stylesheet (shadow DOM; adopted as a constructed
// stylesheet, which a page's Content-Security-Policy allows).

import { overflowCSS } from './overflow.js';

export const css = overflowCSS + `
:host { display: block; height: 100%; min-height: 280px; contain: content; container-type: inline-size;
  --bg: #ffffff; --fg: #1d2230; --muted: #667085; --line: #e3e6ec; --soft: #f5f6f9; --sel: #dbe7ff; --range: #eef3ff;
  --accent: #3a63d8; --warn: #b86e00; --err: #c62f2f; --ok: #1f8a4c; --tool: #7c4dcc; --step: #0f7f8a; --sub: #b5478f;
  font: 12px/1.45 ui-sans-serif, system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
@media (prefers-color-scheme: dark) {
  :host { --bg: #14171f; --fg: #e4e7ee; --muted: #98a1b3; --line: #2a2f3b; --soft: #1b1f29; --sel: #263a66; --range: #1d2740;
    --accent: #7c9cff; --warn: #f0a53a; --err: #ff6b6b; --ok: #4cc486; --tool: #b08cff; --step: #3cc2cf; --sub: #f07cc3; }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
.root { display: grid; grid-template-rows: auto auto minmax(0, 1fr); height: 100%; border: 1px solid var(--line); border-radius: 10px; overflow: hidden; background: var(--bg); }
.bar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; padding: 6px 8px; border-bottom: 1px solid var(--line); background: var(--soft); }
.title { font-weight: 650; margin-right: 4px; }
.pill { font-size: 11px; padding: 1px 7px; border-radius: 999px; background: var(--line); color: var(--muted); }
.pill[data-mode="live"] { background: color-mix(in srgb, var(--ok) 18%, transparent); color: var(--ok); }
.pill[data-mode="replay"] { background: color-mix(in srgb, var(--accent) 18%, transparent); color: var(--accent); }
.count { color: var(--muted); font-variant-numeric: tabular-nums; }
.spacer { flex: 1; }
button, select, input, .file { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 2px 8px; min-height: 26px; }
button, .file { cursor: pointer; }
button:hover, .file:hover { border-color: var(--accent); }
button:focus-visible, select:focus-visible, input:focus-visible, .timeline:focus-visible, .file:focus-within { outline: 2px solid var(--accent); outline-offset: 1px; }
button[aria-pressed="true"] { background: var(--sel); border-color: var(--accent); }
.file { display: inline-flex; align-items: center; }
.file input { position: absolute; width: 1px; height: 1px; opacity: 0; }
.filters { display: flex; flex-wrap: wrap; gap: 4px 6px; padding: 5px 8px; border-bottom: 1px solid var(--line); }
.filters input { width: 8.5em; min-width: 0; flex: 1 1 7em; }
.main { display: grid; grid-template-columns: minmax(0, 1.05fr) minmax(0, 1fr); min-height: 0; }
/* Side by side only when both halves have room for their columns; stacked, the timeline keeps its ids and sizes down to a phone's width. */
@container (max-width: 900px) { .main { grid-template-columns: minmax(0, 1fr); grid-template-rows: minmax(160px, 1fr) minmax(0, 1.2fr); } .detail { border-left: 0 !important; border-top: 1px solid var(--line); } }
@container (max-width: 520px) { .col-ids, .col-size { display: none; } }
.timeline { display: grid; grid-template-rows: auto minmax(0, 1fr); min-height: 0; outline: none; }
.thead, .row { display: grid; grid-template-columns: 4.2em 5.2em minmax(9em, 1.3fr) minmax(0, 1fr) 3.6em 2.6em 1.6em; gap: 6px; align-items: center; padding: 0 8px; white-space: nowrap; }
.thead { height: 22px; color: var(--muted); font-size: 11px; border-bottom: 1px solid var(--line); background: var(--soft); }
.scroll { position: relative; overflow: auto; min-height: 0; overscroll-behavior: contain; --fade: 12px; /* less than a row: a selected row at an edge stays readable */ }
.spacer-y { width: 1px; }
.rows { position: absolute; left: 0; right: 0; top: 0; will-change: transform; }
.row { height: 22px; cursor: default; font-variant-numeric: tabular-nums; border-bottom: 1px solid color-mix(in srgb, var(--line) 45%, transparent); }
.row:hover { background: var(--soft); }
.row.in-range { background: var(--range); }
.row[aria-selected="true"] { background: var(--sel); }
.row > span { overflow: hidden; text-overflow: ellipsis; }
.num, .time, .size, .ops { text-align: right; color: var(--muted); }
.type { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 11px; }
.type[data-k="action"] { color: var(--accent); }
.type[data-k="end"], .type[data-k="reconnect"] { color: var(--muted); font-style: italic; }
.type[data-k="note"] { color: var(--accent); font-style: italic; font-family: inherit; }
.ids { color: var(--muted); font-size: 11px; }
.diag { text-align: center; font-weight: 700; }
.diag[data-level="error"] { color: var(--err); }
.diag[data-level="warning"] { color: var(--warn); }
.empty { padding: 16px; color: var(--muted); }
.detail { display: grid; grid-template-rows: auto minmax(0, 1fr); min-height: 0; border-left: 1px solid var(--line); }
.tabs { display: flex; gap: 2px; padding: 4px 6px 0; border-bottom: 1px solid var(--line); overflow-x: auto; align-items: end; }
.tabs button { border: 0; border-bottom: 2px solid transparent; border-radius: 0; background: none; padding: 4px 8px; }
.tabs button[aria-selected="true"] { border-bottom-color: var(--accent); color: var(--accent); font-weight: 600; }
.tabs .where { margin-left: auto; color: var(--muted); font-size: 11px; padding: 4px 2px; white-space: nowrap; }
.pane { overflow: auto; padding: 8px 10px; min-height: 0; }
pre, code { font: 11.5px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { margin: 4px 0; white-space: pre-wrap; word-break: break-word; background: var(--soft); padding: 6px 8px; border-radius: 6px; }
h4 { margin: 10px 0 4px; font-size: 11px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
h4:first-child { margin-top: 0; }
.kv { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 10px; }
.kv dt { color: var(--muted); }
.kv dd { margin: 0; overflow-wrap: anywhere; }
.msg { border: 1px solid var(--line); border-radius: 8px; padding: 6px 8px; margin-bottom: 6px; }
.msg-head { display: flex; gap: 6px; align-items: baseline; font-size: 11px; color: var(--muted); }
.role { font-weight: 650; color: var(--fg); text-transform: capitalize; }
.msg-body { white-space: pre-wrap; overflow-wrap: anywhere; margin-top: 2px; }
.reasoning { color: var(--muted); font-style: italic; white-space: pre-wrap; margin-top: 2px; }
.tc-name { font-weight: 650; color: var(--fg); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.tc { border-left: 3px solid var(--tool); padding: 2px 6px; margin-top: 4px; }
.badge { font-size: 10.5px; padding: 0 6px; border-radius: 999px; background: var(--soft); border: 1px solid var(--line); }
.diag-line { color: var(--warn); }
.diag-line[data-level="error"] { color: var(--err); }
.tree, .tree ul { list-style: none; margin: 0; padding-left: 14px; }
.tree { padding-left: 0; }
.tree li { margin: 1px 0; }
.tree .key { color: var(--accent); }
.tree .op-add { color: var(--ok); }
.tree .op-remove { color: var(--err); }
.tree .op-replace { color: var(--warn); }
.tree .before { text-decoration: line-through; color: var(--muted); }
.jt details > summary { cursor: pointer; list-style: none; }
.jt details > summary::before { content: "▸ "; color: var(--muted); }
.jt details[open] > summary::before { content: "▾ "; }
.jt .k { color: var(--accent); }
.jt .s { color: var(--ok); }
.jt .n { color: var(--tool); }
.jt .b { color: var(--warn); }
.jt .body { padding-left: 14px; }
.lanes { position: relative; }
/* --lw: the labels' column, as wide as the longest label up to 42% (lanesView sets it); a longer label wraps, whole. */
.lanes { --lw: 9em; }
.lane-axis { display: flex; justify-content: space-between; color: var(--muted); font-size: 10.5px; margin-left: calc(var(--lw) + 6px); border-bottom: 1px solid var(--line); }
.lane { display: grid; grid-template-columns: var(--lw) minmax(0, 1fr); gap: 6px; align-items: center; min-height: 20px; }
.lane-label { overflow-wrap: break-word; font-size: 11px; min-width: 0; }
.lane-label .kind { color: var(--muted); font-size: 10px; margin-right: 4px; text-transform: uppercase; }
.track { position: relative; height: 16px; }
.span { position: absolute; top: 3px; height: 10px; border-radius: 3px; min-width: 2px; background: var(--accent); cursor: pointer; }
.span[data-kind="step"] { background: var(--step); }
.span[data-kind="subagent"] { background: var(--sub); }
.span[data-kind="tool"] { background: color-mix(in srgb, var(--tool) 45%, transparent); }
.span .args { position: absolute; left: 0; top: 0; bottom: 0; background: var(--tool); border-radius: 3px 0 0 3px; }
.span[data-status="error"] { background: var(--err); }
/* A tool call whose arguments broke its schema (or were cut off): hatched red, a tick where it became so. */
.span[data-args] { background: color-mix(in srgb, var(--err) 35%, transparent); outline: 1px solid var(--err); }
.span[data-args] .args { background: var(--err); }
.span .invalid-mark { position: absolute; top: -3px; bottom: -3px; width: 3px; background: var(--err); border-radius: 1px; }
.row.args-invalid { box-shadow: inset 3px 0 0 var(--err); }
.type[data-args]::before { content: "⊘ "; color: var(--err); font-weight: 700; }
.badge[data-args] { color: var(--err); border-color: var(--err); }
.args-call { margin-top: 4px; }
.args-errors { display: grid; gap: 2px; margin: 2px 0 6px; }
.args-error { display: flex; flex-wrap: wrap; gap: 2px 8px; align-items: baseline; padding: 2px 6px; border-left: 2px solid var(--err); background: color-mix(in srgb, var(--err) 7%, transparent); overflow-wrap: anywhere; }
.args-error .path { font-weight: 600; }
.args-error .kw { color: var(--err); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 11px; }
.args-error .msg { min-width: 0; }
.span[data-open] { background-image: repeating-linear-gradient(45deg, transparent 0 4px, rgba(255,255,255,.35) 4px 8px); }
.lane-dur { color: var(--muted); font-size: 10.5px; white-space: nowrap; }
.cursor-line { position: absolute; top: 0; bottom: 0; width: 1px; background: var(--err); pointer-events: none; }
.drop { position: absolute; inset: 0; display: grid; place-items: center; background: color-mix(in srgb, var(--accent) 14%, transparent); border: 2px dashed var(--accent); border-radius: 10px; font-size: 14px; font-weight: 600; pointer-events: none; }
.toast { position: absolute; right: 10px; bottom: 10px; background: var(--fg); color: var(--bg); padding: 4px 10px; border-radius: 6px; font-size: 11px; }
.hint { color: var(--muted); font-size: 11px; }
/* Without the ids and size columns (a phone), the type takes their room (after the rows' own columns, to win). */
@container (max-width: 520px) { .thead, .row { grid-template-columns: 3.4em 4.6em minmax(0, 1fr) 2.6em 1.6em; } }
`;
