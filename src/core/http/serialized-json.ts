import { Readable } from 'node:stream';

/**
 * A response body a service has already serialized, as UTF-8 parts (cached day rows). The route
 * streams the parts as they are: serializing, or even joining, 40 MB again per request would
 * cost what the cache saved. The service builds the parts from the row objects its response
 * schema describes.
 */
export class SerializedJson {
  private constructor(
    private readonly parts: readonly Buffer[],
    /** Bytes in all; sent as Content-Length. */
    readonly length: number,
  ) {}

  /** `{"data":[rows...],"meta":meta}` from rows already serialized. */
  static envelope(rows: readonly Buffer[], meta: unknown): SerializedJson {
    const parts: Buffer[] = [OPEN];
    rows.forEach((row, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(row);
    });
    parts.push(Buffer.from(`],"meta":${JSON.stringify(meta)}}`));
    return new SerializedJson(parts, parts.reduce((n, p) => n + p.length, 0));
  }

  stream(): Readable {
    return Readable.from(this.parts, { objectMode: false });
  }
}

const OPEN = Buffer.from('{"data":[');
const COMMA = Buffer.from(',');
