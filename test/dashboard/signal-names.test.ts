// Every signal the assessment, the /ip risk score and /device/check can raise is a row of the one table of weights
// (server/scoring/signal-weights.ts), and has a plain name on the dashboard (app/dashboard/_components/signal-names.ts).
// A new signal is noticed twice: a code written in an evidence module's source that the table lacks fails the
// first test, and a table row without a name the second.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { signalName } from "../../app/dashboard/_components/signal-names";
import { SIGNAL_CODES, SIGNALS } from "../../server/scoring/signal-weights";
import { DEVICE_WEIGHTS } from "../../server/device/weights";
import { SIGNAL_WEIGHTS } from "../../server/scoring/score";

/** The modules that raise the assessment's and the device check's signals. */
const EVIDENCE_DIRS = ["server/assessment", "server/device"];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith(".ts") ? [full] : [];
  });
}

/**
 * Signal codes written in a module's source: `code: "email_disposable"` (a zod issue's `code: "custom"` is not one),
 * a typed `add("user_new_country", ...)` or `signalWeight("ua_missing", ...)` call, and the velocity module's
 * `velocity_${kind}` over its tiers' kinds.
 */
export function signalCodesIn(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\bcode:\s*"([a-z][a-z0-9]*(?:_[a-z0-9]+)+)"/g)) found.add(m[1]!);
  for (const m of text.matchAll(/\b(?:add|signalWeight|from)\(\s*"([a-z][a-z0-9]*(?:_[a-z0-9]+)+)"/g)) found.add(m[1]!);
  if (/code:\s*`velocity_\$\{kind\}`/.test(text)) {
    const tiers = /const TIERS = \{([\s\S]*?)\} as const;/.exec(text)?.[1] ?? "";
    for (const m of tiers.matchAll(/^\s*([a-z]+):/gm)) found.add(`velocity_${m[1]}`);
  }
  return [...found];
}

describe("signal weights and names", () => {
  it("every signal code in the evidence modules' source is a row of the table", () => {
    const codes = EVIDENCE_DIRS.flatMap((d) => sources(path.join(process.cwd(), d))).flatMap((f) =>
      signalCodesIn(readFileSync(f, "utf8")),
    );
    // The scan finds the codes of every group (it would not notice a new signal if it found none).
    for (const code of ["email_disposable", "velocity_email", "amount_high", "ua_missing", "ip_not_public"])
      expect(codes).toContain(code);
    const missing = [...new Set(codes.filter((c) => !Object.hasOwn(SIGNALS, c)))];
    expect(
      missing,
      `Signal codes without a row in the one table of weights. For each, add \`<code>: { group: "<privacy | network | user_agent | account | email | velocity | device | amount>", weight: <points> },\` to SIGNALS in server/scoring/signal-weights.ts, raise it with \`weight: SIGNALS.<code>.weight\` instead of a number, and give it a plain name in app/dashboard/_components/signal-names.ts`,
    ).toEqual([]);
  });

  it("the scan notices a code outside the table (the check can fail)", () => {
    const text =
      'signals.push({ code: "email_brand_new", weight: 12, reason: "" });\nctx.addIssue({ code: "custom" });';
    expect(signalCodesIn(text)).toEqual(["email_brand_new"]);
    expect(Object.hasOwn(SIGNALS, "email_brand_new")).toBe(false);
  });

  it("names every code of the table", () => {
    expect(SIGNAL_CODES.filter((c) => !signalName(c))).toEqual([]);
  });

  it("covers every group, and the weight views read the table", () => {
    const groups = new Set(Object.values(SIGNALS).map((e) => e.group));
    expect([...groups]).toEqual(
      expect.arrayContaining(["account", "amount", "device", "email", "network", "privacy", "user_agent", "velocity"]),
    );
    for (const [code, weight] of Object.entries(DEVICE_WEIGHTS))
      expect(weight).toBe(SIGNALS[code as keyof typeof SIGNALS].weight);
    for (const [code, entry] of Object.entries(SIGNAL_WEIGHTS))
      expect(entry).toBe(SIGNALS[code as keyof typeof SIGNALS]);
    expect(Object.keys(DEVICE_WEIGHTS)).toContain("device_many_ips");
    expect(Object.keys(SIGNAL_WEIGHTS)).not.toContain("email_disposable");
  });

  it("answers null for a code it does not know, and nothing from the object's prototype", () => {
    expect(signalName("some_future_signal")).toBeNull();
    expect(signalName("constructor")).toBeNull();
    expect(signalName("ua_automation")).toBe("Automation tool user agent");
  });
});
