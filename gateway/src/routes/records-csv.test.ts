import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { PaymentRecordSchema } from "@bayad/proto";
import { csvField, csvLine, recordCsvColumns, recordCsvHeader, recordCsvLine } from "./records-csv.js";

/**
 * A small RFC 4180 reader, written for this test from the RFC's grammar: it reads what the
 * encoder wrote back into fields, so a round trip shows the quoting is right for any text.
 */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quoted field");
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== "," && text[i] !== "\r") {
        if (text[i] === '"' || text[i] === "\n") throw new Error(`bare ${JSON.stringify(text[i])} in an unquoted field at ${i}`);
        field += text[i++];
      }
    }
    row.push(field);
    if (text[i] === ",") {
      i++;
    } else if (text.startsWith("\r\n", i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else {
      throw new Error(`expected a comma or CRLF at ${i}`);
    }
  }
  if (row.length > 0) throw new Error("the last line has no CRLF");
  return rows;
}

/** What a field reads back as: the value, with the apostrophe of a neutralised formula. */
function expectedCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) && !/^-?[0-9]+$/.test(value) ? `'${value}` : value;
}

describe("CSV encoding (RFC 4180)", () => {
  it("quotes fields with a comma, a quote, CR or LF, doubling quotes; leaves others bare", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
    expect(csvLine(["a", null, "b,c"])).toBe('a,,"b,c"\r\n');
  });

  it("neutralises formula-like text, but not integers", () => {
    expect(csvField("=HYPERLINK(\"http://x\")")).toBe("\"'=HYPERLINK(\"\"http://x\"\")\"");
    expect(csvField("+63 917")).toBe("'+63 917");
    expect(csvField("-x")).toBe("'-x");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\tcmd")).toBe("'\tcmd");
    expect(csvField("\rcmd")).toBe("\"'\rcmd\"");
    expect(csvField("-1500")).toBe("-1500");
    expect(csvField("150000")).toBe("150000");
    // Not an integer: a decimal or a sum is text a spreadsheet could evaluate.
    expect(csvField("-1.5")).toBe("'-1.5");
    expect(csvField("-1+2")).toBe("'-1+2");
  });

  it("reads back, for any text, as the text (plus a neutralising apostrophe)", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ unit: "binary" }), { minLength: 1, maxLength: 6 }), { maxLength: 6 }), (rows) => {
        const text = rows.map((row) => csvLine(row)).join("");
        // A row of one empty field is an empty line; the reader sees it as one empty field too.
        expect(parseCsv(text)).toEqual(rows.map((row) => row.map(expectedCell)));
      }),
    );
  });

  it("writes the documented header, and a record in its columns' order", () => {
    expect(recordCsvHeader).toBe(
      "id,type,status,createdAt,amountMinor,feeMinor,netMinor,currency,paymentMethod,provider,providerAccountId,referenceId,relatedResourceId,customerId,environment,metadata\r\n",
    );
    const record = create(PaymentRecordSchema, {
      type: "refund",
      id: "ref_1",
      projectId: "prj_1",
      environment: "live",
      referenceId: "=cmd|'/c calc'!A1",
      relatedResourceId: "chk_1",
      amountMinor: "-1500",
      currency: "PHP",
      status: "succeeded",
      createdAt: timestampFromMs(Date.UTC(2025, 0, 31, 2, 15)),
      provider: "paymongo",
      providerAccountId: "pa_1",
      paymentMethod: "gcash",
      feeMinor: "0",
      netMinor: "-1500",
      metadata: { z: "last", orderId: 'ORD-1,"x"' },
    });
    const [header, line] = parseCsv(recordCsvHeader + recordCsvLine(record));
    expect(header).toEqual([...recordCsvColumns]);
    expect(Object.fromEntries(header.map((name, i) => [name, line[i]]))).toEqual({
      id: "ref_1",
      type: "refund",
      status: "succeeded",
      createdAt: "2025-01-31T02:15:00.000Z",
      amountMinor: "-1500",
      feeMinor: "0",
      netMinor: "-1500",
      currency: "PHP",
      paymentMethod: "gcash",
      provider: "paymongo",
      providerAccountId: "pa_1",
      referenceId: "'=cmd|'/c calc'!A1",
      relatedResourceId: "chk_1",
      customerId: "",
      environment: "live",
      metadata: '{"orderId":"ORD-1,\\"x\\"","z":"last"}',
    });
  });
});
