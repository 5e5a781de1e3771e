// The one weight function with learned weights: a learned code replaces its default on every event, a stale list
// still counts three quarters, half or a quarter of whichever weight is in use, and codes without a learned weight keep theirs.
import { describe, expect, it } from "vitest";
import { signalWeight, weighSignals } from "../../server/scoring/score";

describe("weighSignals", () => {
  it.each([
    ["a fresh Tor list", "ip_tor_exit", 45, "signup", { ip_tor_exit: 80 }, 80],
    ["a Tor list past its window (half)", "ip_tor_exit", 23, "signup", { ip_tor_exit: 80 }, 40],
    ["a Tor list past twice its window (a quarter)", "ip_tor_exit", 11, "signup", { ip_tor_exit: 80 }, 20],
    ["a stale VPN list (half)", "ip_vpn", 15, "login", { ip_vpn: 31 }, 16],
    ["a VPN list past its window (three quarters)", "ip_vpn", 23, "login", { ip_vpn: 31 }, 23],
    ["hosting on an api event (learned applies to every event)", "ip_hosting", 5, "api", { ip_hosting: 12 }, 12],
    ["a code weighed outside the table", "email_disposable", 35, "signup", { email_disposable: 57 }, 57],
    ["a code without a learned weight", "ua_unusual", 10, "signup", { ip_tor_exit: 80 }, 10],
  ] as const)("%s", (_label, code, weight, event, learned, expected) => {
    expect(weighSignals([{ code, weight }], event, learned)).toEqual([{ code, weight: expected }]);
  });

  it("leaves every signal as it is with the default weights", () => {
    const signals = [
      { code: "ip_tor_exit", weight: 23 },
      { code: "velocity_ip", weight: 15 },
    ];
    expect(weighSignals(signals, "signup", null)).toEqual(signals);
    expect(signalWeight("ip_tor_exit", "signup", 0.5)).toBe(23);
  });

  it("a listed exit keeps its list's age beside the hosting signal of its network, with either weight set", () => {
    const signals = [
      { code: "ip_vpn", weight: 8, reason: "A VPN exit in the 2024-08-22 list, at a quarter." },
      { code: "ip_hosting", weight: 20, reason: "Hosting." },
    ];
    // The network is counted once, by its own signal: the exit is not raised to it (a second copy of its weight).
    expect(weighSignals(signals, "login", null)).toEqual(signals);
    const learned = weighSignals(signals, "login", { ip_vpn: 31, ip_hosting: 30 });
    expect(learned.map((s) => [s.code, s.weight])).toEqual([
      ["ip_vpn", 8],
      ["ip_hosting", 30],
    ]);
  });
});
