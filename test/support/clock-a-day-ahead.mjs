/**
 * Preloaded into `orgctl serve` (NODE_OPTIONS=--import) by the real-client tests: the service's
 * clock runs a day ahead, so that what a real client sends now lands on a closed day, which the
 * analytics endpoints report (they refuse today). The clients themselves keep the real time.
 */
const DAY_MS = 86_400_000;
const RealDate = Date;
class DayAheadDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + DAY_MS);
    else super(...args);
  }
  static now() {
    return RealDate.now() + DAY_MS;
  }
  // Dates made before the swap or by Node itself (file times) are dates too.
  static [Symbol.hasInstance](value) {
    return value instanceof RealDate;
  }
}
globalThis.Date = DayAheadDate;
