/**
 * A text index's inverted index: for each (prefix values, term), the documents holding the term
 * and the term's score in each (mongod keeps the same in B-tree keys `{ prefix, term, score,
 * suffix }`). Postings are two parallel arrays (ids, scores), 16 bytes a posting: a short post
 * files about 10 terms, so 100k posts make about 1M postings.
 */
import type { Doc } from '../values';
import type { TextSpec } from './spec';

export interface Postings {
  ids: string[];
  scores: number[];
}

/** What one document files: the key prefix of its prefix fields and the score of each term. */
export interface TextEntries {
  prefix: string;
  scores: Map<string, number>;
}

export class TextPostings {
  private readonly lists = new Map<string, Postings>();

  constructor(readonly spec: TextSpec) {}

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
    for (const [term, score] of entries.scores) {
      const key = entries.prefix + term;
      let list = this.lists.get(key);
      if (!list) {
        list = { ids: [], scores: [] };
        this.lists.set(key, list);
      }
      list.ids.push(id);
      list.scores.push(score);
    }
  }

  remove(id: string, entries: TextEntries): void {
    for (const term of entries.scores.keys()) {
      const key = entries.prefix + term;
      const list = this.lists.get(key);
      if (!list) continue;
      // Recent documents are at the end (and are the likeliest to change).
      const i = list.ids.lastIndexOf(id);
      if (i < 0) continue;
      const last = list.ids.length - 1;
      list.ids[i] = list.ids[last]!;
      list.scores[i] = list.scores[last]!;
      list.ids.pop();
      list.scores.pop();
      if (list.ids.length === 0) this.lists.delete(key);
    }
  }

  /** The documents holding `term` under the prefix key `prefix`, with its score in each. */
  lookup(prefix: string, term: string): Readonly<Postings> | undefined {
    return this.lists.get(prefix + term);
  }

  clear(): void {
    this.lists.clear();
  }
}
