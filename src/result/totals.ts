// Numbers every result record reports the same way: rounding, and the stock, part and cut
// totals at the head of the metadata.

/** Six decimals: enough for any unit a shop uses, and no binary noise in the JSON. */
export const round = (v: number) => Math.round(v * 1e6) / 1e6;

export interface AreaAndCutTotals {
  stockArea: number;
  partArea: number;
  cuts: number;
  cutLength: number;
  /** Cuts counting each book of a stack once per sheet; the same as cuts where nothing is stacked. */
  stackedCuts?: number;
  stackedCutLength?: number;
}

export function areaAndCutMetadata(t: AreaAndCutTotals) {
  return {
    totalEfficiency: t.stockArea > 0 ? round(t.partArea / t.stockArea) : 0,
    totalCuts: t.cuts,
    totalCutLength: round(t.cutLength),
    totalStackedCuts: t.stackedCuts ?? t.cuts,
    totalStackedCutLength: round(t.stackedCutLength ?? t.cutLength),
    totalStockArea: round(t.stockArea),
    totalStockUsedArea: round(t.stockArea),
    totalPartArea: round(t.partArea),
  };
}
