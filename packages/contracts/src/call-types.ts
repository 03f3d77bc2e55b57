// The types a client or a server reads a call of the table with (calls.ts): what it sends and
// what it answers, by its entry (`calls.likePost`) or its route (`callRoutes.likePost`).
import type { z } from 'zod';
import type { CallName } from './call-routes';
import type { CallSchemas, CallTable, MultipartBody } from './calls';

/** A call of the table, given as its entry or as its route (`callRoutes.likePost`). */
type CallOf<C> = C extends CallSchemas
  ? C
  : C extends { readonly name: infer N extends CallName }
    ? CallTable[N]
    : never;
type DiscriminatorName<C> = C extends { readonly discriminator: infer D } ? keyof D : never;
type QueryFields<Q extends z.ZodType> = {
  [K in keyof z.input<Q>]: Exclude<z.output<Q>[K & keyof z.output<Q>], undefined>;
};

/** The path parameters of a call as a client passes them (`{ id: number }`); `{}` for none. */
export type CallParams<C> = z.output<CallOf<C>['params']>;

/**
 * The query a client passes: the query schema's fields (those with a default optional), typed as
 * parsed (numbers as numbers), without the discriminator, which the client adds itself. `never`
 * for a call that reads no query.
 */
export type CallQuery<C> =
  CallOf<C> extends { readonly query: infer Q extends z.ZodType }
    ? Omit<QueryFields<Q>, DiscriminatorName<CallOf<C>>>
    : never;

/**
 * The body a client sends: the input of the body schema (fields with a default optional), or
 * FormData for a multipart upload. `never` for a call that reads no body. The API reads the
 * output of the schema (`z.output<typeof calls.x.body>`).
 */
export type CallBody<C> =
  CallOf<C> extends { readonly body: infer B }
    ? B extends MultipartBody
      ? FormData
      : B extends z.ZodType
        ? z.input<B>
        : never
    : never;

/** What a successful call answers; null for a 204, which has no body. */
export type CallResponse<C> =
  CallOf<C> extends { readonly status: 204 } ? null : z.output<CallOf<C>['response']>;
