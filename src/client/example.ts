// The typed client at work: submits the README's requests, polls, and reads each result.
// Run: node dist/src/client/example.js http://127.0.0.1:8080 "$KEY"
import { LINEAR_EXAMPLE, NESTING_EXAMPLE, SHEET_EXAMPLE } from '../schema/examples.js';
import { kerfClient, type CalculationRequest, type ResultResponse } from './client.js';

const requests: Record<string, CalculationRequest> = { sheet: SHEET_EXAMPLE, linear: LINEAR_EXAMPLE, nesting: NESTING_EXAMPLE };

function summary(result: ResultResponse): string {
  const m = result.metadata;
  const placed = result.parts.filter((part) => part.added).length;
  return `job ${result.jobId}: ${m.totalUsedStock} stock pieces, ${placed} of ${result.parts.length} parts placed, `
    + `efficiency ${(m.totalEfficiency * 100).toFixed(1)} %, ${m.totalCuts} cuts`;
}

async function main(baseUrl: string | undefined, apiKey: string | undefined) {
  if (!baseUrl || !apiKey) throw new Error('usage: example.js <base url> <api key>');
  const kerf = kerfClient({ baseUrl, apiKey, pollMs: Number(process.env.KERF_POLL_MS) || undefined });
  for (const [name, request] of Object.entries(requests)) {
    const result = await kerf.solve(request);
    process.stdout.write(`${name}: ${summary(result)}\n`);
  }
}

main(process.argv[2], process.argv[3]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
