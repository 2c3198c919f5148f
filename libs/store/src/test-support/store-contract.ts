import { describe } from "vitest";
import type { Store } from "../port.js";
import { describeConcurrencyContract } from "./concurrency-contract.js";
import { useContractFixture } from "./contract-fixture.js";
import { describeIndexContract } from "./index-contract.js";
import { describeIsolationContract } from "./isolation-contract.js";
import { describeQueryContract } from "./query-contract.js";
import { describeTransactionContract } from "./transaction-contract.js";
import { describeUpdateContract } from "./update-contract.js";

/**
 * The behaviour every Store adapter shares. Each adapter's test file runs it; `openFresh` opens
 * a store the test owns (the fixture closes it). Every test works in its own collections, so the
 * suite may also run against one shared MongoDB database.
 */
export function describeStoreContract(adapterName: string, openFresh: () => Promise<Store>): void {
  describe(`Store contract: ${adapterName}`, () => {
    const fixture = useContractFixture(openFresh);
    describeQueryContract(fixture);
    describeUpdateContract(fixture);
    describeIndexContract(fixture);
    describeConcurrencyContract(fixture);
    describeTransactionContract(fixture);
    describeIsolationContract(fixture);
  });
}
