// An incremental text/event-stream parser for the inspector: it splits the
// chunks a reducer was fed into the frames the reducer folded (the WHATWG
// rules, as reducer/sse applies them: CRLF, LF or CR line ends, comments,
// one leading space dropped, a frame without data dropped, a BOM at the
// start dropped).

const decoder = () => new TextDecoder('utf-8');

export class FrameParser {
  #decoder = decoder();
  #buf = '';
  #start = true;
  #cr = false; // the last chunk ended with CR (its LF may come next)
  #data = null; // the data lines of the frame being read
  #event = '';
  #id = null;

  /** Parses chunk (string or bytes); calls onFrame({name, id, data}) per complete frame. */
  push(chunk, onFrame) {
    let text = typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk instanceof ArrayBuffer ? new Uint8Array(chunk) : chunk, { stream: true });
    if (this.#start && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      this.#start = false;
    }
    if (this.#cr && text.startsWith('\n')) text = text.slice(1);
    this.#cr = false;
    let buf = this.#buf + text;
    let pos = 0;
    for (;;) {
      let i = pos;
      const n = buf.length;
      while (i < n) {
        const c = buf.charCodeAt(i);
        if (c === 10 || c === 13) break;
        i++;
      }
      if (i >= n) break;
      const line = buf.slice(pos, i);
      if (buf.charCodeAt(i) === 13) {
        if (i + 1 < n) { pos = buf.charCodeAt(i + 1) === 10 ? i + 2 : i + 1; } else { pos = i + 1; this.#cr = true; }
      } else {
        pos = i + 1;
      }
      this.#line(line, onFrame);
    }
    this.#buf = buf.slice(pos);
  }

  #line(line, onFrame) {
    if (line === '') {
      if (this.#data !== null) onFrame({ name: this.#event, id: this.#id ?? undefined, data: this.#data.join('\n') });
      this.#data = null;
      this.#event = '';
      this.#id = null;
      return;
    }
    if (line.charCodeAt(0) === 58) return; // comment
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case 'data': (this.#data ??= []).push(value); break;
      case 'event': this.#event = value; break;
      case 'id': if (!value.includes('\0')) this.#id = value; break;
      default: break; // retry and unknown fields
    }
  }

  /** The body ended: an unterminated frame is dropped, the next body starts afresh. */
  end() {
    this.#decoder = decoder();
    this.#buf = '';
    this.#start = true;
    this.#cr = false;
    this.#data = null;
    this.#event = '';
    this.#id = null;
  }
}
