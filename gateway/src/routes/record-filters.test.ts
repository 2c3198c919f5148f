import { describe, expect, it } from "vitest";
import { AppError } from "@bayad/kit";
import { metadataPair, recordFilters } from "./record-filters.js";
import { groupsOf } from "./reports.js";

describe("records filters from a validated query", () => {
  it("passes every filter to the rpc's fields; absent ones as empty", () => {
    expect(recordFilters({})).toMatchObject({
      type: "",
      customerId: "",
      metadataKey: "",
      metadataValue: "",
      amountMinMinor: undefined,
      amountMaxMinor: undefined,
      paymentMethod: "",
      providerAccountId: "",
    });
    const filters = recordFilters({
      type: "refund",
      customerId: "cus_1",
      metadata: "orderId=ORD-1",
      amountMin: -1500,
      amountMax: 9007199254740991,
      paymentMethod: "gcash",
      providerAccountId: "pa_1",
      createdAfter: "2025-01-01T00:00:00Z",
    });
    expect(filters).toMatchObject({
      type: "refund",
      customerId: "cus_1",
      metadataKey: "orderId",
      metadataValue: "ORD-1",
      amountMinMinor: -1500n,
      amountMaxMinor: 9007199254740991n,
      paymentMethod: "gcash",
      providerAccountId: "pa_1",
    });
    expect(filters.createdAfter?.seconds).toBe(BigInt(Date.UTC(2025, 0, 1) / 1000));
  });

  it("splits metadata at the first '='", () => {
    expect(metadataPair("note=a=b")).toEqual({ key: "note", value: "a=b" });
    expect(metadataPair("k==")).toEqual({ key: "k", value: "=" });
  });

  it("refuses amountMin above amountMax, naming amountMin; equal bounds are one amount", () => {
    const refusal = (() => {
      try {
        recordFilters({ amountMin: 2, amountMax: 1 });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).code).toBe("VALIDATION_FAILED");
    expect((refusal as AppError).details).toEqual(["amountMin: must not exceed amountMax"]);
    expect(recordFilters({ amountMin: 5, amountMax: 5 })).toMatchObject({ amountMinMinor: 5n, amountMaxMinor: 5n });
  });
});

describe("summary groupBy", () => {
  it("takes comma-separated, repeated, or both, each group once", () => {
    expect(groupsOf(undefined)).toEqual([]);
    expect(groupsOf("payment_method")).toEqual(["payment_method"]);
    expect(groupsOf("provider_account,payment_method")).toEqual(["provider_account", "payment_method"]);
    expect(groupsOf(["payment_method", "provider_account,payment_method"])).toEqual(["payment_method", "provider_account"]);
  });
});
