/** Where a cumulative stream stands: its start, and its last point counted. */
export interface StreamState {
  startNs: bigint;
  /** 0 when no point of the stream was counted yet (as a row of otlp_streams may hold it). */
  lastNs: bigint;
  lastValue: number;
}

/**
 * At most this many streams in one set: an OpenTelemetry SDK keeps at most 2,000 attribute sets
 * per metric by default. A set's row holds its streams' states and each export of the set
 * rewrites it: the bound keeps that row at most 960 KB.
 */
export const MAX_STREAMS_PER_SET = 20_000;

/** The bytes of a stream's key (32 base64url characters) and of its state after it. */
const KEY_BYTES = 24;
const ENTRY_BYTES = KEY_BYTES + 8 + 8 + 8;
/** An entry's bytes, a multiple of 3, are these many base64url characters, its key's the first 32 of them. */
const ENTRY_CHARS = (ENTRY_BYTES / 3) * 4;
const KEY_CHARS = (KEY_BYTES / 3) * 4;

/**
 * The states of one set's streams, as its row packs them: for each stream its key, start and
 * last time (unsigned 64-bit nanoseconds) and last value (a double), big-endian, one after the
 * other in the order the streams joined. Keys are the 32 base64url characters of a stream id.
 */
export class StreamSet {
  private readonly offsets = new Map<string, number>();
  private bytes: Buffer;
  // The same bytes: a DataView reads and writes 64-bit numbers without the intermediate bigints of Buffer's methods.
  private view: DataView;
  private used: number;
  /** Whether a state was set since the set was read: only then is it written back. */
  changed = false;

  constructor(packed: Buffer) {
    if (packed.length % ENTRY_BYTES !== 0)
      throw new Error(`otlp_stream_sets: ${packed.length} bytes of states, not a whole number of ${ENTRY_BYTES}-byte entries`);
    this.bytes = packed;
    this.view = viewOf(packed);
    this.used = packed.length;
    // The keys' text from one conversion of the whole set, not one per stream.
    const text = packed.toString('base64url');
    for (let at = 0, i = 0; at < packed.length; at += ENTRY_BYTES, i += ENTRY_CHARS) this.offsets.set(text.slice(i, i + KEY_CHARS), at);
  }

  /** Where the set keeps a stream's state (for stateAt and set), or -1 when it does not hold the stream. */
  find(key: string): number {
    return this.offsets.get(key) ?? -1;
  }

  /** The state kept at `at` (found by find). */
  stateAt(at: number): StreamState {
    const v = this.view;
    return { startNs: v.getBigUint64(at + KEY_BYTES), lastNs: v.getBigUint64(at + KEY_BYTES + 8), lastValue: v.getFloat64(at + KEY_BYTES + 16) };
  }

  /**
   * Sets a stream's state (`at`: where find found it, -1 for a stream the set does not hold);
   * false, and nothing set, for a new stream when the set is full.
   */
  set(key: string, at: number, startNs: bigint, lastNs: bigint, lastValue: number): boolean {
    if (at === -1) {
      if (this.offsets.size >= MAX_STREAMS_PER_SET) return false;
      at = this.used;
      if (at + ENTRY_BYTES > this.bytes.length) {
        const grown = Buffer.allocUnsafe(Math.max(ENTRY_BYTES * 16, this.bytes.length * 2));
        this.bytes.copy(grown, 0, 0, this.used);
        this.bytes = grown;
        this.view = viewOf(grown);
      }
      if (this.bytes.write(key, at, KEY_BYTES, 'base64url') !== KEY_BYTES)
        throw new Error(`a stream key that is not 32 base64url characters: ${key.slice(0, 40)}`);
      this.used += ENTRY_BYTES;
      this.offsets.set(key, at);
    }
    // setBigUint64 would wrap a number outside 0..2^64-1: records.ts refuses points whose times are.
    this.view.setBigUint64(at + KEY_BYTES, startNs);
    this.view.setBigUint64(at + KEY_BYTES + 8, lastNs);
    this.view.setFloat64(at + KEY_BYTES + 16, lastValue);
    this.changed = true;
    return true;
  }

  /** The set packed as its row holds it. */
  packed(): Buffer {
    return this.bytes.subarray(0, this.used);
  }
}

const viewOf = (b: Buffer) => new DataView(b.buffer, b.byteOffset, b.length);
