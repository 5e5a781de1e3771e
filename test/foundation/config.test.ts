// Numeric settings are validated with zod: an invalid value fails loudly naming the variable (at start-up for all
// of them), where it used to fall back to the default in silence.
import { afterEach, describe, expect, it } from "vitest";
import { configurationProblems } from "../../server/startup/validate";
import { ConfigurationError, numberSetting } from "../../server/env";
import { requestTimeoutMs } from "../../server/net/config";
import { rdapTimeoutMs } from "../../server/providers/rdap/config";
import { ctTimeoutMs } from "../../server/providers/ct/config";
import { upstreamTimeoutMs as packageTimeoutMs } from "../../server/providers/packages/config";
import { onlineCheckTimeoutMs } from "../../server/online-check/config";
import { domainPartTimeoutMs } from "../../server/domain/config";

const touched = new Set<string>();
function setEnv(name: string, value: string) {
  touched.add(name);
  process.env[name] = value;
}
afterEach(() => {
  for (const name of touched) delete process.env[name];
  touched.clear();
});

describe("numeric settings", () => {
  it("use the default when unset or empty, and the value when valid", () => {
    expect(numberSetting("SERVICE_TEST_NUMBER", 42, { min: 1 })).toBe(42);
    setEnv("SERVICE_TEST_NUMBER", " ");
    expect(numberSetting("SERVICE_TEST_NUMBER", 42, { min: 1 })).toBe(42);
    setEnv("SERVICE_TARGET_TIMEOUT_MS", "2500");
    expect(requestTimeoutMs()).toBe(2500);
  });

  it.each([
    ["10s", "a whole number from 200 to 120000"],
    ["50", "a whole number from 200 to 120000"],
    ["1e9", "a whole number from 200 to 120000"],
    ["2500.5", "a whole number from 200 to 120000"],
  ])("refuse SERVICE_TARGET_TIMEOUT_MS=%s naming the variable", (value, accepted) => {
    setEnv("SERVICE_TARGET_TIMEOUT_MS", value);
    expect(() => requestTimeoutMs()).toThrow(ConfigurationError);
    expect(() => requestTimeoutMs()).toThrow(
      `SERVICE_TARGET_TIMEOUT_MS="${value}" is invalid: it must be ${accepted} (unset means 5000).`,
    );
  });

  it("are all checked at start-up, one line per invalid variable", () => {
    expect(configurationProblems()).toEqual([]);
    setEnv("SERVICE_WEBHOOK_TIMEOUT_MS", "fast");
    setEnv("SERVICE_CT_MAX_BYTES", "-1");
    const problems = configurationProblems();
    expect(problems).toHaveLength(2);
    expect(problems.join("\n")).toMatch(/SERVICE_WEBHOOK_TIMEOUT_MS="fast" is invalid/);
    expect(problems.join("\n")).toMatch(/SERVICE_CT_MAX_BYTES="-1" is invalid/);
  });

  it("every upstream waits at most SERVICE_UPSTREAM_TIMEOUT_MS (5 s) unless its own setting says otherwise", () => {
    const readers = [requestTimeoutMs, rdapTimeoutMs, ctTimeoutMs, packageTimeoutMs, onlineCheckTimeoutMs];
    readers.push(domainPartTimeoutMs);
    expect(readers.map((r) => r())).toEqual(readers.map(() => 5000));
    setEnv("SERVICE_UPSTREAM_TIMEOUT_MS", "3000");
    expect(readers.map((r) => r())).toEqual(readers.map(() => 3000));
    setEnv("SERVICE_RDAP_TIMEOUT_MS", "8000");
    expect(rdapTimeoutMs()).toBe(8000);
    setEnv("SERVICE_UPSTREAM_TIMEOUT_MS", "5s");
    expect(configurationProblems()).toEqual([expect.stringContaining(`SERVICE_UPSTREAM_TIMEOUT_MS="5s" is invalid`)]);
  });

  it.each([
    "SERVICE_DNS_TIMEOUT_MS",
    "SERVICE_DNSBL_TIMEOUT_MS",
    "SERVICE_DOMAIN_PART_TIMEOUT_MS",
    "SERVICE_RDAP_TIMEOUT_MS",
    "SERVICE_REPORTS_PURGE_AFTER_DAYS",
    "SERVICE_DB_POOL_SIZE",
    "SERVICE_CAPTCHA_TIMEOUT_MS",
    "SERVICE_RULES_MAX",
    "SERVICE_RULES_EVAL_BUDGET_MS",
  ])("%s=2s is refused at start-up instead of falling back to the default", (name) => {
    setEnv(name, "2s");
    expect(configurationProblems()).toEqual([expect.stringContaining(`${name}="2s" is invalid`)]);
  });
});
