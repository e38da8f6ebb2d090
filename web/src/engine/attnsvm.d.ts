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
// nmd: normalized l_p mirror descent as the mirror-descent paper runs it (gradient / (||grad||_q + eps), 1/p + 1/q = 1);
// nmd-fro: the same normalized by the Frobenius norm; adam: Adam (real-data baseline).
export type OptimizerKind = 'gd' | 'ngd' | 'md' | 'nmd' | 'nmd-fro' | 'adam';
export type InitKind = 'zero' | 'random' | 'given' | 'cone';
export type SolveStatus = 'optimal' | 'infeasible' | 'max_iterations' | 'boundary';
export type Verdict = 'globally_optimal' | 'locally_optimal' | 'neither' | 'infeasible' | 'boundary' | 'undecided';
// The max-margin problems solve() builds: the Att-SVM of a selection, the prompt SVM, joint training's
// relaxed prompt SVM, the head SVM.
export type SvmProblemKind = 'attention' | 'prompt' | 'relaxed-prompt' | 'head';
// The core's vocabulary (engine.vocabulary()): the canonical names of each enum, and the field list of
// each input and result object (attnsvm/fields.hpp). A test checks that the unions and the interfaces
// of this file equal them. Every input object is read through these lists: a key that is not a field
// throws, e.g. `train.learningRate is not a field; expected one of optimizer, lr, p, ...`.
export interface Vocabulary {
  attention: AttentionKind[];
  param: Parameterization[];
  head: HeadKind[];
  loss: LossKind[];
  optimizer: OptimizerKind[];
  init: InitKind[];
  norm: NormKind[];
  problem: SvmProblemKind[];
  status: SolveStatus[];
  verdict: Verdict[];
  // The optimizer registry (core/src/train/optimizers.cpp): mirror = the step goes through the mirror
  // map of p; normalized = the step divides by a norm of the gradient; batched = the batched trainer runs it.
  optimizers: { name: OptimizerKind; mirror: boolean; normalized: boolean; batched: boolean }[];
  fields: {
    dataset: string[];          // DatasetJSON
    model: string[];            // ModelJSON
    train: string[];            // TrainJSON
    params: string[];           // ParamsJSON
    init: string[];             // InitJSON
    solve: string[];            // SolveRequest
    scenarioOptions: string[];  // ScenarioOptions
    solution: string[];         // Solution
    report: string[];           // SelectionReport
  };
  // Keys a dataset file (the CLI's input) may hold beside DatasetJSON's fields: attention, V, W and
  // what `attnsvm scenario` writes (scenario, title, iterations, model, train, init).
  datasetFileExtras: string[];
}
export type NormKind = 'fro' | 'nuclear' | 'lp';
export type Matrix = number[][];

// Input objects: an omitted field takes the core's default; an unknown key is an error.
export interface DatasetJSON {
  X: number[][][];      // n x T x d tokens
  Z?: Matrix;           // n x d cross-attention queries (omit for self-attention)
  query?: number;       // self-attention query index (default 0; the engine writes it only for self attention)
  Y: number[];          // n labels +-1
  v: number[];          // d linear head
  alpha?: number[];     // optional selection (default: optimal tokens)
}

export interface ModelJSON {
  attention?: AttentionKind;  // default 'cross'
  param?: Parameterization;   // default 'W'
  head?: HeadKind;            // default 'linear'
  loss?: LossKind;            // default 'logistic'
  m?: number;           // KQ inner dimension (default d)
  Wk?: Matrix;          // prompt key matrix (d x d)
  V?: Matrix;           // relu head matrix (d x d)
}

export interface TrainJSON {
  optimizer?: OptimizerKind;  // default 'ngd'
  lr?: number;                // default 0.1
  p?: number;                 // mirror-descent p > 1
  trainHead?: boolean;        // joint training of the head v
  headOptimizer?: OptimizerKind;
  headLr?: number;
  headP?: number;
  adamBeta1?: number;         // Adam (optimizer or headOptimizer 'adam'): defaults 0.9, 0.999, 1e-8
  adamBeta2?: number;
  adamEps?: number;
  traceEvery?: number;
  traceSoftmax?: boolean;     // record the full softmax matrix per frame
  traceP?: number;            // l_p norm reported in the trace
  balance?: number;           // (K,Q) balancing regularizer (default machine epsilon)
  maxNorm?: number;           // stop when ||W||_F exceeds this (default 1e12)
}

export interface ParamsJSON { W?: Matrix; K?: Matrix; Q?: Matrix; p?: number[]; v?: number[]; }

export interface InitJSON {
  kind?: InitKind;            // default 'zero'
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
  seed?: number;
  n?: number; T?: number; d?: number;   // default: the scenario's shape
  C?: number;                           // loss-function: the third coordinate of token (1, 1, C)
  start?: number;                       // prompt scenarios: the paper's initial prompt 0..5
  localCase?: boolean;                  // prompt-global-local: the local-case data
  variant?: number;                     // joint-pv: 0 or 1
}

export interface SolveRequest {
  dataset: DatasetJSON;
  problem?: SvmProblemKind;                     // default 'attention'
  attention?: AttentionKind;                    // default 'cross' (or 'self' when Z is absent)
  selection?: number[];                         // default dataset.alpha, else optimal tokens
  norm?: NormKind;                              // default 'fro'
  p?: number;                                   // lp only
  Wk?: Matrix;                                  // prompt / relaxed-prompt only
  headSupport?: number[];                       // relaxed-prompt: the head SVM's support sequences
  tolerance?: number;                           // solver settings (defaults: the core's)
  feasibilityTol?: number;
  supportTol?: number;
  maxIterations?: number;
}

// analyze(): a SolveRequest (problem 'attention' or 'prompt'; the solver settings are the SVM's) and
// optionally W, whose selection is analyzed instead of the request's.
export interface AnalyzeRequest extends SolveRequest { W?: Matrix; }

export interface Solution {
  status: SolveStatus;
  W: Matrix;                 // rows x cols (d x d; d x 1 for prompt/head problems)
  lambda: number[];
  objective: number;
  lowerBound: number;
  gap: number;
  maxViolation: number;
  support: [number, number][];   // (sequence, token) of active constraints
  iterations: number;
  seconds: number;
  message: string;               // infeasibility explanation when infeasible; why, unless optimal
  supportQuery: number[];        // query position k of each support pair (seq2seq/causal), else -1
  supportIndex: number[];        // indices of the active constraints (into lambda)
  constraints: number;           // number of constraints (length of lambda)
  farkas?: number[];             // infeasible: the Farkas certificate (one entry per constraint)
  // Bounds on the feasibility margin max_{||W||_F <= 1} min_j <A_j, W> / ||A_j||_F, where the
  // large-problem path measured them (status 'boundary': the upper one is <= 1e-6).
  marginLower?: number;
  marginUpper?: number;
}

export interface SelectionReport {
  selection: number[];
  optimal: number[];
  ties: number[][];
  feasible: boolean;
  verdict: Verdict;
  supportTokens: number[][];
  explanation: string;
  violators: [number, number][]; // (i, t): support tokens scoring >= the selected one
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
  // D_p(ref/||ref||_p, W/||W||_p) per reference and frame (stride references), p = the trace p (the MD p,
  // else 2): the mirror-descent paper's Bregman divergence, 0 when W points along the reference.
  divergence: Float64Array;
  softmax: Float64Array;     // empty unless traceSoftmax
  weights: Matrix;           // effective weights (W, K Q^T, or p as d x 1) after the last step
  stopped: boolean;
  stopReason: string;
  taken: number;             // iterations this step() advanced
  iterationNow: number;      // the run's iteration after this step()
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
  reset(): void;                         // back to the initial parameters (references kept)
  readonly referenceNames: string[];
  readonly disposed: boolean;
  dispose(): void;                       // frees the wasm object; the Run is unusable afterwards
}

// One setting of a seeded experiment (as `attnsvm experiment`): defaults are the paper's. The single-run
// experiments (prompt-global-local ... paths2d-t5, joint-wv) take the CLI's --seed-base as their one seed.
// The requests and results of the experiment entry points (ExperimentSeedOptions, BasinMapOptions,
// RealImagesSettings, RealImagesFrame, RealImagesAnalysis) are the core's field lists too (SeedsRequest,
// BasinMapRequest, ...): the attnsvm-experiments module's experimentVocabulary().fields returns them, a
// test checks these interfaces against them, and a key that is not a field throws, listing the fields.
export type SeedExperimentName = 'local-convergence' | 'overparam' | 'rates' | 'mirror-descent' | 'multitoken' | 'rank' |
  'prompt-global-local' | 'loss-function' | 'joint-pv' | 'paths2d' | 'paths2d-t5' | 'md-convergence' | 'joint-wv' |
  'reg-path' | 'seq2seq-convergence' | 'hierarchy';
export interface ExperimentSeedOptions {
  seedStart?: number;   // first seed (integer, default 0)
  seedCount?: number;   // number of consecutive seeds (1..100000, default 1)
  iters?: number;       // iterations per run (default: the experiment's)
  every?: number;       // snapshot stride (default iters / 200)
  d?: number;           // overparam, multitoken, rank
  n?: number; T?: number;  // rank: the grid cell (n, T, d) (default 5, 5, 5)
  rankTol?: number;     // rank: singular values above this count (default 1e-7)
  p?: number;           // mirror-descent, md-convergence: the training p (in (1, 1000])
  method?: 'gd' | 'ngd' | 'md_p1.75' | 'md_p3';  // rates
}
// Column names (docs/NAMES.md; the same as the keys of the CLI's experiment JSON): a metric is
// camelCase ('corrFro', 'oneMinusCorr', 'stopReason'); a scope comes first and the parts are joined by
// '/' ('W/corrFro', 'KQ/softmaxSelected', 'q1.75/div', 'p2/divW', 'global/3/corrOwnSvm',
// 'logistic/C10/corrPmm', 'v0/corrVHead'); indices are in brackets ('X[0][1][0]', 'p2/Wz[0][1]' =
// coordinate 1 of W z_0). Split a name on '/' to get its parts.
export interface ExperimentSeeds {
  experiment: string;
  count: number;                  // seeds in this result
  n: number; T: number; d: number; iters: number; every: number;
  seeds: number[];
  iteration: Int32Array;          // snapshot schedule (I entries)
  seriesNames: string[];          // S column names of the per-snapshot series
  series: Float64Array;           // [(seed * S + name) * I + snapshot]; NaN where undefined
  valueNames: string[];           // V column names of the final per-seed values
  values: Float64Array;           // [seed * V + name]
  labelNames: string[];           // column names of the verdicts and stop reasons ('W/verdict', 'stopReason')
  labels: string[][];             // [seed][label]: values ('globally_optimal', 'max_iterations', ...)
  selectionNames: string[];       // the runs of a seed ('W', 'KQ', 'p1.75')
  selections: number[][][];       // [seed][name] final argmax selection
}

// Rows rowStart .. rowStart + rowCount - 1 of a grid x grid basin map (default 200, rows 0 + 1; iters: the
// scenario's 1000; seed 0).
export interface BasinMapOptions { grid?: number; rowStart?: number; rowCount?: number; iters?: number; seed?: number; }

// The spread over runs (seeds) of series, per snapshot (the core's seriesSpread, attnsvm/experiments/
// seed_spread.hpp; the same numbers as the series blocks of `attnsvm experiment`'s JSON, docs/CLI.md).
// values: runs x length per series, series after series ((m * runs + k) * length + i: series m, run k,
// snapshot i); NaN (or any non-finite value) where a run has none, left out of every statistic.
export interface SeriesSpreadOptions {
  values: Float64Array | number[];
  runs: number;      // >= 1
  length: number;    // snapshots per series, >= 1; values.length must be a multiple of runs x length
}
// Each array: series x length, NaN where no run is finite. mean and std (population, summed in run order):
// the bands of linear axes; median, q10, q90: quantiles of type 7 (linear interpolation between the order
// statistics of the finite values, as R's default and numpy's 'linear'), the median with the 10-90 % band
// of log axes (positive wherever every run is positive, unlike mean − std).
export interface SeriesSpreadResult {
  mean: Float64Array; std: Float64Array; median: Float64Array; q10: Float64Array; q90: Float64Array;
}

export interface Engine {
  version(): string;
  scenarioNames(): string[];
  vocabulary(): Vocabulary;
  scenario(name: string, options?: ScenarioOptions): ScenarioJSON;
  sphere(n: number, T: number, d: number, seed: number): DatasetJSON;
  validate(dataset: DatasetJSON, attention?: AttentionKind): void;   // throws Error naming field/sequence/token
  forward(dataset: DatasetJSON, model: ModelJSON, params: ParamsJSON): ForwardResult;
  solve(request: SolveRequest): Solution;
  analyze(request: AnalyzeRequest): SelectionReport;
  train(config: RunConfig): Run;
  scores(dataset: DatasetJSON): { gamma: Matrix; optimal: number[]; ties: number[][] };  // token scores Y_i v^T x_it
  // Every feasible, locally optimal selection (the possible limits of GD); throws above maxSelections.
  enumerate(request: { dataset: DatasetJSON; attention?: AttentionKind; maxSelections?: number }): SelectionReport[];
  // Generalized SVM of a final softmax (nonlinear heads, several tokens kept; SPEC section 3).
  generalized(request: { dataset: DatasetJSON; softmax: Matrix; threshold?: number; norm?: NormKind; p?: number; W?: Matrix }):
    { selectedSets: number[][]; direction: Solution; finite: Matrix; radius?: number };  // radius: fitted R for W
  // Regularization path W(R) = argmin_{||W|| <= R} L(W) (Frank-Wolfe, warm-started), one matrix per radius.
  // The array also carries `points`: per radius the Frank-Wolfe certificate (PathPoint).
  path(request: { dataset: DatasetJSON; model: ModelJSON; radii: number[]; norm: NormKind; p?: number;
    iterationsPerRadius?: number; gapTolerance?: number;
    // a guess of each W(R) (a nearby problem's path), stacked row-major: radii x rows x cols numbers
    warmStart?: Float64Array | number[] }): Matrix[] & { points: PathPoint[] };
  heapBytes(): number;                   // wasm heap size (leak tests)
  heapUsed(): number;                    // bytes currently malloc'd in the wasm heap (exact leak probe)
  // The experiment methods below need the 'attnsvm-experiments' build (createEngine({moduleName}));
  // the default build throws an AttnsvmError saying so.
  experimentNames(): SeedExperimentName[];
  // Seeds of a seeded experiment, computed by the same core code as the native CLI.
  experimentSeeds(name: SeedExperimentName, options?: ExperimentSeedOptions): ExperimentSeeds;
  // Basin map (prompt-global-local, local case; starts p = (x, y, 0) at the cell centres of [-2, 2]^2).
  basinMap(options?: BasinMapOptions):
    { grid: number; rowStart: number; rowCount: number; selection: Int32Array };  // row-major, row = y index
  basinLimits(options?: { seed?: number }):
    { tokens: { token: number; global: boolean; direction: Float64Array | null }[]; range: number[] };
  // The spread over seeds of series: mean, std and the quantiles of the log axes' bands.
  seriesSpread(options: SeriesSpreadOptions): SeriesSpreadResult;
}

// Every failure is thrown as an AttnsvmError (an Error) whose message is the core's, unchanged.
export class AttnsvmError extends Error {
  kind: 'input' | 'numerical' | 'internal' | 'state';
}

export function createEngine(options?: {
  factory?: (moduleArgs: object) => Promise<unknown>;   // createAttnsvmModule (node: require('.../attnsvm.js'))
  wasmBinary?: ArrayBuffer | Uint8Array;                // node: the bytes of attnsvm.wasm
  locateFile?: (p: string) => string;
  baseUrl?: string;                                     // folder of attnsvm.js/.wasm (default ./wasm/ of the page)
  moduleName?: 'attnsvm' | 'attnsvm-experiments';       // build to load from baseUrl (default 'attnsvm')
}): Promise<Engine>;

// ---- worker front end ----
export interface PlayerFrame extends TraceChunk {
  runId: number;
  stepsPerFrame: number;     // the batch size the worker will use next
  computeMs: number;         // compute time of this frame in the worker
  done: boolean;             // the run stopped or reached maxIterations (play() ends)
  // a frame of many iterations of a run of known length (maxIterations) is stepped in pieces of about
  // maxIterations / 500 (at most 100 a frame): the weights (and, under trainHead, the head v) after each
  // piece but the last, whose are `weights` (and `head`); absent when the frame was one piece
  snapshots?: { iteration: number; weights: Matrix; head?: number[] | null }[];
  head?: number[] | null;    // the head v after the frame, when the run trains it (trainHead)
}

type Async<F> = F extends (...a: infer A) => infer R ? (...a: A) => Promise<R> : never;

export interface WorkerEngine {
  call<K extends keyof Engine>(method: K, ...args: Parameters<Engine[K]>): Promise<ReturnType<Engine[K]>>;
  // Shortcuts for call(name, ...) (training goes through startRun / play).
  version: Async<Engine['version']>;
  scenarioNames: Async<Engine['scenarioNames']>;
  vocabulary: Async<Engine['vocabulary']>;
  scenario: Async<Engine['scenario']>;
  sphere: Async<Engine['sphere']>;
  validate: Async<Engine['validate']>;
  scores: Async<Engine['scores']>;
  forward: Async<Engine['forward']>;
  solve: Async<Engine['solve']>;
  analyze: Async<Engine['analyze']>;
  enumerate: Async<Engine['enumerate']>;
  generalized: Async<Engine['generalized']>;
  path: Async<Engine['path']>;
  heapBytes: Async<Engine['heapBytes']>;
  heapUsed: Async<Engine['heapUsed']>;
  experimentNames: Async<Engine['experimentNames']>;
  experimentSeeds: Async<Engine['experimentSeeds']>;
  basinMap: Async<Engine['basinMap']>;
  basinLimits: Async<Engine['basinLimits']>;
  seriesSpread: Async<Engine['seriesSpread']>;
  readonly worker: Worker;
  // Player: one active run per id, advanced in the worker; frames arrive at display rate, with the
  // number of steps per frame adapted to keep each under ~16 ms of compute.
  startRun(config: RunConfig, options?: { maxIterations?: number }): Promise<number>;
  // Frames arrive in order; a frame in flight when pause() is called is still delivered.
  play(runId: number, onFrame: (frame: PlayerFrame) => void, onError?: (e: AttnsvmError) => void): void;
  pause(runId: number): void;
  isPlaying(runId: number): boolean;
  step(runId: number, k: number): Promise<PlayerFrame>;
  reset(runId: number): Promise<void>;   // back to the initial parameters
  cancel(runId: number): Promise<void>;  // dispose the run (later calls with this id reject)
  terminate(): void;
  // A raw protocol request (worker.js's message types and those of workers extending it, such as
  // web/src/real/real-worker.js); resolves with the reply's result.
  request(type: string, payload?: object, transfer?: Transferable[]): Promise<any>;
}

// ---- Real images (SPEC section 6; web/src/engine/real-run.js, attnsvm-experiments build only) ----
// An image set: count images of rows x cols unsigned bytes (row-major, image after image) and a label each.
export interface ImageSetJSON { rows: number; cols: number; pixels: Uint8Array; labels: Int32Array; }
export interface RealImagesSettings {
  classA?: number; classB?: number;      // default 7 (Sneaker, +1) vs 9 (Ankle boot, -1)
  nTrain?: number; nTest?: number;       // default 1000 each (even; the first n/2 of each class in file order)
  seed?: number;                         // the split's seed (default 0: the first images; k > 0: drawn from the pool)
  patch?: number;                        // default 4 (T = 49, d = 18)
  dim?: 18 | 32 | 64 | 128 | 256 | 512;  // token dimension (SPEC 6.5; default 18: the patches; else random ReLU features)
  embedSeed?: number;                    // the feature map's seed (default 0)
  optimizer?: 'nmd' | 'md' | 'adam';     // W and the head v, the same optimizer (default 'nmd')
  p?: number; lr?: number; iters?: number; nSvm?: number; histogramBins?: number;
}
export interface RealImagesFrame {
  iteration: number; trainLoss: number; testLoss: number; trainAccuracy: number; testAccuracy: number;
  trainMaxSoftmax: number; testMaxSoftmax: number;
  sparsity: number;                      // share of |W_jk| < 0.01 max |W_jk|
  histogram: Float64Array;               // counts of |W_jk| / max |W_jk| in histogramBins bins on [0, 1]
}
export interface RealImagesAnalysis {
  nSvm: number; selection: Int32Array; verdict: string; feasible: boolean; status: string;
  corr: number; divergence: number;      // NaN when infeasible
  svm: Matrix | null;                    // the l_p Att-SVM of the selection (d x d)
}
// new RealImagesRun(engine.module, {train, test, settings}): train and test hold (at least) the images
// of the two classes in file order; the core makes the split (binarySubset) and the tokens (patchDataset).
export class RealImagesRun {
  constructor(module: object, request: { train: ImageSetJSON; test: ImageSetJSON; settings?: RealImagesSettings });
  readonly info: { nTrain: number; nTest: number; T: number; d: number; rows: number; cols: number;
    testLabels: Int32Array; testPixels: Uint8Array };  // the split's test images, in its order
  readonly iteration: number;
  step(k?: number, measure?: boolean): { taken: number; iteration: number; stopReason: string; frame?: RealImagesFrame };
  measure(): RealImagesFrame;
  params(): { W: Matrix; v: Float64Array };
  testSoftmax(rows?: number[]): Float64Array;                 // rows x T, row-major (default: every test image)
  testScores(rows?: number[]): { gamma: Float64Array; output: Float64Array; T: number };  // gamma_it = Y_i v^T x_it, f_i
  testSelection(): Int32Array;
  analyze(): RealImagesAnalysis;
  dispose(): void;
}

// ---- The real-images study (SPEC 6.1) and regime ladder (SPEC 6.2): web/src/engine/real-study.js over
// the attnsvm-experiments build (wasm/bindings_real_study.cpp). The core plans, runs and aggregates;
// a pool of workers only schedules runs (runPlan). Plain objects: the core's field lists.
export interface RealStudySettings {
  tasks?: string;             // 'AvB' comma-separated, default '7v9,6v0'
  nTrain?: number; nValidation?: number; nTest?: number;  // default 1000, 500, 1000 (even)
  dim?: number; embedSeed?: number;  // token dimension (SPEC 6.5; default 18) and the feature map's seed
  methods?: string;           // the main setting's methods, default 'md:1.1,md:2,md:3,nmd:1.1,nmd:2,nmd:3,adam'
  design?: 'main' | 'full' | 'main-only';
  ablationMethods?: string;   // default 'md:1.1,md:2,md:3,nmd:1.1,nmd:2,nmd:3,adam' (full batch, same updates; zero start)
  batch?: number; initScale?: number; epochs?: number; stopAccuracy?: number; evalEvery?: number;
  seeds?: number; tuneSeeds?: number; seedBase?: number;
  gridPoints?: number; gridRatio?: number; maxExtensions?: number;
  gridCenters?: string;       // 'method=step,...' overriding the default centers
}
export interface RealTrainSettings {
  optimizer?: 'md' | 'nmd' | 'adam' | 'gd' | 'ngd'; p?: number; lr?: number;
  batch?: number;             // 0: full batch
  trainW?: boolean; trainHead?: boolean;
  initScale?: number;         // 0: W0 = v0 = 0; else N(0, initScale^2) entries
  seed?: number;              // the start and the minibatch order
  adamBeta1?: number; adamBeta2?: number; adamEps?: number;
  normEpsilon?: number;       // nmd: g / (||g||_q + normEpsilon); 0 = the pure normalized step
}
export interface RealStudyRunSpec {  // the core's RealStudyRun: a run of the plan
  id: number; classA: number; classB: number; nTrain: number; nValidation: number; nTest: number;
  dim: number; embedSeed: number;
  setting: string; method: string; train: RealTrainSettings; epochs: number; stopAccuracy: number; evalEvery: number;
}
export interface RealStudyRunResult {
  id: number; epochs: number; reachedStop: boolean; stopReason: string;
  epochTrainAccuracy: number; maxEpochTrainAccuracy: number; trainAccuracy: number;
  bestEpoch: number; bestValidationAccuracy: number; finalValidationAccuracy: number;
  testAccuracyBest: number; testLossBest: number; testAccuracyFinal: number; testLossFinal: number;
  sparsityBest: number; sparsityFinal: number; maxSoftmaxBest: number; maxSoftmaxFinal: number;
  gammaOptimalBest: number; gammaOptimalFinal: number;
}
export interface RealStat { mean: number; std: number; n: number; }
export interface RealDifference { mean: number; lo: number; hi: number; n: number; }  // 95% t interval
export interface RealStudyRow {
  task: string; classA: number; classB: number; setting: string; method: string;
  grid: Float64Array; gridValidation: Float64Array; extendedDown: number; extendedUp: number; atEdge: boolean;
  lr: number; seeds: Int32Array;
  testAccuracyBest: RealStat; testAccuracyFinal: RealStat; testLossBest: RealStat; testLossFinal: RealStat;
  sparsity: RealStat; maxSoftmax: RealStat; gammaOptimal: RealStat;
  sparsityFinal: RealStat; maxSoftmaxFinal: RealStat; gammaOptimalFinal: RealStat;
  validationAccuracy: RealStat; trainAccuracy: RealStat; epochs: RealStat; bestEpoch: RealStat;
  reachedStop: number; diverged: number;
  vsGdBest?: RealDifference; vsGdFinal?: RealDifference; vsNgdBest?: RealDifference; vsNgdFinal?: RealDifference;
  vsGdSparsity?: RealDifference; vsGdMaxSoftmax?: RealDifference; vsGdGammaOptimal?: RealDifference;
}
export interface RealLadderSettings {
  classA?: number; classB?: number; sizes?: number[];
  dim?: number; embedSeed?: number;  // token dimension (SPEC 6.5) and the feature map's seed
  budget?: 'by-n' | 'fixed';  // steps min(maxSteps, max(minSteps, work / n)) (default) or maxSteps for every n
  heads?: string;             // default 'frozen,joint'
  methods?: string;           // default 'nmd:2,nmd:1.1'
  lr?: number; normEpsilon?: number; headSteps?: number; maxSteps?: number; minSteps?: number; work?: number;
  snapshotsPerDecade?: number; seeds?: number; seedBase?: number; certifyTol?: number; corrTarget?: number;
}
export interface RealLadderRunSpec {  // the core's RealLadderRun
  id: number; classA: number; classB: number; n: number; dim: number; embedSeed: number; head: string; method: string;
  optimizer: string; p: number; lr: number; normEpsilon: number; headSteps: number; steps: number;
  snapshotsPerDecade: number; seed: number; certifyTol: number; corrTarget: number;
}
export interface RealLadderRunResult {
  id: number; steps: number; stopReason: string;
  snapshotSteps: Int32Array; corrFro: Float64Array; corrLp: Float64Array; divergence: Float64Array;
  normW: Float64Array; normV: Float64Array;
  trainAccuracy: number; loss: number; minSoftmax: number; meanSoftmax: number; gammaOptimal: number;
  noPositiveToken: number; selectionChanges: number;
  verdict: string; status: string; statusLp: string; feasible: boolean; feasibleLp: boolean;
  gap: number; maxViolation: number; gapLp: number; maxViolationLp: number;
  corr: number; divergenceFinal: number; headGrowth: number; weightGrowth: number;
  degenerate: boolean;        // training accuracy at chance (<= 0.5): a failure of its own
  limitReached: boolean;      // corr >= corrTarget and not degenerate
  endedBy: string;            // 'budget' or the trainer's stop reason
  failing: string;            // comma-separated: degenerate, infeasible, undecided, no-positive-token, head-faster, selection-moving, not-separated, slow
}
export interface RealLadderRow {
  head: string; method: string; n: number; steps: number; seeds: number;
  feasible: number; infeasible: number; undecided: number; feasibleLp: number; limitReached: number;
  corrMean: number; corrStd: number; corrMin: number; corrFroMean: number; divergenceMean: number;
  snapshotSteps: Int32Array; corrAlongK: Float64Array; divergenceAlongK: Float64Array;
  minSoftmax: number; meanSoftmax: number; trainAccuracy: number; gammaOptimal: number;
  globallyOptimal: number; locallyOptimal: number; neither: number; verdictInfeasible: number; verdictUndecided: number;
  failDegenerate: number; failInfeasible: number; failUndecided: number; failNoPositiveToken: number; failHeadFaster: number;
  failSelectionMoving: number; failNotSeparated: number; failSlow: number;
  endedByBudget: number;      // runs that ended at the step budget (the others: the trainer's stop)
}
export interface RealLadderSummary {
  head: string; method: string; largestN: number;  // largest n up to which every seed reached the limit
  firstFailingN: number;      // 0: no n fails
  failingBeyond: string;      // the failing conditions at firstFailingN, runs per condition
}
// The (d, n) phase diagram (SPEC 6.5; the core's real_phase.hpp): its runs are ladder runs (with their dim).
export interface RealPhaseSettings {
  classA?: number; classB?: number; dims?: number[]; sizes?: number[]; embedSeed?: number;
  heads?: string; methods?: string; lr?: number; normEpsilon?: number; headSteps?: number;
  steps?: number;             // every run's budget, the same for every n and d (default 2000)
  snapshotsPerDecade?: number; seeds?: number; seedBase?: number; certifyTol?: number; corrTarget?: number;
}
export interface RealPhaseRow extends RealLadderRow { dim: number; degenerate: number; }  // degenerate = failDegenerate
export interface RealPhaseSummary extends RealLadderSummary { dim: number; }
export class RealPhasePlanner {
  constructor(module: object, settings?: RealPhaseSettings);
  take(count: number): RealLadderRunSpec[];
  submit(result: RealLadderRunResult): RealPlanProgress;
  progress(): RealPlanProgress;
  readonly done: boolean;
  table(): { settings: RealPhaseSettings; rows: RealPhaseRow[]; summary: RealPhaseSummary[] };
  record(): { runs: RealLadderRunSpec[]; results: RealLadderRunResult[] };
  dispose(): void;
}
export interface RealPlanProgress { planned: number; submitted: number; inFlight?: number; done: boolean; }
export class RealStudyPlanner {
  constructor(module: object, settings?: RealStudySettings);
  take(count: number): RealStudyRunSpec[];
  submit(result: RealStudyRunResult): RealPlanProgress;
  progress(): RealPlanProgress;
  readonly done: boolean;
  table(): { settings: RealStudySettings; rows: RealStudyRow[] };
  record(): { runs: RealStudyRunSpec[]; results: RealStudyRunResult[] };
  dispose(): void;
}
export class RealStudyRun {
  constructor(module: object, images: { train: ImageSetJSON; test: ImageSetJSON }, run: RealStudyRunSpec);
  readonly state: { epoch: number; epochs: number; done: boolean };
  advance(epochs: number): { epoch: number; epochs: number; done: boolean };
  result(): RealStudyRunResult;
  dispose(): void;
}
export class RealLadderPlanner {
  constructor(module: object, settings?: RealLadderSettings);
  take(count: number): RealLadderRunSpec[];
  submit(result: RealLadderRunResult): RealPlanProgress;
  progress(): RealPlanProgress;
  readonly done: boolean;
  table(): { settings: RealLadderSettings; rows: RealLadderRow[]; summary: RealLadderSummary[] };
  record(): { runs: RealLadderRunSpec[]; results: RealLadderRunResult[] };
  dispose(): void;
}
export class RealLadderRun {
  constructor(module: object, train: ImageSetJSON, run: RealLadderRunSpec);
  readonly state: { step: number; steps: number; trained: boolean; done: boolean };
  advance(steps: number): { step: number; steps: number; trained: boolean; done: boolean };
  analyze(): { step: number; steps: number; trained: boolean; done: boolean };
  result(): RealLadderRunResult;
  dispose(): void;
}
export function executeStudyRun(module: object, images: { train: ImageSetJSON; test: ImageSetJSON }, run: RealStudyRunSpec,
  options?: { chunk?: number; onProgress?: (p: { epoch: number; epochs: number }) => void; signal?: AbortSignal }): Promise<RealStudyRunResult>;
export function executeLadderRun(module: object, train: ImageSetJSON, run: RealLadderRunSpec,
  options?: { chunk?: number; onProgress?: (p: { step: number; steps: number; phase: 'train' | 'analysis' }) => void; signal?: AbortSignal }): Promise<RealLadderRunResult>;
export function runPlan<R>(planner: RealStudyPlanner | RealLadderPlanner | RealPhasePlanner, execute: (run: any) => Promise<any>,
  options?: { concurrency?: number; onProgress?: (p: RealPlanProgress) => void }): Promise<R>;

export function createWorkerEngine(options?: {
  baseUrl?: string;          // folder of attnsvm.js + attnsvm.wasm (default: new URL('./wasm/', document.baseURI))
  worker?: Worker;           // a worker running worker.js made by the caller (e.g. vite '?worker&inline')
  moduleSource?: string;     // text of attnsvm.single.js: loaded in the worker from a Blob (no .wasm file)
  moduleName?: 'attnsvm' | 'attnsvm-experiments';  // build to load from baseUrl (default 'attnsvm')
  budgetMs?: number;         // compute per player frame (default 12)
}): Promise<WorkerEngine>;

// One radius of the regularization path (core PathPoint, attnsvm/train/path.hpp; the CLI's
// `attnsvm path` writes the same fields). relativeGap = g / (R ||grad L||_dual) <= gapTolerance
// when certified; logGradDual = ln ||grad L||_dual (finite after the gradient underflows);
// lossResolved = false once the loss cannot change measurably inside the ball.
export interface PathPoint {
  radius: number; W: Matrix; loss: number; selection: number[]; corrOwn: number; corrGlobal: number;
  globallyOptimal: boolean; gap: number; relativeGap: number; logGradDual: number; norm: number;
  iterations: number; certified: boolean; lossResolved: boolean; rank: number;
}
