/**
 * A text index's inverted index: for each term, the documents holding it and the term's score
 * in each (mongod keeps the same in B-tree keys `{ prefix, term, score, suffix }`). A document
 * is filed under a small number, its ordinal (reused once the document leaves the index), so a
 * posting is two numbers and a search sums its terms' scores in an array indexed by ordinal
 * instead of a map keyed by `_id` strings (that map was half of a two-word search's time).
 * Postings are parallel arrays (ordinals, scores and, for a compound index, the key of its prefix
 * fields' values): a short post files about 10 terms, so 100k posts make about 1M postings.
 * A compound index's lookup keeps the postings whose prefix values are the query's equalities.
 */
import type { Doc } from '../values';
import type { TextSpec } from './spec';

export interface Postings {
  /** The documents' ordinals (see `TextPostings.idOf`). */
  ords: number[];
  scores: number[];
  /** The prefix key of each posting (compound indexes only). */
  prefixes?: string[];
}

/** What one document files: the key of its prefix values and the score of each term. */
export interface TextEntries {
  prefix: string;
  scores: Map<string, number>;
}

export class TextPostings {
  private readonly lists = new Map<string, Postings>();
  /** One string per prefix key, shared by the postings that carry it. */
  private readonly prefixStrings = new Map<string, string>();
  private readonly compound: boolean;
  /** The ordinal of each document with postings, the `_id` key at each ordinal, free ordinals. */
  private readonly ordinals = new Map<string, number>();
  private readonly ids: Array<string | undefined> = [];
  private readonly free: number[] = [];
  /** Scores summed by ordinal during `sum` (all zero between calls), and the call that saw each. */
  private scratch = new Float64Array(0);
  private seen = new Uint32Array(0);
  private sums = 0;

  constructor(readonly spec: TextSpec) {
    this.compound = spec.extraBefore.length > 0;
  }

  /**
   * What a document files, checked as mongod checks it (language override, arrays in prefix or
   * suffix fields: its errors are thrown before anything is stored).
   */
  entries(doc: Doc): TextEntries {
    const spec = this.spec;
    const prefix = spec.prefixKey(spec.extraValues(doc, spec.extraBefore));
    spec.extraValues(doc, spec.extraAfter);
    return { prefix, scores: spec.scoreDocument(doc) };
  }

  /** The `_id` key of the document filed under `ord`. */
  idOf(ord: number): string | undefined {
    return this.ids[ord];
  }

  add(id: string, entries: TextEntries): void {
    if (entries.scores.size === 0) return;
    let prefix: string | undefined;
    if (this.compound) {
      prefix = this.prefixStrings.get(entries.prefix);
      if (prefix === undefined) {
        prefix = entries.prefix;
        this.prefixStrings.set(prefix, prefix);
      }
    }
    let ord = this.ordinals.get(id);
    if (ord === undefined) {
      ord = this.free.pop() ?? this.ids.length;
      this.ordinals.set(id, ord);
      this.ids[ord] = id;
    }
    for (const [term, score] of entries.scores) {
      let list = this.lists.get(term);
      if (!list) {
        list = this.compound ? { ords: [], scores: [], prefixes: [] } : { ords: [], scores: [] };
        this.lists.set(term, list);
      }
      list.ords.push(ord);
      list.scores.push(score);
      list.prefixes?.push(prefix!);
    }
  }

  /** Takes out what `add` filed for the document (`entries`: the same as were added). */
  remove(id: string, entries: TextEntries): void {
    const ord = this.ordinals.get(id);
    if (ord === undefined) return;
    for (const term of entries.scores.keys()) {
      const list = this.lists.get(term);
      if (!list) continue;
      // Recent documents are at the end (and are the likeliest to change).
      const i = list.ords.lastIndexOf(ord);
      if (i < 0) continue;
      const last = list.ords.length - 1;
      list.ords[i] = list.ords[last]!;
      list.scores[i] = list.scores[last]!;
      list.ords.pop();
      list.scores.pop();
      if (list.prefixes) {
        list.prefixes[i] = list.prefixes[last]!;
        list.prefixes.pop();
      }
      if (list.ords.length === 0) this.lists.delete(term);
    }
    this.ordinals.delete(id);
    this.ids[ord] = undefined;
    this.free.push(ord);
  }

  /**
   * The documents holding `term` whose prefix key is `prefix` (any, for an index without prefix
   * fields), with the term's score in each. The arrays may be the index's own: read them before
   * anything changes the index.
   */
  lookup(prefix: string, term: string): Readonly<Postings> | undefined {
    const list = this.lists.get(term);
    if (!list?.prefixes) return list;
    const ords: number[] = [];
    const scores: number[] = [];
    for (let i = 0; i < list.ords.length; i++) {
      if (list.prefixes[i] !== prefix) continue;
      ords.push(list.ords[i]!);
      scores.push(list.scores[i]!);
    }
    return ords.length ? { ords, scores } : undefined;
  }

  /**
   * The documents of several terms' postings (from `lookup`) with the sum of their scores, in
   * order of first appearance (the first list's order, then each later list's documents not
   * seen before), summed in an array indexed by ordinal.
   */
  sum(lists: ReadonlyArray<Readonly<Postings>>): { ords: number[]; scores: number[] } {
    if (this.scratch.length < this.ids.length) {
      const size = Math.max(this.ids.length, this.scratch.length * 2);
      this.scratch = new Float64Array(size);
      this.seen = new Uint32Array(size);
      this.sums = 0;
    }
    if (++this.sums === 0xffffffff) {
      this.seen.fill(0);
      this.sums = 1;
    }
    const acc = this.scratch;
    const seen = this.seen;
    const call = this.sums;
    const ords: number[] = [];
    for (const list of lists) {
      const lo = list.ords;
      const ls = list.scores;
      for (let i = 0; i < lo.length; i++) {
        const o = lo[i]!;
        if (seen[o] !== call) {
          seen[o] = call;
          ords.push(o);
        }
        acc[o] = acc[o]! + ls[i]!;
      }
    }
    const scores = new Array<number>(ords.length);
    for (let i = 0; i < ords.length; i++) {
      const o = ords[i]!;
      scores[i] = acc[o]!;
      acc[o] = 0;
    }
    return { ords, scores };
  }

  clear(): void {
    this.lists.clear();
    this.prefixStrings.clear();
    this.ordinals.clear();
    this.ids.length = 0;
    this.free.length = 0;
  }
}
