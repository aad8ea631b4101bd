// A scroll box that says it scrolls: overlay scrollbars (phones, macOS,
// headless Chromium) show nothing until the user scrolls, so a box cut at
// its max-height looks like it ends there. watchOverflow marks the box
// (data-scroll) and keeps data-overflowing ("true" while its content is
// larger than it) and data-more (the sides with more to see: "up down left
// right") up to date, from its size, its content and its scroll position;
// the stylesheet fades the sides with more (and a page may add a "more"
// control keyed on data-overflowing).

const watched = new WeakMap(); // element → its unwatch()

/** Keeps el's data-overflowing and data-more current; returns a function that stops. */
export function watchOverflow(el) {
  if (watched.has(el)) return watched.get(el);
  el.setAttribute('data-scroll', '');
  let frame = 0;
  const update = () => {
    frame = 0;
    const overY = el.scrollHeight > el.clientHeight + 1;
    const overX = el.scrollWidth > el.clientWidth + 1;
    const more = [];
    if (overY && el.scrollTop > 1) more.push('up');
    if (overY && el.scrollTop + el.clientHeight < el.scrollHeight - 1) more.push('down');
    if (overX && el.scrollLeft > 1) more.push('left');
    if (overX && el.scrollLeft + el.clientWidth < el.scrollWidth - 1) more.push('right');
    const over = String(overX || overY);
    if (el.dataset.overflowing !== over) el.dataset.overflowing = over;
    const m = more.join(' ');
    if ((el.dataset.more ?? '') !== m) { if (m) el.dataset.more = m; else delete el.dataset.more; }
  };
  const schedule = () => { if (!frame) frame = requestAnimationFrame(update); };
  const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(schedule) : null;
  ro?.observe(el);
  const mo = typeof MutationObserver === 'function' ? new MutationObserver(schedule) : null;
  mo?.observe(el, { childList: true, characterData: true, subtree: true, attributes: true, attributeFilter: ['style', 'hidden', 'open'] });
  el.addEventListener('scroll', schedule, { passive: true });
  update();
  const stop = () => {
    ro?.disconnect();
    mo?.disconnect();
    el.removeEventListener('scroll', schedule);
    if (frame) cancelAnimationFrame(frame);
    watched.delete(el);
  };
  watched.set(el, stop);
  return stop;
}

/** Recomputes el's marks now (after a change the observers cannot see, e.g. a max-height lifted). */
export function checkOverflow(el) {
  const stop = watched.get(el);
  if (!stop) return;
  el.dispatchEvent(new Event('scroll'));
}

/**
 * The fades, as CSS: a box with more above or below fades that edge (a
 * sideways-only scroller its left or right edge). For a page's stylesheet
 * or a shadow root's.
 */
export const overflowCSS = `
[data-scroll][data-more~="down"] { -webkit-mask-image: linear-gradient(to bottom, #000 calc(100% - var(--fade, 2.2em)), transparent); mask-image: linear-gradient(to bottom, #000 calc(100% - var(--fade, 2.2em)), transparent); }
[data-scroll][data-more~="up"] { -webkit-mask-image: linear-gradient(to bottom, transparent, #000 var(--fade, 2.2em)); mask-image: linear-gradient(to bottom, transparent, #000 var(--fade, 2.2em)); }
[data-scroll][data-more~="up"][data-more~="down"] { -webkit-mask-image: linear-gradient(to bottom, transparent, #000 var(--fade, 2.2em), #000 calc(100% - var(--fade, 2.2em)), transparent); mask-image: linear-gradient(to bottom, transparent, #000 var(--fade, 2.2em), #000 calc(100% - var(--fade, 2.2em)), transparent); }
[data-scroll][data-more~="right"]:not([data-more~="down"]):not([data-more~="up"]) { -webkit-mask-image: linear-gradient(to right, #000 calc(100% - var(--fade, 2.5em)), transparent); mask-image: linear-gradient(to right, #000 calc(100% - var(--fade, 2.5em)), transparent); }
[data-scroll][data-more~="left"]:not([data-more~="down"]):not([data-more~="up"]) { -webkit-mask-image: linear-gradient(to right, transparent, #000 var(--fade, 2.5em)); mask-image: linear-gradient(to right, transparent, #000 var(--fade, 2.5em)); }
[data-scroll][data-more~="left"][data-more~="right"]:not([data-more~="down"]):not([data-more~="up"]) { -webkit-mask-image: linear-gradient(to right, transparent, #000 var(--fade, 2.5em), #000 calc(100% - var(--fade, 2.5em)), transparent); mask-image: linear-gradient(to right, transparent, #000 var(--fade, 2.5em), #000 calc(100% - var(--fade, 2.5em)), transparent); }
`;
