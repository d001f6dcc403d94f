import { Readable } from 'node:stream';
import type { Static, TSchema } from '@sinclair/typebox';
import fastJson from 'fast-json-stringify';

/**
 * The serializer of a schema's values as UTF-8 JSON, compiled from the schema as Fastify compiles
 * its response schemas (fast-json-stringify): the schema owns the shape, property order included,
 * of what a service serializes ahead of a response to keep it.
 */
export function compileJson<T extends TSchema>(schema: T): (value: Static<T>) => Buffer {
  // Compiled on the first value: the modules that hold these load in processes that never serialize one.
  let stringify: ((value: unknown) => string) | undefined;
  return (value) => Buffer.from((stringify ??= fastJson(schema as object))(value));
}

/**
 * A response body a service has already serialized (kept day rows): the route streams the parts
 * as they are, since serializing, or even joining, 40 MB again per request would cost what the
 * cache saved. Each row and the meta come from a serializer compiled from their schema
 * (compileJson); this class only frames them as the `{data, meta}` envelope of every list.
 */
export class SerializedJson {
  private constructor(
    private readonly chunks: readonly Buffer[],
    /** Bytes in all; sent as Content-Length. */
    readonly length: number,
  ) {}

  /** `{"data":[rows...],"meta":meta}` from rows and meta already serialized. */
  static envelope(rows: readonly Buffer[], meta: Buffer): SerializedJson {
    const chunks = new Chunks();
    chunks.add(OPEN);
    rows.forEach((row, i) => {
      if (i > 0) chunks.add(COMMA);
      chunks.add(row);
    });
    chunks.add(META);
    chunks.add(meta);
    chunks.add(CLOSE);
    return new SerializedJson(chunks.done(), chunks.length);
  }

  stream(): Readable {
    return Readable.from(this.chunks, { objectMode: false });
  }
}

const OPEN = Buffer.from('{"data":[');
const COMMA = Buffer.from(',');
const META = Buffer.from('],"meta":');
const CLOSE = Buffer.from('}');
/** Small parts are joined into chunks of about this size: every chunk is a write on the socket. */
const CHUNK = 64 * 1024;

class Chunks {
  private readonly out: Buffer[] = [];
  private small: Buffer[] = [];
  private smallBytes = 0;
  length = 0;

  add(part: Buffer) {
    this.length += part.length;
    if (part.length >= CHUNK) {
      this.flush();
      this.out.push(part);
      return;
    }
    this.small.push(part);
    this.smallBytes += part.length;
    if (this.smallBytes >= CHUNK) this.flush();
  }

  done(): Buffer[] {
    this.flush();
    return this.out;
  }

  private flush() {
    if (this.small.length === 0) return;
    this.out.push(this.small.length === 1 ? this.small[0]! : Buffer.concat(this.small, this.smallBytes));
    this.small = [];
    this.smallBytes = 0;
  }
}
