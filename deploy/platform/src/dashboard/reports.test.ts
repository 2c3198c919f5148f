import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { browserSuite, chromiumReady, skipReason } from "../test-support/browser.js";
import { chooseEnvironment, chooseProject, openDashboardPath, signIn } from "../test-support/dashboard.js";
import { eventually, unique } from "../test-support/harness.js";

/**
 * The dashboard's reports in Chromium (issue 45): the overview's totals from the payments summary,
 * the records search by metadata and amount, and the CSV download of the gateway's export, after
 * a few test-mode checkouts were paid.
 */

/** RFC 4180 rows: quoted fields with doubled quotes, CRLF (or LF) between records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\n" || (char === "\r" && text[index + 1] === "\n")) {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      if (char === "\r") index++;
    } else field += char;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** "₱1,350.50" for 135050 centavos, as the dashboard writes pesos. */
const pesos = (minor: number) => `₱${(minor / 100).toLocaleString("en-PH", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Today in the Philippines (UTC+8), the day the summary counts a record created now on. */
const philippineToday = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);

describe.skipIf(!chromiumReady("the dashboard reports tests"))(`dashboard: overview, search and export in Chromium (${skipReason})`, () => {
  const suite = browserSuite();
  let project: { projectId: string; testKey: string };
  const batch = unique("batch");
  /** Paid checkouts of `batch` (the search finds these), and one of another batch (it must not). */
  const amounts = [100_00, 250_50, 1_000_00];
  const otherAmount = 42_00;
  const batchIds: string[] = [];
  let otherId = "";

  async function paidCheckoutWith(amountMinor: number, metadata: Record<string, string>) {
    const created = await suite.api.request("POST", "/api/v1/payments/checkouts", {
      credential: project.testKey,
      body: {
        referenceId: unique("order"),
        amount: { amountMinor, currency: "PHP" },
        successUrl: "https://shop.example.ph/ok",
        cancelUrl: "https://shop.example.ph/no",
        metadata,
      },
    });
    expect(created.status).toBe(201);
    const checkoutId = created.body.data.checkoutId as string;
    const paid = await suite.api.request("POST", `/api/v1/payments/test-helpers/checkouts/${checkoutId}/pay`, { credential: project.testKey });
    expect(paid.status).toBe(200);
    return checkoutId;
  }

  /** The summary of today, as the API answers it. */
  async function todaysTotals() {
    const day = philippineToday();
    const answer = await suite.api.request("GET", `/api/v1/payments/reports/summary?from=${day}&to=${day}&granularity=day`, { credential: project.testKey });
    expect(answer.status).toBe(200);
    return answer.body.data.total as { paidCount: number; paidMinor: string };
  }

  beforeAll(async () => {
    project = await suite.api.newProject(unique("Dashboard reports"));
    for (const amount of amounts) batchIds.push(await paidCheckoutWith(amount, { batch, kind: "report-test" }));
    otherId = await paidCheckoutWith(otherAmount, { batch: "other", kind: "report-test" });
    // The totals move with the records, which are projected a moment after the payments.
    await eventually(async () => ((await todaysTotals()).paidCount === amounts.length + 1 ? true : undefined));
  }, 60_000);

  it("shows the paid total and count on the overview (the summary), test and live side by side, and per day", async () => {
    const paidMinor = [...amounts, otherAmount].reduce((sum, amount) => sum + amount, 0);
    expect((await todaysTotals()).paidMinor).toBe(String(paidMinor));

    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);
      await chooseEnvironment(page, "test");
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }).click();
      await page.getByRole("heading", { name: "Overview" }).waitFor();
      await page.getByRole("group", { name: "Paid volume" }).getByText(pesos(paidMinor), { exact: true }).waitFor();
      await page.getByRole("group", { name: "Paid payments" }).getByText(String(amounts.length + 1), { exact: true }).waitFor();
      // Paid ÷ (paid + failed): nothing failed.
      await page.getByRole("group", { name: "Success rate" }).getByText("100.0%", { exact: true }).waitFor();

      const byEnvironment = page.getByRole("table", { name: "Totals by environment" });
      await byEnvironment.getByRole("row", { name: /^Test/ }).filter({ hasText: pesos(paidMinor) }).waitFor();
      await byEnvironment.getByRole("row", { name: /^Live/ }).filter({ hasText: "₱0.00" }).waitFor();

      await page.getByText("The numbers per day as a table").click();
      await page.getByRole("table", { name: "Totals per period" }).getByRole("row", { name: new RegExp(`^${philippineToday()}`) }).filter({ hasText: pesos(paidMinor) }).waitFor();

      // A range that ends before today leaves these payments out; the range is kept in the address.
      await page.getByLabel("From (Philippine day)").fill("2020-01-01");
      await page.getByLabel("To (Philippine day)").fill("2020-12-31");
      await page.getByRole("group", { name: "Paid payments" }).getByText("0", { exact: true }).waitFor();
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ from: "2020-01-01", to: "2020-12-31" });
    });
  }, 60_000);

  it("searches the records by metadata and amount, keeps the search in the address, and downloads the export of the same filters", async () => {
    await suite.browser.withPage(async (page) => {
      await signIn(page, suite.base, suite.api.platform.adminApiKey);
      await chooseProject(page, project.projectId);
      await openDashboardPath(page, suite.base, "/payments");
      const table = page.getByRole("table", { name: "Payment records" });
      await table.getByRole("row").filter({ hasText: otherId }).waitFor();

      await page.getByLabel("Metadata (key=value)").fill(`batch=${batch}`);
      await page.getByRole("button", { name: "Search", exact: true }).click();
      for (const id of batchIds) await table.getByRole("row").filter({ hasText: id }).waitFor();
      expect(await table.getByRole("row").count()).toBe(amounts.length + 1); // the header and the batch
      expect(new URL(page.url()).searchParams.get("metadata")).toBe(`batch=${batch}`);

      // The export takes the page's filters: the batch's records, every one, and no other.
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
      const rows = parseCsv(fs.readFileSync(await download.path(), "utf8")).filter((row) => row.some((cell) => cell !== ""));
      expect(rows.length).toBe(amounts.length + 1); // the header and one row per record
      const exported = rows.slice(1).map((row) => row.find((cell) => batchIds.includes(cell) || cell === otherId));
      expect(exported.sort()).toEqual([...batchIds].sort());

      // An amount the box cannot read is refused before anything is asked.
      await page.getByLabel("Amount from (₱)").fill("250.505");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.getByRole("alert").filter({ hasText: "at most two decimals" }).waitFor();
      expect(new URL(page.url()).searchParams.get("amountMin")).toBeNull();

      // ₱250.50 to ₱1,000.00, inclusive at both ends: two of the batch.
      await page.getByLabel("Amount from (₱)").fill("250.50");
      await page.getByLabel("Amount to (₱)").fill("1,000");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await table.getByRole("row").filter({ hasText: batchIds[0] }).waitFor({ state: "detached" });
      expect(await table.getByRole("row").count()).toBe(3);
      await table.getByRole("row").filter({ hasText: batchIds[1] }).waitFor();
      await table.getByRole("row").filter({ hasText: batchIds[2] }).waitFor();
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ metadata: `batch=${batch}`, amountMin: "250.50", amountMax: "1,000" });
    });
  }, 60_000);
});
