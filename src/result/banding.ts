// Edge banding totals, the same for every engine: the banded edges of each placed part, per
// sheet of a stock entry, per band type and in all. Sizes are those asked for (the finished
// part): a band covers the finished edge even when deductBanding cut the part smaller.
import { bandedLength } from '../schema/banding.js';
import type { CalcRequest } from '../schema/request.js';
import type { ResultRecord } from '../schema/result.js';
import { round } from './totals.js';

export function addBandingTotals(record: ResultRecord, request: CalcRequest): ResultRecord {
  const perStock = new Map<string, number>();
  const byType: Record<string, number> = {};
  let total = 0;
  for (const p of record.parts) {
    if (!p.added || !p.stock) continue;
    const row = request.parts[Number.parseInt(p.id, 10)];
    if (!row) continue;
    const size = row.finished ?? row;
    const banded = bandedLength(row.banding, size.l, size.w);
    if (banded.total === 0) continue;
    total += banded.total;
    perStock.set(p.stock.id, (perStock.get(p.stock.id) ?? 0) + banded.total);
    for (const [type, length] of banded.byType) byType[type] = (byType[type] ?? 0) + length;
  }
  for (const s of record.stock) {
    // parts[] lists every sheet of a stacked entry; the analysis is of one sheet.
    const length = perStock.get(s.id);
    if (length !== undefined && s.stack > 0) s.analysis.bandingLength = round(length / s.stack);
  }
  record.metadata.totalBandingLength = round(total);
  record.metadata.bandingLengthByType = Object.fromEntries(Object.entries(byType).map(([k, v]) => [k, round(v)]));
  return record;
}
