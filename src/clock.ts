// Time as the service sees it. Production reads the system clock; tests move a manual one, so
// a day of webhook retries and five days of endpoint failure run in seconds.
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class ManualClock implements Clock {
  constructor(private time = Date.now()) {}
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}
