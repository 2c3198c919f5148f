/** The validated `amount` of a request body as the rpc's Money. */
export function moneyOf(body: Record<string, unknown>) {
  const amount = body.amount as { amountMinor: number; currency: string };
  return { amountMinor: BigInt(amount.amountMinor), currency: amount.currency };
}
