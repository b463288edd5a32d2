// A forward and backward pass as a stepper shows it, step by step (scripts/reader/stepper_trace.py:
// replay; the build's steppers, a stepper's live trace, the playground), as shared/graph.js's
// drawStep reads it. Types only: this module exports nothing at run time.

/**
 * nodes: draw_dot's ids, each with its name and its "data …" field; forward: the ids in
 * topological order; backward: one step per node, with the grads of every node after it, the
 * edges and parents it updated and, per edge, what it added; edges: by id, the edge's rule
 * (text) and what it says before the forward step `from` made its child (pending).
 * @typedef {{
 *   nodes: {id: string, name: string, data: string}[],
 *   forward: string[],
 *   forwardCaptions: string[],
 *   backward: {node: string, edges: string[], parents: string[], grads: string[],
 *     contributions: Object<string, string>}[],
 *   backwardCaptions: string[],
 *   zeroGrads: string[],
 *   edges: Object<string, Edge>,
 * }} Replay
 * @typedef {{text: string, pending: string, from: number}} Edge
 */

export {};
