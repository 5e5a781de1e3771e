// The sign-in page's notices (server/auth/signin-notice.ts): plain words for a visitor, never a setting's name; the
// settings to change go to the operator's log, once per message.
import { describe, expect, it } from "vitest";
import { captureLogLines } from "../../test/log-lines";
import { DEV_SIGNIN_NOTICE, MISCONFIGURED_NOTICE, NOT_SET_UP_NOTICE, signInNotice } from "./signin-notice";

const lines = captureLogLines();
const SETTING = /SERVICE_|OIDC|NEXTAUTH/;

describe("the sign-in page's notice", () => {
  it("names no setting to the visitor and logs what to set, once", () => {
    const cases = [
      [{ kind: "dev", explicit: false }, null, DEV_SIGNIN_NOTICE, "set SERVICE_OIDC_ISSUER, SERVICE_OIDC_CLIENT_ID"],
      [{ kind: "dev", explicit: true }, null, DEV_SIGNIN_NOTICE, "because SERVICE_DEV_SIGNIN=1 is set"],
      [
        { kind: "unavailable", reason: "Sign-in is not configured. Set SERVICE_OIDC_ISSUER" },
        null,
        NOT_SET_UP_NOTICE,
        "cannot offer sign-in: Sign-in is not configured. Set SERVICE_OIDC_ISSUER",
      ],
      [null, "NEXTAUTH_SECRET is not set", MISCONFIGURED_NOTICE, "cannot offer sign-in: NEXTAUTH_SECRET is not set"],
    ] as const;
    for (const [mode, problem, notice, logged] of cases) {
      lines.length = 0;
      const shown = signInNotice(mode, problem);
      expect(shown).toBe(notice);
      expect(shown).not.toMatch(SETTING);
      expect(shown).toMatch(/ask the operator of this service/i);
      const records = lines.map((l) => JSON.parse(l) as { msg: string; component?: string });
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ component: "signin" });
      expect(records[0]!.msg).toContain(logged);
      // Opened again: the log says it once.
      lines.length = 0;
      signInNotice(mode, problem);
      expect(lines).toEqual([]);
    }
    expect(signInNotice({ kind: "oidc", oidc: { name: "Acme" } as never }, null)).toBeNull();
  });
});
