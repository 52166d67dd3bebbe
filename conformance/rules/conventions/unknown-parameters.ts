/**
 * The "unknown parameters are reported" check every endpoint gets (section 1 convention 4,
 * level 167+): names an endpoint does not declare come back, sorted by code point, in
 * `ignored_parameters_unsupported`, and the request still succeeds.
 */
import fc from 'fast-check';
import type { Reply } from '../../client/api-client.js';
import { expectSuccess } from '../../expect/assert.js';
import { byCodePoint, printableText, unknownParamName } from '../support/arbitraries.js';
import type { RuleContext } from '../types.js';

export type ParamPair = [name: string, value: string];

export interface UnknownParamsOptions {
  /** Fewest pairs; fast-check's default (0) when absent. */
  readonly minLength?: number;
  readonly maxLength: number;
  /** Longest value text (`printableText`'s default when absent). */
  readonly valueLength?: number;
}

/** Distinct undeclared parameter names (never one of `declared`), each with a printable value. */
export function unknownParams(declared: readonly string[], options: UnknownParamsOptions): fc.Arbitrary<ParamPair[]> {
  const { minLength, maxLength, valueLength } = options;
  return fc.uniqueArray(fc.tuple(unknownParamName(declared), printableText(valueLength)), {
    ...(minLength === undefined ? {} : { minLength }),
    maxLength,
    selector: ([name]) => name,
  });
}

/** The names of `pairs` as `ignored_parameters_unsupported` lists them: sorted by code point. */
export function ignoredNames(pairs: ReadonlyArray<readonly [string, unknown]>): string[] {
  return pairs.map(([name]) => name).sort(byCodePoint);
}

export interface UnknownParamsCheck {
  /** Names the endpoint reads (never offered as unknown). */
  readonly declared: readonly string[];
  /** Sends a valid request with the unknown pairs appended. */
  readonly send: (pairs: ParamPair[]) => Promise<Reply>;
  /** The property's name in reports. */
  readonly label?: string;
  readonly valueLength?: number;
  readonly maxRuns?: number;
}

/**
 * A property over 1 to 4 unknown pairs: each request succeeds and reports exactly their names,
 * sorted.
 */
export async function checkUnknownParamsReported(ctx: RuleContext, spec: UnknownParamsCheck): Promise<void> {
  const pairs = unknownParams(spec.declared, { minLength: 1, maxLength: 4, ...(spec.valueLength === undefined ? {} : { valueLength: spec.valueLength }) });
  await ctx.property(
    spec.label ?? 'unknown names',
    [pairs],
    async (unknown) => {
      expectSuccess(await spec.send(unknown), { ignored: ignoredNames(unknown) });
    },
    spec.maxRuns === undefined ? undefined : { maxRuns: spec.maxRuns },
  );
}
