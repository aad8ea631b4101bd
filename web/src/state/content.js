// Rendering helpers: a message's content is a string, an InputContent[]
// (multimodal user messages) or an object (activity messages); a UI that
// shows text wants one string whatever the kind.

/**
 * The text of a message (or of its content): a string as it is, the text
 * parts of an InputContent[] joined with newlines, "" for anything else
 * (activity objects, binary parts, a message still without content).
 */
export function textOf(messageOrContent) {
  const content = messageOrContent !== null && typeof messageOrContent === 'object' && !Array.isArray(messageOrContent) && 'role' in messageOrContent
    ? messageOrContent.content
    : messageOrContent;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const part of content) {
    if (part !== null && typeof part === 'object' && part.type === 'text' && typeof part.text === 'string') {
      out = out === '' ? part.text : out + '\n' + part.text;
    }
  }
  return out;
}
