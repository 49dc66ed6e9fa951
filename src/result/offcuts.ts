// Offcuts the shop owns and offcuts it gets back, the same for every engine: stock entries cut
// from a request row with `offcut: true` say so (the PTX export marks them TYPE 1), and each
// offcut of the result says whether it is worth keeping (addToInventory).
import type { CalcRequest } from '../schema/request.js';
import type { ResultRecord } from '../schema/result.js';

export function markOffcuts(record: ResultRecord, request: CalcRequest, defaultMinOffcut: number): ResultRecord {
  for (const s of record.stock) {
    if (request.stock[Number.parseInt(s.id, 10)]?.offcut) s.offcut = true;
  }
  const min = request.saw.options.minOffcut ?? defaultMinOffcut;
  // A bar without profile (w 0) has only its length to measure.
  for (const o of record.offcuts) o.addToInventory = o.l >= min && (o.w >= min || (request.saw.stockType === 'linear' && o.w === 0));
  return record;
}
