// POST /captcha/test: the device/CAPTCHA diagnostic (capability full; metered). The spec writes its path
// as /v1/captcha/test next to routes that are relative to the /v1 base, so both spellings are served.
import { router } from "../../trpc";
import { testProcedure } from "./test";
import { testLegacyPathProcedure } from "./test-legacy-path";

export const captchaRouter = router({
  test: testProcedure,
  testLegacyPath: testLegacyPathProcedure,
});
