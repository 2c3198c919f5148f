import { invalidTransition } from "./errors/app-error.js";

/**
 * A resource's statuses and the moves between them, as one table: for each action, the statuses
 * it may start from and the status it leads to. Anything not in the table is an illegal move
 * (409 INVALID_STATE_TRANSITION), so the table is the whole truth about a resource's lifecycle.
 */
export type TransitionTable<S extends string, A extends string> = Record<A, { from: readonly S[]; to: S }>;

export interface StateMachine<S extends string, A extends string> {
  readonly resource: string;
  readonly table: TransitionTable<S, A>;
  /** The status `action` leads to from `from`, or throws INVALID_STATE_TRANSITION. */
  next(from: S, action: A): S;
  can(from: S, action: A): boolean;
}

export function defineStateMachine<S extends string, A extends string>(
  resource: string,
  table: TransitionTable<S, A>,
  /** How an action reads in an error message ("cancel" → "cancelled"). */
  pastTense: Record<A, string>,
): StateMachine<S, A> {
  return {
    resource,
    table,
    can: (from, action) => table[action].from.includes(from),
    next(from, action) {
      if (!table[action].from.includes(from)) throw invalidTransition(resource, from, pastTense[action]);
      return table[action].to;
    },
  };
}
