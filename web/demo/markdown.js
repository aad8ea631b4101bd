// Markdown for model text, rendered safely and incrementally.
//
// Safe: the text is never parsed as HTML. Every node is made with
// createElement and filled with Text nodes, so "<script>" stays those
// characters; a link is made only for an absolute http(s) URL (anything
// else, javascript: included, stays literal text).
//
// Incremental: the text is cut into blocks (paragraphs, headings, lists,
// quotes, code fences); a block whose source did not change keeps its DOM
// node, so a streamed answer rebuilds only its last block per update.
//
// The subset: # headings, paragraphs, - * + and 1. lists (one level),
// > quotes, ``` fences, --- rules, **bold**, *italic* / _italic_, `code`,
// [text](https://…) links.

/** The URL as a link target, or null unless it is an absolute http(s) URL. */
function safeHref(url) {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

const LIST = /^\s{0,3}([-*+]|\d{1,9}[.)])\s+/;

/** Blocks of text: [{kind, src, lines}]. */
export function blocks(text) {
  const out = [];
  const lines = text.split('\n');
  let cur = null;
  const close = () => { if (cur) out.push(cur); cur = null; };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (cur?.kind === 'code') {
      cur.lines.push(line);
      if (/^\s{0,3}```/.test(line)) { cur.closed = true; close(); }
      continue;
    }
    if (/^\s{0,3}```/.test(line)) { close(); cur = { kind: 'code', lines: [line], info: line.replace(/^\s*```/, '').trim() }; continue; }
    if (line.trim() === '') { close(); continue; }
    const h = /^\s{0,3}(#{1,6})\s+(.*)$/.exec(line);
    if (h) { close(); out.push({ kind: `h${h[1].length}`, lines: [h[2]] }); continue; }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line) && !(cur?.kind === 'p')) { close(); out.push({ kind: 'hr', lines: [line] }); continue; }
    const li = LIST.exec(line);
    if (li) {
      const ordered = /\d/.test(li[1]);
      const kind = ordered ? 'ol' : 'ul';
      if (cur?.kind !== kind) { close(); cur = { kind, lines: [] }; }
      cur.lines.push(line);
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      if (cur?.kind !== 'quote') { close(); cur = { kind: 'quote', lines: [] }; }
      cur.lines.push(line);
      continue;
    }
    if ((cur?.kind === 'ul' || cur?.kind === 'ol') && /^\s+\S/.test(line)) { cur.lines.push(line); continue; } // a continued item
    if (cur?.kind !== 'p') { close(); cur = { kind: 'p', lines: [] }; }
    cur.lines.push(line);
  }
  close();
  for (const b of out) b.src = `${b.kind}\u0000${b.lines.join('\n')}`;
  return out;
}

/** Inline markup of text appended to parent as nodes. */
export function inline(parent, text) {
  let i = 0;
  let plain = '';
  const flush = () => { if (plain) { parent.append(document.createTextNode(plain)); plain = ''; } };
  while (i < text.length) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length && /[\\`*_[\]()#>-]/.test(text[i + 1])) { plain += text[i + 1]; i += 2; continue; }
    if (c === '`') {
      const end = text.indexOf('`', i + 1);
      if (end > i + 1) {
        flush();
        const code = document.createElement('code');
        code.textContent = text.slice(i + 1, end);
        parent.append(code);
        i = end + 1;
        continue;
      }
    }
    // _ and __ only at word edges (snake_case and window.__x stay as they are).
    const edgeOpen = c === '*' || i === 0 || /[\s(]/.test(text[i - 1]);
    if ((c === '*' || c === '_') && text[i + 1] === c && edgeOpen) {
      const end = text.indexOf(c + c, i + 2);
      if (end > i + 2 && text[end - 1] !== ' ' && (c === '*' || end + 2 >= text.length || /[\s.,;:!?)]/.test(text[end + 2]))) {
        flush();
        const b = document.createElement('strong');
        inline(b, text.slice(i + 2, end));
        parent.append(b);
        i = end + 2;
        continue;
      }
    }
    if ((c === '*' || c === '_') && text[i + 1] !== undefined && text[i + 1] !== ' ' && text[i + 1] !== c && edgeOpen) {
      let end = i + 1;
      while ((end = text.indexOf(c, end)) > 0 && (text[end - 1] === ' ' || text[end + 1] === c)) end += 2;
      if (end > i + 1 && (c === '*' || end + 1 >= text.length || /[\s.,;:!?)]/.test(text[end + 1]))) {
        flush();
        const em = document.createElement('em');
        inline(em, text.slice(i + 1, end));
        parent.append(em);
        i = end + 1;
        continue;
      }
    }
    if (c === '[') {
      const m = /^\[([^\]\n]+)\]\(([^)\s]+)\)/.exec(text.slice(i));
      const href = m ? safeHref(m[2]) : null;
      if (m && href) {
        flush();
        const a = document.createElement('a');
        a.href = href;
        a.target = '_blank';
        a.rel = 'noopener noreferrer nofollow';
        inline(a, m[1]);
        parent.append(a);
        i += m[0].length;
        continue;
      }
    }
    plain += c;
    i++;
  }
  flush();
}

function lines(parent, ls) {
  ls.forEach((l, k) => {
    if (k > 0) parent.append(document.createElement('br'));
    inline(parent, l);
  });
}

function build(b) {
  switch (b.kind) {
    case 'p': { const p = document.createElement('p'); lines(p, b.lines); return p; }
    case 'hr': return document.createElement('hr');
    case 'code': {
      const pre = document.createElement('pre');
      const code = document.createElement('code');
      const body = b.lines.slice(1, b.closed ? -1 : undefined).join('\n');
      code.textContent = body;
      if (b.info) pre.dataset.lang = b.info;
      pre.append(code);
      return pre;
    }
    case 'quote': {
      const q = document.createElement('blockquote');
      lines(q, b.lines.map((l) => l.replace(/^\s{0,3}>\s?/, '')));
      return q;
    }
    case 'ul': case 'ol': {
      const list = document.createElement(b.kind);
      let li = null;
      for (const l of b.lines) {
        const m = LIST.exec(l);
        if (m) {
          li = document.createElement('li');
          if (b.kind === 'ol' && !list.childElementCount) {
            const n = parseInt(m[1], 10);
            if (n !== 1) list.start = n;
          }
          inline(li, l.slice(m[0].length));
          list.append(li);
        } else if (li) {
          li.append(document.createElement('br'));
          inline(li, l.trim());
        }
      }
      return list;
    }
    default: {
      const h = document.createElement(b.kind); // h1…h6
      inline(h, b.lines[0]);
      return h;
    }
  }
}

/**
 * Renders text into root, reusing the nodes of unchanged blocks. root's
 * children must be left to this function.
 */
export function renderMarkdown(root, text) {
  const prev = root._mdBlocks ?? [];
  const next = blocks(text);
  const nodes = root._mdNodes ?? [];
  const out = [];
  for (let k = 0; k < next.length; k++) {
    out.push(prev[k] !== undefined && prev[k].src === next[k].src && nodes[k] ? nodes[k] : build(next[k]));
  }
  for (let k = 0; k < out.length; k++) {
    if (root.children[k] !== out[k]) root.insertBefore(out[k], root.children[k] ?? null);
  }
  while (root.children.length > out.length) root.lastElementChild.remove();
  // Text nodes left from a plain-text rendering.
  for (const n of [...root.childNodes]) if (n.nodeType !== 1) n.remove();
  root._mdBlocks = next;
  root._mdNodes = out;
}
