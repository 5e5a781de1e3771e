// The captcha router's test (dashboard only).
// The procedure, with its contract beside its work.
import { procedure } from "./shared";

export const testProcedure = procedure("/captcha/test");
