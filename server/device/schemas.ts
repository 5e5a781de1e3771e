// The `device` object (what public/device.js collects) accepted by POST /device/check and POST /assess, and the
// diagnosis. Every field is optional and bounded: a page can send what its browser exposes, nothing more.
import { z } from "zod";

const short = (n: number) => z.string().max(n);

export const deviceSignalsSchema = z
  .object({
    visitor_id: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{8,128}$/, "visitor_id must be 8 to 128 letters, digits, _ or -")
      .describe("Stable visitor id built by the script (FingerprintJS)"),
    confidence: z.number().min(0).max(1).optional(),
    webdriver: z.boolean().nullable().optional().describe("navigator.webdriver: true in automated browsers"),
    bot: z
      .object({ detected: z.boolean(), kind: short(64).nullable().optional() })
      .optional()
      .describe("The browser-side bot detector's verdict (BotD)"),
    user_agent: short(1024).optional(),
    client_hints: z
      .object({
        brands: z
          .array(z.object({ brand: short(100), version: short(50) }))
          .max(20)
          .optional(),
        mobile: z.boolean().optional(),
        platform: short(64).optional(),
        platform_version: short(64).optional(),
      })
      .nullable()
      .optional()
      .describe("navigator.userAgentData (Chromium only); null elsewhere"),
    platform: short(64).optional().describe("navigator.platform"),
    languages: z.array(short(35)).max(30).optional(),
    timezone: short(64).optional().describe("IANA time zone, e.g. Europe/Berlin"),
    timezone_offset: z.number().int().min(-900).max(900).optional().describe("Date#getTimezoneOffset(), minutes"),
    screen: z
      .object({
        width: z.number().int().min(0).max(100000),
        height: z.number().int().min(0).max(100000),
        color_depth: z.number().int().min(0).max(64).optional(),
        pixel_ratio: z.number().min(0).max(20).optional(),
      })
      .optional(),
    touch: z
      .object({ max_touch_points: z.number().int().min(0).max(1000), touch_event: z.boolean().optional() })
      .optional(),
    hardware: z
      .object({
        concurrency: z.number().int().min(0).max(4096).nullable().optional(),
        memory: z.number().min(0).max(4096).nullable().optional(),
      })
      .optional(),
    canvas_hash: short(128).nullable().optional(),
    webgl: z
      .object({
        vendor: short(200).nullable().optional(),
        renderer: short(300).nullable().optional(),
        hash: short(128).nullable().optional(),
      })
      .nullable()
      .optional(),
    headless_hints: z
      .array(short(200))
      .max(20)
      .optional()
      .describe("Headless markers the script saw (HeadlessChrome, no plugins, zero outer size, ...)"),
  })
  .describe("Browser signals collected by /device.js");

export type DeviceSignals = z.infer<typeof deviceSignalsSchema>;

export const deviceSignalSchema = z.object({ code: z.string(), weight: z.number().int(), reason: z.string() });

export const deviceDiagnosisSchema = z.object({
  device_id: z.string().describe("dev_… derived from visitor_id: the same browser gets the same id"),
  automation: z.object({
    verdict: z.enum(["automated", "suspicious", "human"]),
    reasons: z.array(z.string()),
  }),
  consistency: z.array(
    z.object({
      check: z.enum([
        "timezone_vs_ip",
        "user_agent_vs_client_hints",
        "user_agent_vs_platform",
        "languages",
        "language_vs_ip",
      ]),
      result: z.enum(["consistent", "inconsistent", "not_checked"]),
      reason: z.string(),
    }),
  ),
  velocity: z
    .object({
      window_minutes: z.number().int(),
      accounts: z.number().int(),
      emails: z.number().int(),
      ips: z.number().int(),
    })
    .describe(
      "Distinct accounts, emails and IPs seen with this device in the workspace within the window (this request included)",
    ),
  risk: z.object({
    score: z
      .number()
      .int()
      .min(0)
      .max(100)
      .describe("The device's contribution: the sum of the signal weights, clamped to 0..100"),
    signals: z.array(deviceSignalSchema),
  }),
  checked_at: z.string(),
});

export type DeviceDiagnosis = z.infer<typeof deviceDiagnosisSchema>;
export type DeviceSignal = z.infer<typeof deviceSignalSchema>;
