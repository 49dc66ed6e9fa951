// The linear (1D) engine's problem and solution as the service sees them: the request mapping
// (problem.ts), the facade (solve.ts) and the record builder (record.ts)
// all read these, so they live apart from each of them.

export interface LinearStock {
  /** Usable length: the bar's length less both end trims. */
  usable: number;
  /** Bars available; -1 = as many as needed. */
  q: number;
  cost: number;
}

export interface LinearPart {
  /** Cut length. */
  l: number;
  /** Pieces wanted; 0 for a row no bar can take (it is reported as unusable). */
  q: number;
  /** Stock rows (indices into LinearProblem.stock) this part may be cut from. */
  stock: number[];
}

export interface LinearProblem {
  stock: LinearStock[];
  parts: LinearPart[];
  kerf: number;
  /** 'count': fewest bars; 'cost': least total cost. */
  objective: 'count' | 'cost';
  stockSelection: 'efficiency' | 'smallest';
  seed: number;
  budgetMs: number;
  /** LP pivots the search may take (optional, 0 or absent = no limit): a deterministic stop for benchmarks. */
  effort?: number;
  /** Until this many ms have passed, a search that stalls goes on (saw.options.searchTime; absent = it stops). */
  searchMs?: number;
}

export interface LinearGroup {
  stock: number;
  /** Identical bars cut to this pattern. */
  bars: number;
  /** Part rows in cut order from the start of the bar. */
  parts: number[];
}

export interface LinearSolution {
  groups: LinearGroup[];
  unplaced: number[];
  /** Proven lower bound on the objective (bar count or cost). */
  lowerBound: number;
  /** The plan's objective equals the lower bound (and every part is placed). */
  optimal: boolean;
  /** Gilmore-Gomory LP value when solved to optimality, else null. */
  lpValue: number | null;
  /** Branch-and-price dives run after the root LP. */
  dives: number;
  stats: {
    iterations: number; elapsedMs: number; timeToBestMs: number; stoppedByDeadline: boolean;
    /** The search stalled before searchMs and went on until then (its plan depends on the clock). */
    wentOnPastStall: boolean;
    /** Engine time until the root LP bound was known, null when it was not reached. */
    rootLpMs: number | null;
    /** Knapsack pricing rounds of the column generation. */
    pricings: number;
    /** Simplex pivots of the root LP. */
    rootPivots: number;
    /** LP solves from scratch after the first (a warm re-solve from a basis was not possible). */
    coldSolves: number;
    /** Branch-and-price nodes of the proof that one bar fewer is impossible (0 when it did not run). */
    proofNodes: number;
    /** Nodes of the cover by patterns of small reduced cost after the root LP (0 when it did not run). */
    coverNodes: number;
  };
}
