// zod schemas shared by several routers.
import { z } from "zod";

export { ipAddress } from "../net/schemas";

export const errorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
