import { doublingDelay, type Logger } from "@bayad/kit";
import type { Outbox } from "@bayad/events";
import type { Session, Store } from "@bayad/store";
import { providerAccountToProto, type ProviderAccountRecord } from "./provider-account.js";
import type { ProviderAccountsRepository } from "./provider-accounts-repository.js";

export interface AccountStatusDeps {
  store: Store;
  repository: ProviderAccountsRepository;
  outbox: Outbox;
  logger: Logger;
  now: () => Date;
}

/**
 * How long an account whose key PayMongo refused waits before its key is tried again: one minute,
 * doubling with each refusal in a row, at most six hours. PayMongo blocks a key for 30 days after
 * ten retried 401s within 60 s ([O], older rate-limit page), so a refused key is never retried
 * sooner than a minute, and only once per pause.
 */
export function keyRefusalBackoffMs(refusals: number): number {
  return doublingDelay({ initialDelayMs: 60_000, maxDelayMs: 6 * 3_600_000 }, refusals);
}

/** Whether the account may be asked of the provider now (active, and past any Retry-After). */
export function isUsable(account: ProviderAccountRecord, now: Date): boolean {
  return account.status !== "paused" && !(account.reconcileAfter !== undefined && account.reconcileAfter > now);
}

/** Whether the account is paused and its key due to be tried again. */
export function isDueForKeyCheck(account: ProviderAccountRecord, now: Date): boolean {
  return account.status === "paused" && (account.pausedUntil === undefined || account.pausedUntil <= now);
}

/**
 * Writes a change of the account with, when its status changed, the consumer event announcing it
 * (`provider_account.paused` / `provider_account.resumed`) in the same transaction. False when
 * another write came first (the caller reads the account again next time).
 */
export async function writeAccountStatus(
  deps: Pick<AccountStatusDeps, "store" | "repository" | "outbox">,
  account: ProviderAccountRecord,
  next: ProviderAccountRecord,
  session?: Session,
): Promise<boolean> {
  const announce = (account.status ?? "active") !== (next.status ?? "active") ? (next.status === "paused" ? "paused" : "resumed") : undefined;
  const write = async (s: Session) => {
    if (!(await deps.repository.replace(next, account.version, s))) return false;
    if (announce) {
      await deps.outbox.append(
        {
          name: `provider_account.${announce}`,
          caller: { projectId: next.projectId, environment: next.environment },
          resourceId: next._id,
          aggregateVersion: account.version + 1,
          snapshot: { case: "providerAccount", value: providerAccountToProto({ ...next, version: account.version + 1 }) },
        },
        s,
      );
    }
    return true;
  };
  return session ? write(session) : deps.store.transaction(write);
}

/** PayMongo refused the account's key: paused (or kept paused) until its next check, backing off. */
export async function pauseForRefusedKey(deps: AccountStatusDeps, account: ProviderAccountRecord): Promise<void> {
  const now = deps.now();
  const keyRefusals = (account.keyRefusals ?? 0) + 1;
  const pausedUntil = new Date(now.getTime() + keyRefusalBackoffMs(keyRefusals));
  const next: ProviderAccountRecord = { ...account, status: "paused", statusReason: "key_refused", pausedUntil, keyRefusals, updatedAt: now };
  if (await writeAccountStatus(deps, account, next)) {
    // The key's last four characters at most: never the key.
    deps.logger.warn(
      { providerAccountId: account._id, projectId: account.projectId, environment: account.environment, keyRefusals, pausedUntil },
      "provider refused the account's key: account paused",
    );
  }
}

/** The account's key works again (its check passed): active, announced. */
export async function resumeAccount(deps: AccountStatusDeps, account: ProviderAccountRecord): Promise<void> {
  if (account.status !== "paused") return;
  const { statusReason: _reason, pausedUntil: _until, keyRefusals: _refusals, ...rest } = account;
  const next: ProviderAccountRecord = { ...rest, status: "active", updatedAt: deps.now() };
  if (await writeAccountStatus(deps, account, next)) {
    deps.logger.info({ providerAccountId: account._id, projectId: account.projectId, environment: account.environment }, "provider account's key works again: account resumed");
  }
}

/** The provider asked for a pause (Retry-After): the reconciler leaves the account alone until then. */
export async function deferAccount(deps: AccountStatusDeps, account: ProviderAccountRecord, until: Date): Promise<void> {
  await deps.repository.deferReconciliation(account._id, until);
  deps.logger.warn({ providerAccountId: account._id, until }, "provider asked to wait: the account's reconciliation waits");
}
