/**
 * mongod's 16 MiB limit on a stored document (BSONObjMaxUserSize), enforced on inserts, updates
 * and upserts with mongod's errors.
 *
 * Measuring a whole document on every update would cost more than the update (about 25 µs for a
 * 5 KB document), so the size of a stored version is remembered (by object: stored documents are
 * never changed in place) and an update's result is measured from its predecessor's size plus the
 * top-level fields that differ (an update shares the fields it does not change with the old
 * version). A version whose size is not known yet (read from the journal) is measured once.
 */
import { calculateObjectSize } from 'bson';
import { badValue, serverError } from './errors';
import type { Doc } from './values';

/** mongod's largest document (BSONObjMaxUserSize). */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

const sizes = new WeakMap<Doc, number>();

function sizeOf(doc: Doc): number {
  let size = sizes.get(doc);
  if (size === undefined) {
    size = calculateObjectSize(doc);
    sizes.set(doc, size);
  }
  return size;
}

/** The bytes a field takes in a document: type, name, value (as the bson package encodes it). */
function fieldSize(name: string, value: unknown): number {
  const head = 2 + Buffer.byteLength(name);
  switch (typeof value) {
    case 'number':
      return (
        head + (Number.isInteger(value) && value >= -2147483648 && value <= 2147483647 ? 4 : 8)
      );
    case 'string':
      return head + 5 + Buffer.byteLength(value);
    case 'boolean':
      return head + 1;
  }
  if (value === null || value === undefined) return head;
  if (value instanceof Date) return head + 8;
  return calculateObjectSize({ [name]: value }) - 5;
}

/**
 * An insert over 16 MiB fails with BadValue "object to insert too large", as in mongod. `bytes`
 * is its encoded size when known (the insert command's own bytes).
 */
export function checkInsertSize(doc: Doc, bytes?: number): void {
  const size = bytes ?? calculateObjectSize(doc);
  if (size > MAX_DOCUMENT_BYTES)
    throw badValue(
      `object to insert too large. size in bytes: ${size}, max size: ${MAX_DOCUMENT_BYTES}`,
    );
  sizes.set(doc, size);
}

/** The document an upsert inserts: over 16 MiB it fails with code 17420, as in mongod. */
export function checkUpsertSize(doc: Doc): void {
  const size = calculateObjectSize(doc);
  if (size > MAX_DOCUMENT_BYTES)
    throw serverError('Location17420', `Document to upsert is larger than ${MAX_DOCUMENT_BYTES}`);
  sizes.set(doc, size);
}

/** The new version of an updated document: over 16 MiB it fails with BSONObjectTooLarge (10334). */
export function checkUpdatedSize(old: Doc, updated: Doc): void {
  let size = sizeOf(old);
  let kept = 0;
  let oldCount = 0;
  for (const k in updated) {
    const now = updated[k];
    if (Object.hasOwn(old, k)) {
      kept++;
      const before = old[k];
      if (now !== before) size += fieldSize(k, now) - fieldSize(k, before);
    } else size += fieldSize(k, now);
  }
  for (const _ in old) oldCount++;
  if (kept < oldCount)
    for (const k in old) if (!Object.hasOwn(updated, k)) size -= fieldSize(k, old[k]);
  if (size > MAX_DOCUMENT_BYTES)
    throw serverError(
      'BSONObjectTooLarge',
      `Resulting document after update is larger than ${MAX_DOCUMENT_BYTES}`,
    );
  sizes.set(updated, size);
}
