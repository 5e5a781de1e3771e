// What several procedures of the domain router share (schemas, helpers), or what other modules import from it.
import { z } from "zod";
import { registrableNameOf } from "../../../domain/registrable";

export const registrableDomain = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .superRefine((d, ctx) => {
    const r = registrableNameOf(d);
    if (!r.ok) ctx.addIssue({ code: "custom", message: r.reason });
  })
  .describe("Domain or host name (IDN allowed); its registrable domain is derived with the Public Suffix List");
