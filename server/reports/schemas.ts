// The contract of saved fraud reports: what a caller sends and what a saved report looks like.
import { z } from "zod";
import { pageCursor } from "../pages";
import { REPORT_MAX_BYTES } from "./config";

export const saveReportInput = z.object({
  title: z.string().trim().min(1, "title must not be empty").max(200),
  report: z
    .record(z.string(), z.unknown())
    .describe("The fraud report content, e.g. an assessment result")
    .superRefine((value, ctx) => {
      // Checked in validation so an oversized report is refused before a unit is reserved.
      if (Buffer.byteLength(JSON.stringify(value), "utf8") > REPORT_MAX_BYTES) {
        ctx.addIssue({ code: "custom", message: `report must be at most ${REPORT_MAX_BYTES} bytes of JSON` });
      }
    }),
  request_id: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe("Request id of the lookup or assessment the report is about"),
});
export type SaveReportInput = z.output<typeof saveReportInput>;

export const reportIdInput = z.object({ id: z.string().min(1).max(64) });
export const renameReportInput = reportIdInput.extend({
  title: z.string().trim().min(1, "title must not be empty").max(200),
});

export const listReportsInput = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: pageCursor(z.string().max(64)),
});

export const savedReportSchema = z.object({
  id: z.string(),
  title: z.string(),
  report: z.record(z.string(), z.unknown()),
  request_id: z.string().nullable(),
  created_at: z.string(),
  /** null for legacy reports saved before expiry was captured: they stay available. */
  expires_at: z.string().nullable(),
});
export type SavedReportView = z.output<typeof savedReportSchema>;

export const reportPageSchema = z.object({ items: z.array(savedReportSchema), nextCursor: z.string().nullable() });
