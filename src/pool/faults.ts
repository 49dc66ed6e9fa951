// Fault injection for the tests of crash recovery, off unless the operator sets
// KERF_TEST_FAULTS. A job whose first part is named "__exit__" kills its pool thread on the
// first attempt; "__hang__" spins forever, ignoring every deadline, so the backstop must act.
export function injectFault(firstPartName: string | undefined, attempt: number): void {
  const enabled = process.env.KERF_TEST_FAULTS;
  if (!enabled) return;
  if (firstPartName === '__exit__' && attempt === 1) process.exit(70);
  if (firstPartName === '__hang__') for (;;);
}
