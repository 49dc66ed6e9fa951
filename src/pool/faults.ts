// Fault injection for the tests of crash recovery, off unless the operator sets
// KERF_TEST_FAULTS. A job whose first part is named "__exit__" kills its pool thread on the
// first attempt; "__hang__" spins forever, ignoring every deadline, so the backstop must act;
// "__slow__" sleeps 3 s on every attempt, so a test can kill its process mid-job.
export function injectFault(firstPartName: string | undefined, attempt: number): void {
  const enabled = process.env.KERF_TEST_FAULTS;
  if (!enabled) return;
  if (firstPartName === '__exit__' && attempt === 1) process.exit(70);
  if (firstPartName === '__hang__') for (;;);
  if (firstPartName === '__slow__') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3_000);
}
