// The guillotine engine's problem and solution as the service sees them (sheets, rolls and free
// placement; its flat format is engine-as/sheets/format.ts). Everything here is already normalised by the request mapper: numbers are plain,
// compatibility and rotation rules are resolved into indices and masks, so the engine
// only does geometry and search.

import type { StopReason } from '../common/stop-reason.js';

/** Which axis a family of parallel cuts runs along. 'x' = cut lines parallel to x (they split a region into bands stacked in y). */
export type Axis = 'x' | 'y';

export interface EngineStock {
  /** Size along x (the stock's length) and y (its width). Stock never rotates. */
  l: number;
  w: number;
  /** Sheets available; -1 = as many as needed. */
  q: number;
  /** Price of one sheet; 0 when not given. */
  cost: number;
  /** Trims cut inward: l1 from the bottom edge, l2 from the top, w1 from the left, w2 from the right. */
  trim: { l1: number; l2: number; w1: number; w2: number };
  /** 0 none, 1 grain runs along x, 2 grain runs along y. Selects the part's rotMask entry. */
  grain: 0 | 1 | 2;
  /**
   * Open-length stock (a roll): optional, default false. Its width w is fixed and its length
   * along x is open (l, when positive and finite, caps it). The facade then finds the
   * shortest length that takes every part (one piece of the roll, first cuts across it, i.e.
   * firstCut 'y'), and the sheet's `length` says how much was used.
   */
  open?: boolean;
  /**
   * An offcut the shop owns (optional, default false): filled before new stock. The engine's
   * objective: placed part area, then new stock area, then offcut area, then cost.
   */
  offcut?: boolean;
}

export interface EnginePart {
  /** Size as given: rot 0 puts l along x and w along y; rot 1 puts l along y. */
  l: number;
  w: number;
  q: number;
  /** Allowed orientations on stock of grain 0, 1, 2: bit 0 = rot 0 allowed, bit 1 = rot 1 allowed. 0 = cannot go on such stock. */
  rotMask: [number, number, number];
  /** Indices of the stock rows this part may be cut from (material and thickness already matched). */
  stock: number[];
}

export interface GuillotineProblem {
  stock: EngineStock[];
  parts: EnginePart[];
  /** Blade width: the gap between any two pieces a cut separates. */
  kerf: number;
  /** Direction of the first-stage cuts on every sheet. */
  firstCut: Axis;
  /** Maximum number of stages (0 = unlimited). A last cut that only trims one part to size adds no stage. */
  maxPhase: number;
  /** Allow a head cut (one cut across the other direction before the first stage). */
  headCuts: boolean;
  stockSelection: 'efficiency' | 'smallest';
  strategy: 'efficiency' | 'time';
  seed: number;
  /** Wall-clock budget the engine must stop within, in milliseconds. */
  budgetMs: number;
  /**
   * Scale of the engine's deterministic effort limit (optional, default 1). 0 = no effort
   * limit: the search runs until budgetMs (or a proven optimum); results then depend on
   * the machine. Benchmarks with a wall-clock limit per instance use 0.
   */
  effort?: number;
  /**
   * When the search stops (optional, default 'effort'), besides at the lower bound and at
   * budgetMs: 'effort' at the effort limit; 'stall' goes on past it while the search still
   * improves and stops when a whole effort limit's worth of work found nothing, or at
   * searchMs; 'searchTime' searches until searchMs, never stopping before 'stall' would.
   * Effort is counted in work units: a search that ends by effort or stall is the same on
   * every machine (engine-as/sheets/sheet-search.ts).
   */
  stopRule?: 'effort' | 'stall' | 'searchTime';
  /** Clock limit of stopRule 'stall' and 'searchTime' in ms (capped at budgetMs); absent: budgetMs. */
  searchMs?: number;
  /**
   * The default policy's clock limit (the operator's ceiling, capped at budgetMs), for
   * stopRule 'searchTime': rolls first run as the default would under it. Absent: budgetMs.
   */
  ceilingMs?: number;
  /**
   * Repeat each sheet pattern while the remaining demand and stock allow (optional; default
   * true for strategy 'time', else false). Identical sheets fold into one stacked entry: fewer
   * distinct patterns to set up, and books on a beam saw.
   */
  repeatPatterns?: boolean;
  /**
   * Internal (set by the facade for rolls; optional, default false): the stock rows are the
   * possible bands of one strip, one per band length, and the engine tries each new band at
   * the lengths of its next openers. The facade joins the bands into the roll.
   */
  stripBands?: boolean;
  /**
   * 'guillotine' (default): edge-to-edge cuts in stages. 'free': parts placed anywhere at
   * least one kerf apart (CNC routers, cutType efficiency); firstCut, maxPhase and headCuts
   * then do not apply, and the facade keeps the better of a free and a guillotine layout.
   */
  placement?: 'guillotine' | 'free';
}

/**
 * A guillotine cut tree. A `cut` node splits its region by parallel cuts running along `along`
 * into bands: children are ordered by increasing coordinate across the cuts, the first starts at
 * the region's start, consecutive children are exactly `kerf` apart, and every child spans the
 * region fully in the `along` direction (a part child may be shorter: the service adds the
 * trimming cut after it, which adds no stage). Space after the last child is waste.
 */
export type EngineNode =
  | { kind: 'cut'; along: Axis; x: number; y: number; l: number; w: number; children: EngineNode[] }
  | { kind: 'part'; x: number; y: number; l: number; w: number; part: number; rot: 0 | 1 }
  | EngineFreeRoot;

/**
 * Root of a free (non-guillotine) layout, `placement: 'free'` only: the usable region and
 * its parts, placed anywhere inside it at least one kerf apart. No cut tree.
 */
export interface EngineFreeRoot {
  kind: 'free';
  x: number;
  y: number;
  l: number;
  w: number;
  children: Extract<EngineNode, { kind: 'part' }>[];
}

export interface EngineSheet {
  stock: number;
  /** Open-length stock only: the length taken from the roll, trims w1 + w2 included. */
  length?: number;
  /** The usable region (stock less trims) and what is cut from it. */
  root: EngineNode;
}

export interface EngineSolution {
  sheets: EngineSheet[];
  /** Per part row: how many instances were not placed. */
  unplaced: number[];
  /** Lower bound on the number of sheets (the single cheapest-fitting size), 0 when unknown. */
  lowerBound: number;
  /** Open-length stock only: kerf-inflated area bound on the used length (trims excluded). */
  lengthBound?: number;
  stats: {
    iterations: number; elapsedMs: number; timeToBestMs: number; stoppedByDeadline: boolean; greedy?: GreedyStart;
    /** Why the search stopped (see StopReason). */
    stopReason: StopReason;
    /** Effort spent, in the engine's work unit (fit-index visits; free packer: rectangle scans). */
    effort: number;
  };
}

/**
 * The objective of the greedy start, the first complete layout before any search: the search
 * only keeps changes that place no less part area and, at equal area, use no more stock.
 */
export interface GreedyStart {
  /** Sheets (roll pieces) used. */
  sheets: number;
  /** Their stock area (a roll piece: its length times the roll width). */
  stockArea: number;
  /** Part area placed. */
  placedArea: number;
}
