// The element builder of the inspector's DOM (and of the demo page's): a
// node from a tag with classes, attributes and children. Text goes in with
// textContent only, never parsed as HTML.

/** h('div.a', {text, onclick, …attributes}, …children): null, undefined and false are skipped. */
export function h(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split('.');
  const node = document.createElement(tag || 'div');
  if (classes.length) node.className = classes.join(' ');
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c != null && c !== false) node.append(c);
  return node;
}
