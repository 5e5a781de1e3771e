// The one request of a run: the lockfile as the raw body of POST /v1/vulnerabilities/scan through the typed client,
// asking for SARIF when SARIF is the output, else JSON. A scan is charged per package version, so the policy and the
// text summary are read from that same answer (the SARIF log carries the summary in its run's properties) and the
// client's retries stay as they are: a 429 and a 503 (neither is charged: a 503 gives its units back), never a
// request lost on the network, which may have been admitted and answered.
import { createServiceClient, type ServiceError } from "../../typescript/src/index";
import type { OutputFormat } from "./args";
import type { ScanSummary } from "./policy";

export type ScanResult =
  { ok: true; body: string; lockfileFormat: string; summary: ScanSummary } | { ok: false; problem: string };

const ACCEPT: Record<OutputFormat, string> = {
  text: "application/json",
  json: "application/json",
  sarif: "application/sarif+json",
};

type SarifLog = { runs?: Array<{ properties?: { format?: string; summary?: ScanSummary } }> };

function readAnswer(format: OutputFormat, body: string): { lockfileFormat: string; summary: ScanSummary } | null {
  try {
    if (format !== "sarif") {
      const answer = JSON.parse(body) as { format?: string; summary?: ScanSummary };
      return answer.summary ? { lockfileFormat: String(answer.format), summary: answer.summary } : null;
    }
    const run = (JSON.parse(body) as SarifLog).runs?.[0]?.properties;
    return run?.summary ? { lockfileFormat: String(run.format), summary: run.summary } : null;
  } catch {
    return null;
  }
}

/** The service's `{ error: { code, message } }`, or the start of whatever else answered (a proxy's page). */
function errorDetail(error: unknown): string {
  const known = (error as Partial<ServiceError> | undefined)?.error;
  if (known?.code) return `${known.code}: ${known.message}`;
  const raw = typeof error === "string" ? error : JSON.stringify(error ?? "");
  return raw.slice(0, 300) || "no body";
}

function describeFailure(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}

export async function requestScan(a: {
  baseUrl: string;
  apiKey: string;
  lockfile: string;
  repoPath: string;
  format: OutputFormat;
}): Promise<ScanResult> {
  const api = createServiceClient({ baseUrl: a.baseUrl, apiKey: a.apiKey });
  let answer;
  try {
    answer = await api.POST("/vulnerabilities/scan", {
      params: { query: { path: a.repoPath } },
      body: a.lockfile,
      // openapi-fetch JSON-encodes bodies by default; the route reads the file's own bytes.
      bodySerializer: (body: unknown) => String(body),
      headers: { "Content-Type": "text/plain; charset=utf-8", Accept: ACCEPT[a.format] },
      parseAs: "text",
    });
  } catch (err) {
    return { ok: false, problem: `cannot reach ${a.baseUrl}: ${describeFailure(err)}` };
  }
  const { data, error, response } = answer;
  if (data === undefined)
    return { ok: false, problem: `the service answered ${response.status} ${errorDetail(error)}` };
  const read = readAnswer(a.format, data);
  if (!read) return { ok: false, problem: `the service answered ${response.status} without a scan summary` };
  return { ok: true, body: data, ...read };
}
