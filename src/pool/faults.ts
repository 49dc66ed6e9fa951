// Fault injection for the tests of crash recovery, off unless the operator sets
// KERF_TEST_FAULTS. A job whose first part is named "__exit__" kills its pool thread on the
// first attempt; "__hang__" spins forever, ignoring every deadline, so the backstop must act;
// "__slow__" sleeps 3 s on every attempt, so a test can kill its process mid-job;
// "__throw__" throws as a faulty engine would, on every attempt; "__overlap__" puts the
// job's second placed part onto its first, as a faulty engine might (see corruptLayout).
export function injectFault(firstPartName: string | undefined, attempt: number): void {
  const enabled = process.env.KERF_TEST_FAULTS;
  if (!enabled) return;
  if (firstPartName === '__exit__' && attempt === 1) process.exit(70);
  if (firstPartName === '__hang__') for (;;);
  if (firstPartName === '__throw__') throw new Error('injected engine fault (__throw__)');
  if (firstPartName === '__slow__') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3_000);
}

/** The "__overlap__" fault: the second placed part moved onto the first, before the layout check. */
export function corruptLayout(firstPartName: string | undefined, parts: { added: boolean; x: number | null; y: number | null; stock: { id: string } | null }[]): void {
  if (!process.env.KERF_TEST_FAULTS || firstPartName !== '__overlap__') return;
  const [first, second] = parts.filter((p) => p.added);
  if (!first || !second) return;
  Object.assign(second, { x: first.x, y: first.y, stock: first.stock });
}
