// Every signal the assessment can raise has a plain name on the dashboard (app/dashboard/_components/signal-names.ts):
// the weights table, the device's and the email's codes, and the velocity signals.
import { describe, expect, it } from "vitest";
import { signalName } from "../../app/dashboard/_components/signal-names";
import { SIGNAL_WEIGHTS } from "../../server/scoring/score";
import { DEVICE_WEIGHTS } from "../../server/device/weights";

const EMAIL_AND_VELOCITY = [
  "email_disposable",
  "email_undeliverable",
  "email_possible_typo",
  "email_role_account",
  "email_free_provider",
  "velocity_ip",
  "velocity_email",
  "velocity_device",
];

describe("signal names", () => {
  it("names every signal code", () => {
    const codes = [...Object.keys(SIGNAL_WEIGHTS), ...Object.keys(DEVICE_WEIGHTS), ...EMAIL_AND_VELOCITY];
    expect(codes.filter((c) => !signalName(c))).toEqual([]);
  });

  it("answers null for a code it does not know, and nothing from the object's prototype", () => {
    expect(signalName("some_future_signal")).toBeNull();
    expect(signalName("constructor")).toBeNull();
    expect(signalName("ua_automation")).toBe("Automation tool user agent");
  });
});
