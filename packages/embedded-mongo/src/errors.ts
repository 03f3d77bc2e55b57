/** An error that travels back to the client as MongoDB reports it: `{ ok: 0, errmsg, code, codeName }`. */
export class MongoServerError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const ErrorCodes = {
  BadValue: 2,
  FailedToParse: 9,
  TypeMismatch: 14,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  CursorNotFound: 43,
  NamespaceExists: 48,
  DollarPrefixedFieldName: 52,
  InvalidIdField: 53,
  CommandNotFound: 59,
  ImmutableField: 66,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  OperationNotSupportedInTransaction: 263,
  DuplicateKey: 11000,
  Location40352: 40352,
  NoSuchTransaction: 251,
  Unauthorized: 13,
  Location40415: 40415,
  DocumentValidationFailure: 121,
  CommandNotSupportedOnView: 166,
  ViewDepthLimitExceeded: 165,
  WriteConflict: 112,
  ConflictingOperationInProgress: 117,
  TransactionTooOld: 225,
  TransactionCommitted: 256,
  InvalidResumeToken: 260,
  ChangeStreamFatalError: 280,
  ChangeStreamHistoryLost: 286,
  MaxTimeMSExpired: 50,
  PathNotViable: 28,
  CannotBackfillArray: 34,
  ConflictingUpdateOperators: 40,
  EmptyFieldName: 56,
  CannotCreateIndex: 67,
  BSONObjectTooLarge: 10334,
  Location51198: 51198,
  Location17420: 17420,
  SnapshotTooOld: 239,
  SnapshotUnavailable: 246,
  // Text search and collation (src/text/, src/collation.ts).
  NoSuchKey: 4,
  CannotBuildIndexKeys: 171,
  NoQueryExecutionPlans: 291,
  Location17261: 17261,
  Location17262: 17262,
  Location17313: 17313,
  Location40218: 40218,
  Location40414: 40414,
  OptionNotSupportedOnView: 167,
} as const;

export type ErrorCodeName = keyof typeof ErrorCodes;

export function serverError(
  codeName: ErrorCodeName,
  message: string,
  extra?: Record<string, unknown>,
): MongoServerError {
  return new MongoServerError(ErrorCodes[codeName], codeName, message, extra);
}

export function badValue(message: string): MongoServerError {
  return serverError('BadValue', message);
}
