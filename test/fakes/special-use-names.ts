// The special-use names (RFC 6761) decided from the request alone while testing (server/net/special-use.ts). The
// fake DNS servers serve `.test` and `.example` zones, so those two are left out: lookups of them reach the fake
// DNS as any other name. Used by the unit tests (test/setup-env.ts) and the end-to-end server (e2e/serve.mjs);
// test/metering sets the default list where it tests it.
export const TEST_SPECIAL_USE_NAMES = "invalid,localhost,onion,alt";
