// POST /device/check: the device diagnostic (full, 1 unit) for the signals public/device.js collects.
import { router } from "../../trpc";
import { checkProcedure } from "./check";

export const deviceRouter = router({
  check: checkProcedure,
});
