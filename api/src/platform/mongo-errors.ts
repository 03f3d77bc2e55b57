/** True for MongoDB's duplicate-key error (E11000), the signal of a lost insert race. */
export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}
