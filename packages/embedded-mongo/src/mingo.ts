/**
 * mingo as this server uses it: its query, projection, pipeline, expression, accumulator and
 * window operators, with the query operators of match-operators.ts (mongod's semantics) in place
 * of mingo's own. Every Query and Aggregator of the server comes from here, so a filter means
 * the same in a find, an update, a `$match` stage, a view, a validator or a partial index.
 */
import { Context } from 'mingo/core';
import { Query as BaseQuery } from 'mingo/query';
import { Aggregator as BaseAggregator } from 'mingo/aggregator';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import type { Options } from 'mingo/types';
import { MATCH_OPERATORS } from './match-operators';

export const CONTEXT = Context.init({
  accumulator: { ...accumulatorOperators },
  expression: { ...expressionOperators },
  pipeline: { ...pipelineOperators },
  projection: { ...projectionOperators },
  query: { ...queryOperators, ...MATCH_OPERATORS },
  window: { ...windowOperators },
} as Parameters<typeof Context.init>[0]);

function withContext(options?: Partial<Options>): Partial<Options> {
  return { ...options, context: CONTEXT };
}

export class Query extends BaseQuery {
  constructor(condition: object, options?: Partial<Options>) {
    super(condition, withContext(options));
  }
}

export class Aggregator extends BaseAggregator {
  constructor(pipeline: object[], options?: Partial<Options>) {
    super(pipeline as ConstructorParameters<typeof BaseAggregator>[0], withContext(options));
  }
}
