import { formatPesos } from "../../format";
import type { Plan } from "./types";

const unit: Record<Plan["interval"], string> = { weekly: "week", monthly: "month", yearly: "year" };

/** "every month", "every 3 weeks". */
export function planPeriod(plan: Pick<Plan, "interval" | "intervalCount">): string {
  const name = unit[plan.interval] ?? plan.interval;
  return plan.intervalCount > 1 ? `every ${plan.intervalCount} ${name}s` : `every ${name}`;
}

/** "₱499.00 every month, 12 periods" or "…, until cancelled". */
export function planPrice(plan: Plan): string {
  const cycles = plan.cycleCount ? `${plan.cycleCount} periods` : "until cancelled";
  return `${formatPesos(plan.amount)} ${planPeriod(plan)}, ${cycles}`;
}
