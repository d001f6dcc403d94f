/**
 * A response body a service has already serialized, as UTF-8 (from cached, serialized parts).
 * The route sends the bytes as they are: serializing, or even encoding, 30 MB again would cost
 * what the cache saved. The service builds it from the row objects its response schema describes.
 */
export class SerializedJson {
  constructor(readonly body: Buffer) {}

  /** `{"data":[rows...],"meta":meta}` from rows already serialized. */
  static envelope(rows: readonly Buffer[], meta: unknown): SerializedJson {
    const parts: Buffer[] = [Buffer.from('{"data":[')];
    rows.forEach((row, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(row);
    });
    parts.push(Buffer.from(`],"meta":${JSON.stringify(meta)}}`));
    return new SerializedJson(Buffer.concat(parts));
  }
}

const COMMA = Buffer.from(',');
