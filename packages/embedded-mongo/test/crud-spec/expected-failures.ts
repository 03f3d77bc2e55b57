/**
 * The CRUD conformance tests expected to fail, each with the reason. The gate in
 * `test/crud-spec.test.ts` fails when any other test fails, and when a test listed here no longer
 * fails (it passes, is skipped or is gone): fix the server or remove the entry, so that this list
 * always says exactly what does not work.
 */
export interface ExpectedFailure {
  /** The spec file's name, without `.json`. */
  file: string;
  /** The test's `description`. */
  description: string;
  /** Why it fails, and why it cannot (or will not) be fixed in the server. */
  reason: string;
}

const DRIVER_DROPS_FALSE_BYPASS =
  'The Node.js driver 7.8 sends bypassDocumentValidation only when it is true, so the command never carries the false the test expects; nothing reaches the server to change.';
const DRIVER_REPLACES_NULL_ID =
  'The Node.js driver replaces a null _id by a new ObjectId before sending (maybeAddIdToDocuments), so no document with _id null is ever inserted.';

export const expectedFailures: ExpectedFailure[] = [
  {
    file: 'bypassDocumentValidation',
    description: 'Aggregate with $out passes bypassDocumentValidation: false',
    reason: DRIVER_DROPS_FALSE_BYPASS,
  },
  {
    file: 'bypassDocumentValidation',
    description: 'BulkWrite passes bypassDocumentValidation: false',
    reason: DRIVER_DROPS_FALSE_BYPASS,
  },
  {
    file: 'bypassDocumentValidation',
    description: 'FindOneAndReplace passes bypassDocumentValidation: false',
    reason: DRIVER_DROPS_FALSE_BYPASS,
  },
  {
    file: 'bypassDocumentValidation',
    description: 'FindOneAndUpdate passes bypassDocumentValidation: false',
    reason: DRIVER_DROPS_FALSE_BYPASS,
  },
  {
    file: 'bypassDocumentValidation',
    description: 'InsertMany passes bypassDocumentValidation: false',
    reason: DRIVER_DROPS_FALSE_BYPASS,
  },
  {
    file: 'create-null-ids',
    description: 'inserting _id with type null via insertOne',
    reason: DRIVER_REPLACES_NULL_ID,
  },
  {
    file: 'create-null-ids',
    description: 'inserting _id with type null via insertMany',
    reason: DRIVER_REPLACES_NULL_ID,
  },
  {
    file: 'create-null-ids',
    description: 'inserting _id with type null via bulkWrite',
    reason: DRIVER_REPLACES_NULL_ID,
  },
];
