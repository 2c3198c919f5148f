import { describe, expect, it } from "vitest";
import { recordFiltersOf, searchOf, viewFilterErrors, viewFiltersOf } from "./url-filters";

const url = (query: string) => new URLSearchParams(query);

describe("the payments list's filters in the URL", () => {
  it("reads every filter, and writes back only those set, so a link reproduces the view", () => {
    const query = "type=checkout&status=paid&customer=cus_1&metadata=orderId%3DA%3DB&amountMin=100&amountMax=2%2C500.50&method=gcash&account=pa_9&reference=order-1";
    const view = viewFiltersOf(url(query));
    expect(view).toEqual({
      type: "checkout",
      status: "paid",
      from: "",
      to: "",
      reference: "order-1",
      customer: "cus_1",
      metadata: "orderId=A=B",
      amountMin: "100",
      amountMax: "2,500.50",
      method: "gcash",
      account: "pa_9",
    });
    expect(viewFiltersOf(url(new URLSearchParams(searchOf(view)).toString()))).toEqual(view);
    expect(Object.keys(searchOf(viewFiltersOf(url("method=card"))))).toEqual(["method"]);
  });

  it("gives the feed its parameter names, amounts in centavos, metadata as typed (split at the first = by the gateway)", () => {
    const filters = recordFiltersOf(viewFiltersOf(url("customer=cus_1&metadata=orderId%3DA%3DB&amountMin=100&amountMax=2%2C500.50&method=gcash&account=pa_9&reference=order-1")));
    expect(filters).toEqual({
      type: undefined,
      status: undefined,
      createdAfter: undefined,
      createdBefore: undefined,
      referenceId: "order-1",
      customerId: "cus_1",
      metadata: "orderId=A=B",
      amountMin: "10000",
      amountMax: "250050",
      paymentMethod: "gcash",
      providerAccountId: "pa_9",
    });
  });

  it("turns local days into the local midnights around them", () => {
    const filters = recordFiltersOf(viewFiltersOf(url("from=2026-11-01&to=2026-11-30")));
    expect(filters.createdAfter).toBe(new Date(2026, 10, 1).toISOString());
    expect(filters.createdBefore).toBe(new Date(2026, 11, 1).toISOString());
  });

  it("names the filters that cannot apply, and leaves them out of the feed's query", () => {
    const view = viewFiltersOf(url("metadata=orderId&amountMin=1.234&amountMax=abc"));
    expect(Object.keys(viewFilterErrors(view)).sort()).toEqual(["amountMax", "amountMin", "metadata"]);
    expect(recordFiltersOf(view)).toMatchObject({ metadata: undefined, amountMin: undefined, amountMax: undefined });
    expect(viewFilterErrors(viewFiltersOf(url("metadata=%3Dx")))).toHaveProperty("metadata");
    expect(viewFilterErrors(viewFiltersOf(url("metadata=k%3D")))).toEqual({});
  });

  it("refuses a range whose largest amount is below its smallest", () => {
    expect(viewFilterErrors(viewFiltersOf(url("amountMin=10&amountMax=9.99")))).toEqual({ amountMax: "The largest amount is below the smallest." });
    expect(viewFilterErrors(viewFiltersOf(url("amountMin=-500&amountMax=-100")))).toEqual({});
  });
});
