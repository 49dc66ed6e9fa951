// Separation by overlap minimisation (after sparrow): each round sweeps twice from the same
// state (every colliding part to the best pose its sample search finds, in a random order
// each time) and keeps the sweep that leaves the least weighted overlap, then the weights of
// the pairs still colliding grow. Sparrow runs such sweeps on parallel workers; one after the
// other they still pay (README, Nesting). A run of rounds without a clear fall of the total
// overlap ends a strike and goes back to the least-overlapping state seen (weights kept);
// strikes in a row without progress end the attempt. Feasible means the exact test clears
// every pair.

import { Budget } from "../../common/clock";
import { Rng } from "../../common/rng";
import { OverlapTracker } from "./overlap-tracker";
import { Parts } from "./parts";
import { PlacementSearch } from "./sample";

/** A fall of the total overlap smaller than this share does not count as progress. */
const PROGRESS: f64 = 0.98;
/** Sweeps tried from the same state in a round. */
const SWEEPS_PER_ROUND = 2;

export class Separator {
  parts: Parts;
  tracker: OverlapTracker;
  rng: Rng;
  budget: Budget;
  search: PlacementSearch;
  /** Sweeps before the separator stops for good (the effort limit). */
  maxSweeps: i64;
  sweeps: i64 = 0;
  private least: Parts;
  /** A round's starting state, and its best sweep so far (overlaps only: weights change between rounds). */
  private roundStart: Parts;
  private roundBest: Parts;
  private roundStartTracker: OverlapTracker;
  private roundBestTracker: OverlapTracker;
  private order: Array<i32> = new Array<i32>(0);

  constructor(parts: Parts, gap: f64, rng: Rng, budget: Budget, maxSweeps: i64) {
    this.parts = parts;
    const tracker = new OverlapTracker(parts.n, gap);
    this.tracker = tracker;
    this.rng = rng;
    this.budget = budget;
    this.maxSweeps = maxSweeps;
    this.search = new PlacementSearch(parts, tracker, rng);
    this.least = parts.snapshot();
    this.roundStart = parts.snapshot();
    this.roundBest = parts.snapshot();
    this.roundStartTracker = new OverlapTracker(parts.n, gap);
    this.roundBestTracker = new OverlapTracker(parts.n, gap);
  }

  /** The container the parts must end up in (box corners range up to xMax - w, y1 - h). */
  setContainer(x0: f64, y0: f64, xMax: f64, y1: f64): void {
    this.search.x0 = x0;
    this.search.y0 = y0;
    this.search.xMax = xMax;
    this.search.y1 = y1;
  }

  stopped(): bool {
    return this.sweeps >= this.maxSweeps || this.budget.expired();
  }

  /** Gives the trackers' matrices back (OverlapTracker.release); this separator is done. */
  release(): void {
    this.tracker.release();
    this.roundStartTracker.release();
    this.roundBestTracker.release();
  }

  /** Restores a state, keeping the weights. */
  restore(state: Parts): void {
    this.parts.copyFrom(state);
    this.tracker.rebuild(this.parts);
  }

  /** True when the parts end clear of each other; otherwise they end in the least-overlapping state seen. */
  separate(strikeLimit: i32, roundLimit: i32): bool {
    const tracker = this.tracker;
    if (tracker.pairs == 0) return true;
    const least = this.least;
    least.copyFrom(this.parts);
    let leastTotal = tracker.total;
    let strikes = 0;
    while (strikes < strikeLimit) {
      const strikeStart = tracker.total;
      let idle = 0;
      while (idle < roundLimit) {
        if (this.stopped()) {
          this.restore(least);
          return false;
        }
        if (this.round()) return true;
        const total = tracker.total;
        if (total < leastTotal) {
          if (total < leastTotal * PROGRESS) idle = 0;
          least.copyFrom(this.parts);
          leastTotal = total;
        } else {
          idle++;
        }
        tracker.grow();
      }
      if (strikeStart * PROGRESS <= leastTotal) strikes++;
      else strikes = 0;
      this.restore(least);
    }
    return false;
  }

  /**
   * SWEEPS_PER_ROUND sweeps from the same state; keeps the one with the least weighted
   * overlap. True as soon as one clears every pair.
   */
  private round(): bool {
    const parts = this.parts;
    const tracker = this.tracker;
    this.roundStart.copyFrom(parts);
    this.roundStartTracker.copyOverlapsFrom(tracker);
    let best: f64 = Infinity;
    let lastIsBest = false;
    for (let k = 0; k < SWEEPS_PER_ROUND; k++) {
      if (k > 0) {
        parts.copyFrom(this.roundStart);
        tracker.copyOverlapsFrom(this.roundStartTracker);
      }
      this.sweeps++;
      this.sweep();
      if (tracker.pairs == 0) return true;
      const w = tracker.weightedTotal();
      lastIsBest = w < best;
      if (lastIsBest) {
        best = w;
        // The last sweep stays in place when it is the best: no copy needed.
        if (k < SWEEPS_PER_ROUND - 1) {
          this.roundBest.copyFrom(parts);
          this.roundBestTracker.copyOverlapsFrom(tracker);
        }
      }
    }
    if (!lastIsBest) {
      parts.copyFrom(this.roundBest);
      tracker.copyOverlapsFrom(this.roundBestTracker);
    }
    return false;
  }

  /** Moves each colliding part once, in random order. */
  private sweep(): void {
    const order = this.order;
    order.length = 0;
    const hits = this.tracker.hits;
    for (let p = 0; p < this.parts.n; p++) if (hits[p] > 0) order.push(p);
    for (let k = order.length - 1; k > 0; k--) {
      const j = this.rng.int(k + 1);
      const t = order[k];
      order[k] = order[j];
      order[j] = t;
    }
    for (let k = 0; k < order.length; k++) {
      const p = order[k];
      if (hits[p] > 0) this.search.move(p);
    }
  }
}
