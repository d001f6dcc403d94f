/**
 * Output for a step's log, with each line in its last state: git and npm redraw a progress line
 * with carriage returns ("Receiving objects:  10%\r…  20%\r… 100%, done.\n"), which a log would
 * otherwise keep as every frame glued together. A line is released once it ends; the unfinished
 * one waits (in its latest state) for its end or for `drain(true)`.
 */
export class LogLines {
  private ready = '';
  private partial = '';

  /** Keeps at most `max` characters of released output (the newest). */
  constructor(private readonly max = 200_000) {}

  push(chunk: string): void {
    const text = this.partial + chunk;
    const end = text.lastIndexOf('\n');
    if (end === -1) {
      this.partial = compact(text);
      return;
    }
    this.ready += text
      .slice(0, end + 1)
      .split('\n')
      .map((line, i, all) => (i === all.length - 1 ? line : lastFrame(line)))
      .join('\n');
    if (this.ready.length > this.max) this.ready = this.ready.slice(-this.max);
    this.partial = compact(text.slice(end + 1));
  }

  /** Takes what is released; with `all`, the unfinished line too. */
  drain(all = false): string {
    const out = this.ready + (all ? lastFrame(this.partial) : '');
    this.ready = '';
    if (all) this.partial = '';
    return out;
  }

  /** Puts back what could not be delivered, before anything newer. */
  unshift(text: string): void {
    this.ready = (text + this.ready).slice(-this.max);
  }
}

/**
 * An unfinished line without the frames already redrawn: from its last `\r` that is not its
 * final character (a final one may be half of a CRLF still to come).
 */
function compact(partial: string): string {
  const cut = partial.lastIndexOf('\r', partial.length - 2);
  return cut <= 0 ? partial : partial.slice(cut);
}

/** The last state of a line redrawn with `\r` (a `\r` just before its end is a CRLF ending, not a redraw). */
function lastFrame(line: string): string {
  const body = line.endsWith('\r') ? line.slice(0, -1) : line;
  const cut = body.lastIndexOf('\r');
  return cut === -1 ? body : body.slice(cut + 1);
}
