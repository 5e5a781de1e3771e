// Every date field of the API reads one timestamp schema (server/timestamps.ts, issue 42, item 1): years outside
// 1970..9999 (PostgreSQL refused year 0 and five-digit or signed years with a 500), numbers and booleans (which
// JavaScript read as milliseconds: `true` was 1970, a CSV "1" was 2001), times without an offset and impossible days
// are 400 INVALID_REQUEST naming the field, and nothing is written; an expiry already past is refused plainly.
// Routes: list items (JSON items, the csv field, a text/csv body), a case's resolution adding to a list, the ranges
// of events, events.csv, lookup history, analytics and the backtest, and the scanned hosts' cursor. Both stores:
// DATABASE_URL selects PostgreSQL.
import { describe, expect, it } from "vitest";
import { parseTimestamp } from "../../server/timestamps";
import { CHROME_UA, keyedCalls, useAssessmentApp } from "../assessment/setup";

const { app } = useAssessmentApp();
const { req } = keyedCalls(app);

/** What the fuzzing sent, and the spellings JavaScript's Date would have read as something else. */
const BAD: unknown[] = [
  "0000-01-01T00:00:00Z",
  "+275760-09-13T00:00:00Z",
  "-000001-01-01T00:00:00Z",
  "+010000-01-01T00:00:00Z",
  "1969-12-31T23:59:59Z",
  "10000-01-01",
  8.64e15,
  -8.64e15,
  0,
  true,
  "1",
  "2027-01-31T10:00",
  "2027-02-30",
  "2027-01-31T24:00:00Z",
  "tomorrow",
  "",
];
const asQuery = (v: unknown) => encodeURIComponent(String(v));

describe("parseTimestamp", () => {
  it.each([
    ["2027-01-31", "2027-01-31T00:00:00.000Z"],
    ["2027-01-31T10:20:30Z", "2027-01-31T10:20:30.000Z"],
    ["2027-01-31t10:20:30.123456z", "2027-01-31T10:20:30.123Z"],
    ["2027-01-31 10:20Z", "2027-01-31T10:20:00.000Z"],
    ["2027-01-31T10:20:30+02:00", "2027-01-31T08:20:30.000Z"],
    ["2027-01-31T10:20:30-0530", "2027-01-31T15:50:30.000Z"],
    ["2024-02-29T00:00:00Z", "2024-02-29T00:00:00.000Z"],
    ["1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000Z"],
    ["9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"],
    ["1969-12-31T23:00:00-01:00", "1970-01-01T00:00:00.000Z"],
  ])("reads %s as %s", (text, iso) => {
    const at = parseTimestamp(text);
    expect(at instanceof Date ? at.toISOString() : at).toBe(iso);
  });

  it.each([
    ["0000-01-01T00:00:00Z", "1970-01-01 to 9999-12-31"],
    ["+275760-09-13T00:00:00Z", "four digits"],
    ["-000001-01-01T00:00:00Z", "four digits"],
    ["9999-12-31T23:00:00-05:00", "1970-01-01 to 9999-12-31"],
    ["2023-02-29", "no such day"],
    ["2027-01-31T10:00", "needs Z (UTC) or an offset"],
    ["2027-01-31T10:00:00 02:00", "%2B"],
    ["2027-01-31T10:00:00+24:00", "offset"],
    ["1", "not a date"],
  ])("refuses %s (%s)", (text, why) => {
    const at = parseTimestamp(text);
    expect(typeof at).toBe("string");
    expect(at).toContain(why);
  });
});

describe("date fields of the API", () => {
  it("list items: JSON, the csv field and a text/csv body refuse every bad expiry, name it, and write nothing", async () => {
    const ws = await app().seedWorkspace();
    const list = (await req(ws.apiKey, "POST", "/v1/lists", { name: "users", kind: "user" })).body;
    const path = `/v1/lists/${list.id}/items`;
    for (const bad of BAD) {
      const json = await req(ws.apiKey, "POST", path, {
        items: [{ value: "fine" }, { value: "u1", expires_at: bad }],
      });
      expect(json.status, `${JSON.stringify(bad)}: ${JSON.stringify(json.body)}`).toBe(400);
      expect(json.body.error.code).toBe("INVALID_REQUEST");
      expect(json.body.error.message).toMatch(/^items\.1\.expires_at: /);
      if (bad === "" || typeof bad !== "string") continue; // an empty CSV cell means "no expiry"
      const csv = await req(ws.apiKey, "POST", path, { csv: `fine\nu1,${bad},note` });
      expect(csv.status, `${bad}: ${JSON.stringify(csv.body)}`).toBe(400);
      expect(csv.body.error.message).toContain(`CSV line 2, expires_at "${bad}"`);
      const body = await app().request("POST", path, {
        key: ws.apiKey,
        headers: { "Content-Type": "text/csv" },
        body: `value,expires_at,note\nfine\nu1,${bad},note\n`,
      });
      expect(body.status).toBe(400);
      expect(body.body.error.message).toContain("CSV line 3, expires_at");
    }
    const past = await req(ws.apiKey, "POST", path, { items: [{ value: "u1", expires_at: "2020-01-01T00:00:00Z" }] });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toBe(
      "items.0.expires_at: 2020-01-01T00:00:00.000Z has already passed; send a time in the future, or none to keep it until it is removed",
    );
    const pastCsv = await req(ws.apiKey, "POST", path, { csv: "u1,2020-01-01,note" });
    expect(pastCsv.body.error.message).toContain("has already passed");
    expect((await req(ws.apiKey, "GET", `/v1/lists/${list.id}`)).body.item_count).toBe(0);

    const good = await req(ws.apiKey, "POST", path, {
      items: [
        { value: "u1", expires_at: "9999-12-31T23:59:59.999Z" },
        { value: "u2", expires_at: "2099-01-01T12:00:00+02:00" },
      ],
    });
    expect(good.status).toBe(200);
    const items = (await req(ws.apiKey, "GET", path)).body.items;
    expect(items.map((i: { expires_at: string }) => i.expires_at)).toEqual([
      "9999-12-31T23:59:59.999Z",
      "2099-01-01T10:00:00.000Z",
    ]);
  });

  it("a case's resolution with a bad expiry for add_to_list is 400 naming the field and resolves nothing", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_agency"] });
    const key = ws.apiKey;
    await req(key, "POST", "/v1/rules", {
      name: "Review mallory",
      action: "review",
      expression: 'user_id == "mallory"',
    });
    const list = (await req(key, "POST", "/v1/lists", { name: "bad_users", kind: "user" })).body;
    const login = await req(key, "POST", "/v1/assess", {
      event: "login",
      ip: "91.0.0.1",
      user_id: "mallory",
      user_agent: CHROME_UA,
    });
    expect(login.body.decision).toBe("review");
    const c = (await req(key, "GET", "/v1/cases")).body.items[0];
    for (const bad of [...BAD.filter((b) => b !== ""), "2020-01-01T00:00:00Z"]) {
      const res = await req(key, "POST", `/v1/cases/${c.id}/resolve`, {
        resolution: "fraud",
        add_to_list: { list_id: list.id, value: "user", expires_at: bad },
      });
      expect(res.status, `${JSON.stringify(bad)}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
      expect(res.body.error.message).toMatch(/^add_to_list\.expires_at: /);
    }
    expect((await req(key, "GET", `/v1/cases/${c.id}`)).body.status).toBe("open");
    expect((await req(key, "GET", `/v1/lists/${list.id}`)).body.item_count).toBe(0);
    const resolved = await req(key, "POST", `/v1/cases/${c.id}/resolve`, {
      resolution: "fraud",
      add_to_list: { list_id: list.id, value: "user", expires_at: "2099-01-01" },
    });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    const item = (await req(key, "GET", `/v1/lists/${list.id}/items`)).body.items[0];
    expect(item).toMatchObject({ value: "mallory", expires_at: "2099-01-01T00:00:00.000Z" });
  });

  it.each([
    ["GET", "/v1/events?since=", "since"],
    ["GET", "/v1/events?until=", "until"],
    ["GET", "/v1/events.csv?since=", "since"],
    ["GET", "/v1/lookups/history?since=", "since"],
    ["GET", "/v1/lookups/history?until=", "until"],
    ["GET", "/v1/analytics/timeseries?until=2026-01-01&since=", "since"],
    ["GET", "/v1/analytics/timeseries?since=2026-01-01&until=", "until"],
    ["GET", "/v1/scans/hosts?cursor=", "cursor"],
    ["POST", "/v1/rules/backtest", "since"],
    ["POST", "/v1/rules/backtest", "until"],
  ])("%s %s%s: every bad time is 400 naming the field", async (method, path, field) => {
    let ws = await app().seedWorkspace({ plans: ["suite_agency"] });
    // An empty cursor is no bad time but the first page, as on every list (empty-cursors.test.ts).
    for (const bad of field === "cursor" ? BAD.filter((b) => b !== "") : BAD) {
      // Backtests are rate limited per workspace, refused ones included: each gets its own.
      if (method === "POST") ws = await app().seedWorkspace({ plans: ["suite_agency"] });
      const res =
        method === "GET"
          ? await req(ws.apiKey, "GET", `${path}${asQuery(bad)}`)
          : await req(ws.apiKey, "POST", path, { action: "block", expression: "true", [field]: bad });
      expect(res.status, `${JSON.stringify(bad)}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
      expect(res.body.error.message).toContain(`${field}: `);
    }
  });
});
