// The captcha router's testLegacyPath (dashboard only).
// The procedure, with its contract beside its work.
import { procedure } from "./shared";

export const testLegacyPathProcedure = procedure("/v1/captcha/test");
