/**
 * A text index's inverted index: for each term, the documents holding it and the term's score
 * in each (mongod keeps the same in B-tree keys `{ prefix, term, score, suffix }`). Postings are
 * parallel arrays (ids, scores and, for a compound index, the values of its prefix fields), about
 * 16 bytes a posting: a short post files about 10 terms, so 100k posts make about 1M postings.
 * A compound index's lookup keeps the postings whose prefix values are the query's equalities.
 */
import type { Doc } from '../values';
import type { TextSpec } from './spec';

export interface Postings {
  ids: string[];
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

  add(id: string, entries: TextEntries): void {
    let prefix: string | undefined;
    if (this.compound) {
      prefix = this.prefixStrings.get(entries.prefix);
      if (prefix === undefined) {
        prefix = entries.prefix;
        this.prefixStrings.set(prefix, prefix);
      }
    }
    for (const [term, score] of entries.scores) {
      let list = this.lists.get(term);
      if (!list) {
        list = this.compound ? { ids: [], scores: [], prefixes: [] } : { ids: [], scores: [] };
        this.lists.set(term, list);
      }
      list.ids.push(id);
      list.scores.push(score);
      list.prefixes?.push(prefix!);
    }
  }

  remove(id: string, entries: TextEntries): void {
    for (const term of entries.scores.keys()) {
      const list = this.lists.get(term);
      if (!list) continue;
      // Recent documents are at the end (and are the likeliest to change).
      const i = list.ids.lastIndexOf(id);
      if (i < 0) continue;
      const last = list.ids.length - 1;
      list.ids[i] = list.ids[last]!;
      list.scores[i] = list.scores[last]!;
      list.ids.pop();
      list.scores.pop();
      if (list.prefixes) {
        list.prefixes[i] = list.prefixes[last]!;
        list.prefixes.pop();
      }
      if (list.ids.length === 0) this.lists.delete(term);
    }
  }

  /**
   * The documents holding `term` whose prefix key is `prefix` (any, for an index without prefix
   * fields), with the term's score in each. The arrays may be the index's own: read them before
   * anything changes the index.
   */
  lookup(prefix: string, term: string): Readonly<Postings> | undefined {
    const list = this.lists.get(term);
    if (!list?.prefixes) return list;
    const ids: string[] = [];
    const scores: number[] = [];
    for (let i = 0; i < list.ids.length; i++) {
      if (list.prefixes[i] !== prefix) continue;
      ids.push(list.ids[i]!);
      scores.push(list.scores[i]!);
    }
    return ids.length ? { ids, scores } : undefined;
  }

  clear(): void {
    this.lists.clear();
    this.prefixStrings.clear();
  }
}
