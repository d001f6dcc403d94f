import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LogLines } from '../../src/computers/agent/log-lines.js';

const feed = (chunks: string[]) => {
  const l = new LogLines();
  let out = '';
  for (const c of chunks) {
    l.push(c);
    out += l.drain();
  }
  return out + l.drain(true);
};

describe('a step log keeps each progress line in its last state', () => {
  it('git progress redrawn with \\r becomes its final line', () => {
    expect(
      feed([
        'Cloning into x...\n',
        'Receiving objects:  10% (1/10)\rReceiving',
        ' objects:  50% (5/10)\r',
        'Receiving objects: 100% (10/10), done.\n',
        'done\n',
      ]),
    ).toBe('Cloning into x...\nReceiving objects: 100% (10/10), done.\ndone\n');
  });

  it('CRLF line ends stay line ends; an unfinished last line is kept when the step ends', () => {
    expect(feed(['a\r\nb\r', '\nc 1%\rc 2%'])).toBe('a\nb\nc 2%');
  });

  it('however the output is cut into chunks, the log is the same', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '\r', '\n', ' '), maxLength: 200 });
    fc.assert(
      fc.property(text, fc.array(fc.nat(200), { maxLength: 10 }), (t, cuts) => {
        const points = [0, ...new Set(cuts.map((c) => c % (t.length + 1))), t.length].sort((a, b) => a - b);
        const chunks = points.slice(1).map((end, i) => t.slice(points[i], end));
        expect(feed(chunks)).toBe(feed([t]));
        // No redraw survives: a \r is left only where it ends the whole output.
        expect(feed([t])).not.toMatch(/\r(?!$)/);
      }),
    );
  });
});
