/**
 * A project's dunning schedule and its arithmetic. Pure: no clock, no store.
 *
 * Steps are counted in days from an invoice's due date (the end of its period). Manila is UTC+8
 * all year (no daylight saving), so a Manila day is always 24 hours: a step `offsetDays` off is
 * at the due date's Manila time of day, that many Manila days before or after it.
 */

export type DunningFinalAction = "mark_unpaid" | "cancel";

export interface DunningStep {
  /** Days from the due date: negative before it, 0 on it, positive after it. */
  offsetDays: number;
}

export interface DunningSchedule {
  /** Sorted by offsetDays, unique; empty: no reminders and no final action. */
  steps: DunningStep[];
  /** What happens to the subscription after an invoice's last step. */
  finalAction: DunningFinalAction;
}

/** 3 days before the due date, on it, 3 and 7 days after; then the subscription is marked unpaid. */
export const defaultDunningSchedule = (): DunningSchedule => ({
  steps: [{ offsetDays: -3 }, { offsetDays: 0 }, { offsetDays: 3 }, { offsetDays: 7 }],
  finalAction: "mark_unpaid",
});

export const MIN_OFFSET_DAYS = -30;
export const MAX_OFFSET_DAYS = 60;
export const MAX_DUNNING_STEPS = 10;
const finalActions: readonly DunningFinalAction[] = ["mark_unpaid", "cancel"];

const DAY_MS = 24 * 60 * 60 * 1000;
const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000;

/** A problem with a schedule: the field (`dunning.steps[1].offsetDays`) and what is wrong with it. */
export interface ScheduleProblem {
  field: string;
  problem: string;
}

/**
 * The schedule as given (an empty final action is the default), or the first problem with it:
 * offsets whole numbers of days from -30 to 60, strictly increasing (so sorted and unique), at
 * most 10 steps, the last at or after the due date (the final action follows it, and a
 * subscription is never marked unpaid before its invoice is due).
 */
export function checkDunningSchedule(input: { steps: ReadonlyArray<{ offsetDays: number }>; finalAction: string }): DunningSchedule | ScheduleProblem {
  const finalAction = input.finalAction === "" ? "mark_unpaid" : finalActions.find((action) => action === input.finalAction);
  if (!finalAction) return { field: "dunning.finalAction", problem: "must be mark_unpaid or cancel" };
  if (input.steps.length > MAX_DUNNING_STEPS) return { field: "dunning.steps", problem: `must have at most ${MAX_DUNNING_STEPS} steps` };
  const steps: DunningStep[] = [];
  for (const [i, step] of input.steps.entries()) {
    const field = `dunning.steps[${i}].offsetDays`;
    if (!Number.isInteger(step.offsetDays) || step.offsetDays < MIN_OFFSET_DAYS || step.offsetDays > MAX_OFFSET_DAYS) {
      return { field, problem: `must be a whole number of days from ${MIN_OFFSET_DAYS} to ${MAX_OFFSET_DAYS}` };
    }
    const previous = steps.at(-1);
    if (previous && step.offsetDays <= previous.offsetDays) return { field, problem: "must be later than the step before it (steps sorted, each offset once)" };
    steps.push({ offsetDays: step.offsetDays });
  }
  const last = steps.at(-1);
  if (last && last.offsetDays < 0) {
    return { field: `dunning.steps[${steps.length - 1}].offsetDays`, problem: "must be 0 or more: the last step, which the final action follows, is never before the due date" };
  }
  return { steps, finalAction };
}

export const isScheduleProblem = (checked: DunningSchedule | ScheduleProblem): checked is ScheduleProblem => "problem" in checked;

/** When the step `offsetDays` off an invoice due at `dueAt` is due. */
export function dunningStepAt(dueAt: Date, offsetDays: number): Date {
  return new Date(dueAt.getTime() + offsetDays * DAY_MS);
}

/** What an invoice's dunning does at a time. */
export type DunningDecision =
  /** Nothing due yet: its next step is due at `nextDunningAt` (none: past its last step). */
  | { kind: "wait"; nextDunningAt: Date | undefined }
  /**
   * Take step `index` (the latest due: missed earlier steps are passed over, never sent late),
   * counting the invoice's steps up to `index + 1`; the next is due at `nextDunningAt`, and after
   * the last (`final`) the final action is taken.
   */
  | { kind: "step"; index: number; offsetDays: number; dunningStep: number; nextDunningAt: Date | undefined; final: boolean };

/**
 * The dunning of an invoice due at `dueAt` that has been through `dunningStep` steps, at `now`:
 * of the steps not taken yet, the latest due by `now` (so a clock that was down sends only the
 * step that is current, not every reminder it missed), or when the next is due.
 */
export function decideDunning(schedule: DunningSchedule, dueAt: Date, dunningStep: number, now: Date): DunningDecision {
  let latest = -1;
  for (let i = dunningStep; i < schedule.steps.length; i++) {
    if (dunningStepAt(dueAt, schedule.steps[i].offsetDays).getTime() <= now.getTime()) latest = i;
  }
  const nextAfter = (i: number) => (i < schedule.steps.length ? dunningStepAt(dueAt, schedule.steps[i].offsetDays) : undefined);
  if (latest < 0) return { kind: "wait", nextDunningAt: nextAfter(dunningStep) };
  return {
    kind: "step",
    index: latest,
    offsetDays: schedule.steps[latest].offsetDays,
    dunningStep: latest + 1,
    nextDunningAt: nextAfter(latest + 1),
    final: latest === schedule.steps.length - 1,
  };
}

/** When an invoice due at `dueAt` that opens now has its first dunning step (none: an empty schedule). */
export function firstDunningAt(schedule: DunningSchedule, dueAt: Date): Date | undefined {
  const first = schedule.steps[0];
  return first ? dunningStepAt(dueAt, first.offsetDays) : undefined;
}

/**
 * Whole Manila calendar days from `at` to `dueAt`: positive before the due date's Manila day
 * ("due in 3 days"), 0 on it ("due today"), negative after it ("overdue by 3 days").
 */
export function manilaDaysUntil(dueAt: Date, at: Date): number {
  const manilaDay = (date: Date) => Math.floor((date.getTime() + MANILA_OFFSET_MS) / DAY_MS);
  return manilaDay(dueAt) - manilaDay(at);
}
