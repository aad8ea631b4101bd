// A generic layout check for a page in the browser: nothing wider than the
// viewport, nothing that hides part of its content without saying so, and
// an input row (a textarea and its button) lined up. Used by the demo's
// browser tests at each screen size, after a scripted conversation.
//
// What counts as saying so:
// - a scroll container (overflow auto or scroll on that axis) with a
//   visible scrollbar on that axis (classic scrollbars take room: the box's
//   offset size exceeds its client size and borders), or one that is
//   declared with a data-scroll attribute and shows its affordance on that
//   axis (data-overflowing "true" and data-more naming a side of that axis,
//   which the page's stylesheet fades; overlay scrollbars on phones and
//   macOS show nothing);
// - one line cut with an ellipsis (text-overflow: ellipsis) whose whole
//   text is in its title attribute.
// The open shadow roots (the inspector) are checked too.

/**
 * The problems of page's layout, as strings (none: []). options.ignore: CSS
 * selectors of elements (and their subtrees) to leave out.
 */
export async function layoutProblems(page, { ignore = [] } = {}) {
  // Three frames: observers that mark boxes (ResizeObserver, then a frame) have run.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r)))));
  return page.evaluate((ignoreSelectors) => {
    const vw = document.documentElement.clientWidth;
    const problems = [];
    const name = (el) => {
      const t = el.getAttribute('data-testid');
      const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      const host = el.getRootNode() instanceof ShadowRoot ? `${el.getRootNode().host.localName} › ` : '';
      return `${host}${el.localName}${t ? `[data-testid=${t}]` : ''}${cls}`;
    };
    const ignored = (el) => ignoreSelectors.some((s) => el.closest(s));
    const shown = (el, cs) => cs.display !== 'none' && cs.visibility !== 'hidden' && el.getClientRects().length > 0;
    // Whether an ancestor (up to the document) clips el: then el's extent is that ancestor's business.
    const clippedByAncestor = (el) => {
      for (let p = el.parentElement ?? el.getRootNode().host; p && p !== document.body && p !== document.documentElement;
        p = p.parentElement ?? (p.getRootNode() instanceof ShadowRoot ? p.getRootNode().host : null)) {
        const cs = getComputedStyle(p);
        if (cs.overflowX !== 'visible') return true;
      }
      return false;
    };
    const walk = (root, out) => {
      for (const el of root.querySelectorAll('*')) {
        out.push(el);
        if (el.shadowRoot) walk(el.shadowRoot, out);
      }
      return out;
    };
    if (document.documentElement.scrollWidth > vw + 1) {
      problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth}px in a ${vw}px viewport`);
    }
    for (const el of walk(document, [])) {
      if (['script', 'style', 'link', 'meta', 'head', 'title', 'option', 'br', 'html', 'body'].includes(el.localName)) continue;
      if (ignored(el)) continue;
      const cs = getComputedStyle(el);
      if (!shown(el, cs)) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if ((r.right > vw + 1 || r.left < -1) && !clippedByAncestor(el)) {
        problems.push(`${name(el)} extends past the viewport: ${Math.round(r.left)}…${Math.round(r.right)} of ${vw}px`);
      }
      // Clipping: only boxes that clip (overflow not visible) hide content.
      const clipsX = cs.overflowX !== 'visible';
      const clipsY = cs.overflowY !== 'visible';
      const isField = el.localName === 'textarea' || el.localName === 'input' || el.localName === 'select';
      if (!clipsX && !clipsY && !isField) continue;
      const overX = el.scrollWidth > el.clientWidth + 1;
      const overY = el.scrollHeight > el.clientHeight + 1;
      if (!overX && !overY) continue;
      if (isField && el.localName !== 'textarea') continue; // an input scrolls its own line
      const bl = parseFloat(cs.borderLeftWidth) + parseFloat(cs.borderRightWidth);
      const bt = parseFloat(cs.borderTopWidth) + parseFloat(cs.borderBottomWidth);
      const scrollbarY = el.offsetWidth - el.clientWidth - bl > 1;
      const scrollbarX = el.offsetHeight - el.clientHeight - bt > 1;
      // Declared, and showing (data-more) that there is more on that axis.
      // The affordance painted: a fade (mask) on the box, or a visible ::after (an opaque fade at its foot).
      const after = getComputedStyle(el, '::after');
      const painted = (cs.maskImage && cs.maskImage !== 'none') || (cs.webkitMaskImage && cs.webkitMaskImage !== 'none')
        || (after.content !== 'none' && after.content !== 'normal' && Number(after.opacity) > 0);
      const declared = el.hasAttribute('data-scroll') && el.dataset.overflowing === 'true' && painted;
      const more = (el.dataset.more ?? '').split(' ');
      const declaredX = declared && (more.includes('left') || more.includes('right'));
      const declaredY = declared && (more.includes('up') || more.includes('down'));
      const ellipsis = cs.textOverflow === 'ellipsis' && cs.whiteSpace === 'nowrap' && !overY
        && (el.title || el.closest('[title]')?.title || '').trim() !== '';
      const scrolls = (v) => v === 'auto' || v === 'scroll';
      if (overX && !(scrolls(cs.overflowX) && (scrollbarX || declaredX)) && !ellipsis) {
        problems.push(`${name(el)} clips its content sideways: ${el.scrollWidth}px in ${el.clientWidth}px, no scroll affordance`);
      }
      if (overY && !(scrolls(cs.overflowY) && (scrollbarY || declaredY))) {
        const what = el.localName === 'textarea' && el.value === '' ? ' (its placeholder)' : '';
        problems.push(`${name(el)} clips its content${what}: ${el.scrollHeight}px in ${el.clientHeight}px, no scroll affordance`);
      }
    }
    return problems;
  }, ignore);
}

/**
 * The problems of an input row: the textarea one line high while empty and
 * its bottom and top lined up with the button's (none: []).
 */
export async function composerProblems(page, textarea, button) {
  return page.evaluate(([ta, bt]) => {
    const a = document.querySelector(ta);
    const b = document.querySelector(bt);
    if (!a || !b) return [`${!a ? ta : bt} is missing`];
    const ra = a.getBoundingClientRect();
    const rb = b.getBoundingClientRect();
    const out = [];
    if (Math.abs(ra.bottom - rb.bottom) > 1) out.push(`the textarea's bottom (${ra.bottom}) is not the button's (${rb.bottom})`);
    if (a.value === '' && Math.abs(ra.height - rb.height) > 1) {
      out.push(`the empty textarea is ${ra.height}px high, the button ${rb.height}px: not one line`);
    }
    return out;
  }, [textarea, button]);
}

/** How far (px) the centre of el's text sits from the centre of dot, vertically. */
export async function textOffsetFrom(page, textSelector, dotSelector) {
  return page.evaluate(([ts, ds]) => {
    const t = document.querySelector(ts);
    const d = document.querySelector(ds);
    const range = document.createRange();
    range.selectNodeContents(t);
    const rt = range.getBoundingClientRect();
    const rd = d.getBoundingClientRect();
    // The glyphs' middle: the x-height's centre is a little below the line box's; the line box is what CSS centres.
    return (rt.top + rt.bottom) / 2 - (rd.top + rd.bottom) / 2;
  }, [textSelector, dotSelector]);
}

/**
 * Where a text wraps: for each line but the last, the character it ends
 * with (a space, a hyphen, or a letter where a word was cut). target: a
 * selector or a Playwright locator; its whole text is measured.
 */
export async function lineBreaks(page, target) {
  const measure = (el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const chars = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (let i = 0; i < n.data.length; i++) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        const rect = [...r.getClientRects()].find((x) => x.width > 0);
        if (rect) chars.push({ c: n.data[i], top: Math.round(rect.top) });
      }
    }
    const out = [];
    for (let i = 1; i < chars.length; i++) if (chars[i].top > chars[i - 1].top + 2) out.push(chars[i - 1].c);
    return out;
  };
  return typeof target === 'string' ? page.locator(target).evaluate(measure) : target.evaluate(measure);
}
