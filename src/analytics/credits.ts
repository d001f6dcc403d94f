import catalogue from './model-catalogue.json' with { type: 'json' };

/**
 * Standard Credits: multiplier × (input + cache write + output + cache read / 10).
 * They are kept exact as integer "credit units" of 1/10000 credit: the multiplier in thousandths
 * times the tokens in tenths. Only a response rounds them.
 */
export const UNITS_PER_CREDIT = 10_000n;

export interface CatalogueModel {
  id: string;
  multiplier: number;
  tier: 'standard' | 'thinking';
}

function load(models: CatalogueModel[]): Map<string, bigint> {
  const byId = new Map<string, bigint>();
  for (const m of models) {
    const milli = Math.round(m.multiplier * 1000);
    if (!(m.multiplier > 0) || Math.abs(milli - m.multiplier * 1000) > 1e-9 || byId.has(m.id)) {
      throw new Error(`model-catalogue.json: bad entry ${JSON.stringify(m)} (positive multiplier, at most three decimals, unique id)`);
    }
    byId.set(m.id, BigInt(milli));
  }
  return byId;
}

const multipliers = load(catalogue.models as CatalogueModel[]);

export const catalogueModels = (): readonly CatalogueModel[] => catalogue.models as CatalogueModel[];

/** The multiplier of a model in thousandths; 1000 for a model the catalogue does not know. */
export const multiplierMilli = (model: string): bigint => multipliers.get(model) ?? 1000n;

export function creditUnits(model: string, t: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number }): bigint {
  // Each figure is exact, their sum need not be (a model row's sums may each be near 2^53).
  const tenths = 10n * (BigInt(t.inputTokens) + BigInt(t.cacheWriteTokens) + BigInt(t.outputTokens)) + BigInt(t.cacheReadTokens);
  return multiplierMilli(model) * tenths;
}

/** Credit units as whole Standard Credits, rounding half up. */
export function roundCredits(units: bigint | string | number): number {
  const u = BigInt(units);
  return Number((u + UNITS_PER_CREDIT / 2n) / UNITS_PER_CREDIT);
}

/** A row's credits (rounded once) and token sums, the TokenSums fields of a response (/tokens by team or repository, the repositories report). */
export const tokenSums = (r: {
  credit_units: bigint | string;
  input_tokens: number | string;
  output_tokens: number | string;
  cache_read_tokens: number | string;
  cache_write_tokens: number | string;
}) => ({
  billable_tokens: roundCredits(r.credit_units),
  input_tokens: Number(r.input_tokens),
  output_tokens: Number(r.output_tokens),
  cache_read_tokens: Number(r.cache_read_tokens),
  cache_write_tokens: Number(r.cache_write_tokens),
});
