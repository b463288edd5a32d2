// The one door from the page into the reader's Python, written down once: the functions the
// page may call (scripts/reader/calls.py: FUNCTIONS), their JSON arguments and values, and the
// messages between the page (python.js) and the worker (python-worker.js). Types only: this
// module exports nothing at run time. TypeScript's checker reads them where python.js,
// python-worker.js and their callers name them (tests/tools/test_lint.py: tsc --noEmit --checkJs).

/**
 * The functions of scripts/reader/calls.py, each with its arguments (JSON) and its value.
 * @typedef {{
 *   run_blocks: {blocks: Block[], upto: number, edits: Object<string, string>, engine?: string | null},
 *   run_exercise: {exercise: string, code: string, engine?: string | null},
 *   trace_stepper: {graph: object[], values: Object<string, string>, engine?: string | null},
 *   playground: {expression: string, values: string, engine?: string | null, against?: Against},
 *   check_engine: {source: string},
 *   diagnose: {blocks: Block[], upto: number, edits: Object<string, string>, source: string},
 *   varies: {blocks: Block[], source: string, statuses: (string | null)[]},
 * }} CallArgs
 * run_blocks with an engine (the reader's engine source, scripts/reader/your_engine.py): each result
 * has "applies", the reasons the block does not apply to a reader's engine ([] if it does).
 * trace_stepper and playground with an engine: the reader's Value builds and differentiates the
 * graph; their value says which engine ran it (RanOn). playground's `against` "micrograd" (with an
 * engine only) compares each grad with micrograd's (PlaygroundAnswer).
 * @typedef {"micrograd" | "your engine"} RanOn
 * @typedef {"differences" | "micrograd"} Against
 * @typedef {{ok: true, preset: object, dot: string, engine: RanOn} | {ok: false, message: string}} StepperTrace
 *   trace_stepper's value
 * @typedef {{ok: true, dot: string, engine: RanOn, against: Against,
 *   columns: string[], caption: string, check: {passed: boolean, complete: boolean, text: string},
 *   leaves: {name: string, passed: boolean | null, shown: string[]}[], difference?: Difference | null,
 *   cause?: string | null} | {ok: false, field: "expression" | "values" | null, column: number | null,
 *   message: string}} PlaygroundAnswer  playground's value (its steps as a stepper's, not typed here)
 * @typedef {{ok: true, shape: "book" | "lecture"} | {ok: false, message: string}} EngineCheck
 *   check_engine's value
 * @typedef {{id: string, label: string, op: string, expected: number | string, got: number | string,
 *   shown: {expected: string, got: string}}} Difference
 *   the first node, in reverse topological order, whose grad differs; id: draw_dot's id
 * @typedef {"assign" | "upstream" | "tanh" | "local" | "order" | "unvisited" | null} Mistake
 *   the classic mistake decided at a node (scripts/reader/engine_cause.py), null: none fits
 * @typedef {{ok: true, difference: null, compared: string[], uncompared: string[], status: string,
 *   error: string, runs: number, cause?: string | null, mistake?: Mistake} | {ok: true,
 *   difference: Difference, cause: string | null, diagnosis: string, mistake: Mistake,
 *   operation: string | null, operand: "left" | "right" | null, dot: string | null, name: string,
 *   runs: number} | {ok: false, message: string}} Diagnosis  diagnose's value (compared, uncompared: the
 *   names whose graphs were compared, and those that could not be; status and error: how the block went
 *   on the reader's engine in the last of the `runs` runs made; cause: read on the exercises' graphs)
 * @typedef {{set: boolean, blocks: {index: number, line: number, statuses: string[]}[]}} Varies
 *   varies' value: the blocks that went otherwise in a second run than in the first (statuses)
 * @typedef {{index: number, line: number, name: string, hidden: boolean, kind: string, edited: boolean,
 *   figure: boolean, status: "ran" | "error" | "skipped" | "unavailable" | "differs", output: string,
 *   error: string, transcript: object[], skip: {reason: string, examples: number[]} | null,
 *   dot: string | null, dot_narrow: string | null, dot_too_big: {chars: number, limit: number} | null,
 *   seconds: number, module?: string, why?: string, stopped?: object | null, applies?: string[]}} BlockResult
 *   one block's result (scripts/reader/run_blocks.py: _result; module, why and stopped: a module Python in
 *   the browser does not have; applies: with an engine)
 * @typedef {{results: BlockResult[], seconds: number, python: string, bits: number}} BlocksReport
 *   run_blocks' value
 * @typedef {{results: {name: string, passed: boolean, message: string}[], output: string, note: string,
 *   tests_ran: boolean, code_ran: boolean, summary: string, engine: string}} ExerciseReport
 *   run_exercise's value (scripts/reader/exercise_runner.py: run_dict)
 * @typedef {{
 *   run_blocks: BlocksReport,
 *   run_exercise: ExerciseReport,
 *   trace_stepper: StepperTrace,
 *   playground: PlaygroundAnswer,
 *   check_engine: EngineCheck,
 *   diagnose: Diagnosis,
 *   varies: Varies,
 * }} CallResults  each function's value: what call(fn) resolves to as its Answer's report
 * @typedef {keyof CallArgs} CallName
 * @typedef {{line: number, kind: string, hidden: boolean, source: string, skip: object | null,
 *   when?: object | null, figure: boolean}} Block  one block of a page's blocks.json
 */

/**
 * Where the page's Python is (python.js: pageRuntime()).
 * @typedef {{runtimeURL: string, pythonURL: string, runtimeBytes: number, again?: boolean}} Runtime
 */

/**
 * The page to the worker, on the MessageChannel's port (after {type: "connect"} on the worker).
 * @typedef {Runtime & {type: "load", imports?: string[]}} Load  start Python for Runs to come, running
 *   nothing; imports: modules a Run will import, imported once Python is up
 * @typedef {Runtime & {type: "call", id: number, fn: CallName, args: string}} Call  args: JSON text
 * @typedef {Load | Call} ToWorker
 */

/**
 * The worker to the page, on the port.
 * @typedef {{type: "loaded"}} Loaded  Python is up
 * @typedef {{type: "progress", id: number | null, text: string}} Progress
 * @typedef {{type: "started", id: number, startMs: number}} Started  the reader's code starts now
 * @typedef {{type: "result", id: number, value: any, runMs: number}} Result  the function's value
 * @typedef {{type: "error", id: number, message: string, fatal: boolean, block?: number | null,
 *   refused?: boolean, stopped?: boolean}} Failure  fatal: the worker is unusable, end it; block: the
 *   chapter block that was running (run_blocks); refused: Python refused the request itself (calls.py's
 *   {ok: false}); stopped: Python itself stopped (python.js adds what the next Run does)
 * @typedef {Loaded | Progress | Started | Result | Failure} FromWorker
 */

/**
 * What a call resolves to on the page (python.js: call(), runBlocks(), runExercise()): call(fn)'s
 * report is CallResults[fn] (Answer<CallResults[fn]>); a bare Answer leaves the report untyped.
 * @template [R=unknown]
 * @typedef {{kind: "result", report: R, startMs: number, runMs: number, coldStart: boolean,
 *   afterReaderCode?: boolean, started?: string}} Answered  report: the
 *   function's value; afterReaderCode: the reader's code of an
 *   earlier Run ran in the Python this one ran in; started (coldStart only): "Python started in
 *   2.6 s", or when a Python already loading was ready
 */

/**
 * @typedef {{kind: "timeout", seconds: number, message: string}} TimedOut
 * @typedef {{kind: "stopped", message: string}} Stopped
 * @typedef {{kind: "error", message: string, block?: number | null}} Failed
 */

/**
 * Any of them says why Python started again for it, if it did (restarted).
 * @template [R=unknown]
 * @typedef {(Answered<R> | TimedOut | Stopped | Failed) & {restarted?: string}} Answer
 */

export {};
