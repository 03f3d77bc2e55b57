/**
 * Document validation (collection option `validator`, with `validationLevel` and
 * `validationAction`), as mongod applies it to inserts, updates and replacements unless the
 * command says `bypassDocumentValidation: true`. Validators are query filters; `$jsonSchema`
 * is not supported.
 */
import { Query } from './mingo';
import type { Collection } from './collection';
import { badValue, serverError } from './errors';
import { guard } from './query';
import { isPlainObject, type Doc } from './values';
import { normalizeTimezones } from './timezones';

const LEVELS = ['off', 'strict', 'moderate'];
const ACTIONS = ['error', 'warn', 'errorAndLog'];

/** Checks validator options before they are stored (create, collMod). */
export function checkValidatorOptions(options: Doc): void {
  const { validator, validationLevel, validationAction } = options;
  if (validator !== undefined) {
    if (!isPlainObject(validator)) throw badValue("'validator' must be an object");
    if (hasKey(validator, '$jsonSchema'))
      throw badValue('$jsonSchema validators are not supported by this server');
    guard(() => new Query(validator, {}));
  }
  if (validationLevel !== undefined && !LEVELS.includes(String(validationLevel)))
    throw badValue(
      `Enumeration value '${String(validationLevel)}' for field 'validationLevel' is not a valid value.`,
    );
  if (validationAction !== undefined && !ACTIONS.includes(String(validationAction)))
    throw badValue(
      `Enumeration value '${String(validationAction)}' for field 'validationAction' is not a valid value.`,
    );
}

function hasKey(v: unknown, key: string): boolean {
  if (Array.isArray(v)) return v.some((x) => hasKey(x, key));
  if (!isPlainObject(v)) return false;
  return Object.entries(v).some(([k, x]) => k === key || hasKey(x, key));
}

/**
 * Throws DocumentValidationFailure (121) when `doc` (the new version; `old` is the stored one
 * for updates) fails the collection's validator.
 */
export function validateDocument(
  coll: Collection,
  doc: Doc,
  old: Doc | undefined,
  bypass: boolean,
): void {
  const { validator, validationLevel, validationAction } = coll.options;
  if (bypass || !isPlainObject(validator) || Object.keys(validator).length === 0) return;
  if (validationLevel === 'off' || validationAction === 'warn') return;
  const query = guard(() => new Query(normalizeTimezones(validator), {}));
  if (query.test(doc)) return;
  // moderate: updates to documents that already fail validation are allowed
  if (validationLevel === 'moderate' && old && !query.test(old)) return;
  const clausesNotSatisfied: Doc[] = [];
  Object.entries(validator).forEach(([field, cond], index) => {
    if (guard(() => new Query(normalizeTimezones({ [field]: cond }), {})).test(doc)) return;
    const operatorName = field.startsWith('$')
      ? field
      : isPlainObject(cond) && Object.keys(cond)[0]?.startsWith('$')
        ? (Object.keys(cond)[0] as string)
        : '$eq';
    clausesNotSatisfied.push({
      index,
      details: { operatorName, specifiedAs: { [field]: cond }, reason: 'expression did not match' },
    });
  });
  throw serverError('DocumentValidationFailure', 'Document failed validation', {
    errInfo: {
      failingDocumentId: doc._id,
      details: { operatorName: '$and', clausesNotSatisfied },
    },
  });
}
