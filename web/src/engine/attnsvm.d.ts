// The JavaScript API of the attnsvm engine (hand-written types; the contract for page authors).
// Two front ends share these shapes:
//   createEngine()        the wasm module in the current thread (node, tests, a worker's inside)
//   createWorkerEngine()  the same calls run in a classic Web Worker, every method returns a Promise,
//                         plus a player that streams training frames at display rate.
// All matrices are plain row-major number[][] at the API; bulk trace fields are typed arrays.

export type AttentionKind = 'cross' | 'self' | 'seq2seq' | 'causal';
export type Parameterization = 'W' | 'KQ' | 'prompt';
export type HeadKind = 'linear' | 'relu';
export type LossKind = 'logistic' | 'exponential' | 'correlation';
export type OptimizerKind = 'gd' | 'ngd' | 'md' | 'nmd';
export type NormKind = 'fro' | 'nuclear' | 'lp';
export type Matrix = number[][];

export interface DatasetJSON {
  X: number[][][];      // n x T x d tokens
  Z?: Matrix;           // n x d cross-attention queries (omit for self-attention)
  query?: number;       // self-attention query index (default 0)
  Y: number[];          // n labels +-1
  v: number[];          // d linear head
  alpha?: number[];     // optional selection (default: optimal tokens)
}

export interface ModelJSON {
  attention: AttentionKind;
  param: Parameterization;
  head: HeadKind;
  loss: LossKind;
  m?: number;           // KQ inner dimension (default d)
  Wk?: Matrix;          // prompt key matrix (d x d)
  V?: Matrix;           // relu head matrix (d x d)
}

export interface TrainJSON {
  optimizer: OptimizerKind;
  lr: number;
  p?: number;                 // mirror-descent p > 1
  trainHead?: boolean;        // joint training of the head v
  headOptimizer?: OptimizerKind;
  headLr?: number;
  headP?: number;
  traceEvery?: number;
  traceSoftmax?: boolean;     // record the full softmax matrix per frame
  traceP?: number;            // l_p norm reported in the trace
}

export interface ParamsJSON { W?: Matrix; K?: Matrix; Q?: Matrix; p?: number[]; v?: number[]; }

export interface InitJSON {
  kind: 'zero' | 'random' | 'given' | 'cone';
  seed?: number;
  scale?: number;
  direction?: Matrix;         // cone
  coneNoise?: number;
  given?: ParamsJSON;         // given
}

export interface ScenarioJSON {
  name: string;
  title: string;
  dataset: DatasetJSON;
  model: ModelJSON;
  train: TrainJSON;
  init: InitJSON;
  iterations: number;
}

export interface ScenarioOptions {
  seed?: number; n?: number; T?: number; d?: number;
  C?: number; start?: number; localCase?: boolean; variant?: number;
}

export interface SolveRequest {
  dataset: DatasetJSON;
  problem?: 'attention' | 'prompt' | 'head';   // default 'attention'
  attention?: AttentionKind;                    // default 'cross' (or 'self' when Z is absent)
  selection?: number[];                         // default dataset.alpha, else optimal tokens
  norm: NormKind;
  p?: number;                                   // lp only
  Wk?: Matrix;                                  // prompt only
}

export interface Solution {
  status: 'optimal' | 'infeasible' | 'max_iterations';
  W: Matrix;                 // rows x cols (d x d; d x 1 for prompt/head problems)
  lambda: number[];
  objective: number;
  lowerBound: number;
  gap: number;
  maxViolation: number;
  support: [number, number][];   // (sequence, token) of active constraints
  iterations: number;
  seconds: number;
  message: string;               // infeasibility explanation when infeasible
}

export interface SelectionReport {
  selection: number[];
  optimal: number[];
  ties: number[][];
  feasible: boolean;
  verdict: 'globally_optimal' | 'locally_optimal' | 'neither' | 'infeasible';
  supportTokens: number[][];
  explanation: string;
  svm: Solution;
}

export interface ForwardResult {
  softmax: Matrix;           // units x T
  output: number[];
  selected: number[];
  selectedProbability: number[];
  loss: number;
}

export interface TraceChunk {
  frames: number;
  units: number;             // stride of selected / selectedProbability
  references: number;        // stride of corr
  T: number;                 // softmax is frames*units*T when recorded
  iteration: Int32Array;
  loss: Float64Array;
  normFro: Float64Array;
  normNuc: Float64Array;
  normLp: Float64Array;
  selected: Int32Array;
  selectedProbability: Float64Array;
  corr: Float64Array;
  softmax: Float64Array;     // empty unless traceSoftmax
  weights: Matrix;           // effective weights (W, K Q^T, or p as d x 1) after the last step
  stopped: boolean;
  stopReason: string;
}

export interface RunConfig {
  dataset: DatasetJSON;
  model: ModelJSON;
  train: TrainJSON;
  init: InitJSON;
  references?: { name: string; W: Matrix }[];
}

export interface Run {
  readonly iteration: number;
  step(k: number): TraceChunk;           // advance up to k iterations, return the frames since the last call
  params(): ParamsJSON;
  weights(): Matrix;
  addReference(name: string, W: Matrix): void;
  dispose(): void;                       // frees the wasm object; the Run is unusable afterwards
}

export interface Engine {
  version(): string;
  scenarioNames(): string[];
  scenario(name: string, options?: ScenarioOptions): ScenarioJSON;
  sphere(n: number, T: number, d: number, seed: number): DatasetJSON;
  validate(dataset: DatasetJSON, attention?: AttentionKind): void;   // throws Error naming field/sequence/token
  forward(dataset: DatasetJSON, model: ModelJSON, params: ParamsJSON): ForwardResult;
  solve(request: SolveRequest): Solution;
  analyze(request: { dataset: DatasetJSON; attention?: AttentionKind; selection?: number[]; W?: Matrix }): SelectionReport;
  train(config: RunConfig): Run;
  heapBytes(): number;                   // wasm heap size (leak tests)
}

export function createEngine(options?: { wasmBinary?: ArrayBuffer | Uint8Array; locateFile?: (p: string) => string }): Promise<Engine>;

// ---- worker front end ----
export interface PlayerFrame extends TraceChunk { runId: number; stepsPerFrame: number; }

export interface WorkerEngine {
  call<K extends keyof Engine>(method: K, ...args: Parameters<Engine[K]>): Promise<ReturnType<Engine[K]>>;
  // Player: one active run per id, advanced in the worker; frames arrive at display rate, with the
  // number of steps per frame adapted to keep each under ~16 ms of compute.
  startRun(config: RunConfig, options?: { maxIterations?: number }): Promise<number>;
  play(runId: number, onFrame: (frame: PlayerFrame) => void): void;
  pause(runId: number): void;
  step(runId: number, k: number): Promise<PlayerFrame>;
  reset(runId: number): Promise<void>;   // back to the initial parameters
  cancel(runId: number): void;           // dispose the run
  terminate(): void;
}

export function createWorkerEngine(options?: { baseUrl?: string }): Promise<WorkerEngine>;
