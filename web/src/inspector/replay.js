// The replay of a recording: its entries added to a Session at the pace
// they were recorded (speed 1), ten times faster (10), or as fast as the
// page stays responsive ('full': a slice of entries per task), with pause
// and resume.

const SLICE = 4000; // entries per task at full speed

export class Replay {
  #session;
  #entries;
  #next = 0;
  #timer = 0;
  #start = 0;
  #base;
  #pausedAt = 0;
  #onEnd;
  /** 1, 10 (times the recorded pace) or 'full'; may change while it plays. */
  speed;
  paused = false;

  /** onEnd(finished): every entry was added (true), or stop() was called (false). */
  constructor(session, entries, { speed = 'full', onEnd = () => {} } = {}) {
    this.#session = session;
    this.#entries = entries;
    this.#base = entries[0]?.t ?? 0;
    this.speed = speed;
    this.#onEnd = onEnd;
  }

  /** Starts adding entries (the session's mode is the caller's to set). */
  start() {
    this.#start = performance.now();
    this.#pump();
  }

  /** Stops before the end; the session goes back to idle. */
  stop() {
    if (this.#onEnd === null) return;
    clearTimeout(this.#timer);
    if (this.#session.mode === 'replay') this.#session.mode = 'idle';
    this.#end(false);
  }

  togglePause() {
    if (this.#onEnd === null) return;
    this.paused = !this.paused;
    if (this.paused) {
      clearTimeout(this.#timer);
      this.#pausedAt = performance.now();
    } else {
      this.#start += performance.now() - this.#pausedAt;
      this.#pump();
    }
  }

  #full() { return this.speed === 'full' || !(Number(this.speed) > 0); }

  #pump() {
    if (this.#onEnd === null || this.paused) return;
    this.#timer = 0;
    const s = this.#session;
    const list = this.#entries;
    const n = list.length;
    if (this.#full()) {
      const end = Math.min(n, this.#next + SLICE);
      for (; this.#next < end; this.#next++) s.addEntry(list[this.#next]);
    } else {
      const elapsed = (performance.now() - this.#start) * Number(this.speed);
      while (this.#next < n && list[this.#next].t - this.#base <= elapsed) s.addEntry(list[this.#next++]);
    }
    if (this.#next >= n) {
      s.mode = 'idle';
      this.#end(true);
      return;
    }
    const wait = this.#full() ? 0
      : Math.max(0, Math.min(250, (list[this.#next].t - this.#base) / Number(this.speed) - (performance.now() - this.#start)));
    this.#timer = setTimeout(() => this.#pump(), wait);
  }

  #end(finished) {
    const onEnd = this.#onEnd;
    this.#onEnd = null;
    onEnd(finished);
  }
}
