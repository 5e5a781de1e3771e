// GET /v1/events finds an assessment by what identifies its user: its user_id, its device_id and its phone number
// (the accounts that gave the number), through the event's indexed columns and the accounts' links, never its JSON.
import { describe, expect, it } from "vitest";
import { CHROME_UA, CLEAN_IP, useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();

async function assess(key: string, body: Record<string, unknown>): Promise<string> {
  const res = await app().request("POST", "/v1/assess", {
    key,
    body: { event: "login", ip: CLEAN_IP, user_agent: CHROME_UA, ...body },
  });
  expect(res.status).toBe(200);
  return res.body.request_id as string;
}

async function found(key: string, query: string, path = "/v1/events"): Promise<string[]> {
  const res = await app().request("GET", `${path}?query=${encodeURIComponent(query)}`, { key });
  expect(res.status).toBe(200);
  return path === "/v1/events"
    ? res.body.items.map((e: { requestId: string }) => e.requestId)
    : String(res.text)
        .split("\n")
        .slice(1)
        .filter(Boolean)
        .map((line) => line.split(",")[2]!);
}

describe("GET /v1/events search by an assessment's identifiers", () => {
  it("finds an assessment by its user_id, device_id and phone number, and only its own", async () => {
    const ws = await app().seedWorkspace();
    const bob = await assess(ws.apiKey, { user_id: "bob-17", device_id: "dev-9f2c", phone: "+447400123456" });
    const carol = await assess(ws.apiKey, { user_id: "carol-3", device_id: "dev-0000", phone: "+447400999888" });

    expect(await found(ws.apiKey, "bob-17")).toEqual([bob]);
    expect(await found(ws.apiKey, "dev-9f2c")).toEqual([bob]);
    expect(await found(ws.apiKey, "+447400123456")).toEqual([bob]);
    // Another spelling of the number is the same number.
    expect(await found(ws.apiKey, "+44 7400 123456")).toEqual([bob]);
    expect(await found(ws.apiKey, "carol-3")).toEqual([carol]);
    expect(await found(ws.apiKey, "bob-17", "/v1/events.csv")).toEqual([bob]);
    expect(await found(ws.apiKey, "+447400123456", "/v1/events.csv")).toEqual([bob]);

    // Another workspace's search finds none of it.
    const other = await app().seedWorkspace();
    for (const q of ["bob-17", "dev-9f2c", "+447400123456"]) expect(await found(other.apiKey, q)).toEqual([]);
  });

  it("finds a phone number's assessments whichever account gave it (user_id, else email)", async () => {
    const ws = await app().seedWorkspace();
    const byUser = await assess(ws.apiKey, { user_id: "dan", phone: "+14155550123" });
    const byEmail = await assess(ws.apiKey, { email: "erin@example.com", phone: "+1 415 555 0123" });
    expect((await found(ws.apiKey, "+14155550123")).sort()).toEqual([byUser, byEmail].sort());
  });
});
