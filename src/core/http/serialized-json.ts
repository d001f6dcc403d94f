import { Readable } from 'node:stream';

/**
 * A response body a service has already serialized, as UTF-8 parts (kept day rows). The route
 * streams the parts as they are: serializing, or even joining, 40 MB again per request would
 * cost what the cache saved. The service builds the parts from the row objects its response
 * schema describes.
 */
export class SerializedJson {
  private constructor(
    private readonly chunks: readonly Buffer[],
    /** Bytes in all; sent as Content-Length. */
    readonly length: number,
  ) {}

  /** `{"data":[rows...],"meta":meta}` from rows already serialized, each one buffer or the parts of one. */
  static envelope(rows: readonly (Buffer | readonly Buffer[])[], meta: unknown): SerializedJson {
    const chunks = new Chunks();
    chunks.add(OPEN);
    rows.forEach((row, i) => {
      if (i > 0) chunks.add(COMMA);
      if (Buffer.isBuffer(row)) chunks.add(row);
      else for (const part of row) chunks.add(part);
    });
    chunks.add(Buffer.from(`],"meta":${JSON.stringify(meta)}}`));
    return new SerializedJson(chunks.done(), chunks.length);
  }

  stream(): Readable {
    return Readable.from(this.chunks, { objectMode: false });
  }
}

const OPEN = Buffer.from('{"data":[');
const COMMA = Buffer.from(',');
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
