// /inspect: drop a recording (or a .jsonl of events, or an SSE capture) and
// scrub through it with <agui-inspector>. Nothing is sent anywhere: the
// file is read and folded in this page.
import '../src/inspector/entry.js';

const inspector = document.querySelector('[data-testid="inspector"]');
const file = document.querySelector('[data-testid="inspect-file"]');

file.addEventListener('change', () => {
  const f = file.files?.[0];
  if (f) inspector.load(f, { speed: 'full' });
  file.value = '';
});
// A drop anywhere on the page goes to the inspector.
document.addEventListener('dragover', (e) => { if ([...(e.dataTransfer?.types ?? [])].includes('Files')) e.preventDefault(); });
document.addEventListener('drop', (e) => {
  const f = e.dataTransfer?.files?.[0];
  if (!f || e.defaultPrevented) return;
  e.preventDefault();
  inspector.load(f, { speed: 'full' });
});
await inspector.ready();
window.aguiInspect = { inspector };
document.body.dataset.ready = 'true';
