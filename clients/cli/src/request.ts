// The one charged request of a run: the lockfile as the raw body of POST /v1/vulnerabilities/scan, asking for SARIF
// when SARIF is the output, else JSON. A scan is charged per package version, so the policy, the diff and the text
// summary are read from that same answer (the SARIF log carries the summary in its run's properties).
// Node's own fetch, so the command needs nothing beyond Node 20. Retries are the typed client's: a 429 (refused
// before admission) and a 503 (the service gave the units back) after Retry-After, never a request lost on the
// network, which may have been admitted, answered and charged.
import type { OutputFormat, ScanCommand } from "./args.js";
import type { ScanAnswer, ScanSource, ScanSummary } from "./answer.js";

export type ScanResult = { ok: true; body: string; answer: ScanAnswer } | { ok: false; problem: string };

const ACCEPT: Record<OutputFormat, string> = {
  text: "application/json",
  json: "application/json",
  sarif: "application/sarif+json",
};

const RETRIES = 2;
const MAX_RETRY_DELAY_MS = 30_000;
const BASE_DELAY_MS = 500;

type SarifLog = {
  runs?: Array<{ properties?: { format?: string; summary?: ScanSummary; sources?: ScanSource[] } }>;
};

function readAnswer(format: OutputFormat, body: string): ScanAnswer | null {
  try {
    if (format === "sarif") {
      const run = (JSON.parse(body) as SarifLog).runs?.[0]?.properties;
      return run?.summary ? { format: String(run.format), summary: run.summary, sources: run.sources } : null;
    }
    const answer = JSON.parse(body) as ScanAnswer;
    return answer.summary ? answer : null;
  } catch {
    return null;
  }
}

/**
 * After "the service answered <status>": the service's `{ error: { code, message } }`, a web page said in words (its
 * title; a 404 page is most often a SERVICE_API_URL without /v1, which reaches the dashboard), or the start of
 * whatever else answered (a proxy's plain text).
 */
function errorDetail(status: number, body: string): string {
  try {
    const known = (JSON.parse(body) as { error?: { code?: string; message?: string } }).error;
    if (known?.code) return `${known.code}: ${known.message}`;
  } catch {
    // not JSON: a proxy or a load balancer answered
  }
  // The API answers every error with its JSON object: a 404 or 405 without one came from another server (the
  // dashboard, the metrics listener, a proxy), most often through a SERVICE_API_URL that is not the API's /v1.
  const hint =
    status === 404 || status === 405
      ? ": check that SERVICE_API_URL is the API's base address ending in /v1, such as https://api.example.com/v1"
      : "";
  if (/^\s*</.test(body)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.replace(/\s+/g, " ").trim();
    return `with a web page${title ? ` ("${title.slice(0, 100)}")` : ""}, not the API's answer${hint}`;
  }
  if (!body.trim()) return hint ? `with no body, not the API's answer${hint}` : "with no body";
  return body.slice(0, 300);
}

function describeFailure(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}

/** Retry-After as seconds or an HTTP date, in milliseconds; null when absent or unreadable. */
function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** The scan's URL: the base with /v1, the path SARIF results point at, and the project's history parameters. */
export function scanUrl(a: Pick<ScanCommand, "baseUrl" | "repoPath" | "project" | "failOn">): string {
  const url = new URL(`${a.baseUrl.replace(/\/+$/, "")}/vulnerabilities/scan`);
  url.searchParams.set("path", a.repoPath);
  if (a.project) {
    url.searchParams.set("project", a.project.name);
    if (a.project.ref !== null) url.searchParams.set("ref", a.project.ref);
    if (a.project.baseRef !== null) url.searchParams.set("base_ref", a.project.baseRef);
    // The service judges what the scan adds by the same policy: a scan that fails it is never a later scan's base,
    // so re-running a failed job compares with the same base and fails again.
    if (a.project.failOnNew) url.searchParams.set("fail_on_new", a.failOn);
  }
  return url.toString();
}

type Sent = { ok: true; status: number; body: string } | { ok: false; problem: string; status?: number; body?: string };

/** One call with the typed client's retries; a non-2xx answer is a problem naming the service's error code. */
async function send(baseUrl: string, url: string, init: RequestInit): Promise<Sent> {
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch (err) {
      return { ok: false, problem: `cannot reach ${baseUrl}: ${describeFailure(err)}` };
    }
    const retryable = response.status === 429 || response.status === 503;
    const backoff = BASE_DELAY_MS * 2 ** attempt * (1 + Math.random() * 0.2);
    const wait = retryAfterMs(response.headers.get("retry-after")) ?? backoff;
    if (retryable && attempt < RETRIES && wait <= MAX_RETRY_DELAY_MS) {
      await response.body?.cancel();
      await new Promise((r) => setTimeout(r, wait));
      continue;
    }
    let body: string;
    try {
      body = await response.text();
    } catch (err) {
      return { ok: false, problem: `the answer from ${baseUrl} was cut off: ${describeFailure(err)}` };
    }
    if (!response.ok)
      return {
        ok: false,
        problem: `the service answered ${response.status} ${errorDetail(response.status, body)}`,
        status: response.status,
        body,
      };
    return { ok: true, status: response.status, body };
  }
}

/**
 * The scan, and its report in the format asked. A scan without a project asks for SARIF directly when SARIF is the
 * output. A project's SARIF answer is the scan's alone (the diff is in the JSON answer), so that scan is asked for
 * JSON and its SARIF read back from the project's history: GET /projects/{name}/scans/{id}, a read, never charged.
 */
export async function requestScan(a: ScanCommand & { lockfileText: string }): Promise<ScanResult> {
  const auth = { Authorization: `Bearer ${a.apiKey}` };
  const sarifLater = a.format === "sarif" && a.project !== null;
  const format: OutputFormat = sarifLater ? "json" : a.format;
  const post = (url: string) =>
    send(a.baseUrl, url, {
      method: "POST",
      // The route reads the file's own bytes, whatever its format.
      headers: { ...auth, "Content-Type": "text/plain; charset=utf-8", Accept: ACCEPT[format] },
      body: a.lockfileText,
    });
  let scanned = await post(scanUrl(a));
  // A service older than fail_on_new refuses it as an unknown parameter (400): ask once more without it. The policy
  // on what is new is judged here from the answer's diff as before (main.ts); only the service's rule that a failed
  // scan is never a later base is missing there.
  if (!scanned.ok && scanned.status === 400 && a.project?.failOnNew && scanned.body?.includes("fail_on_new"))
    scanned = await post(scanUrl({ ...a, project: { ...a.project, failOnNew: false } }));
  if (!scanned.ok) return scanned;
  const answer = readAnswer(format, scanned.body);
  if (!answer) return { ok: false, problem: `the service answered ${scanned.status} without a scan summary` };
  if (!sarifLater) return { ok: true, body: scanned.body, answer };
  const kept = answer.project;
  if (!kept?.scan_id) return { ok: false, problem: "the service's answer names no stored scan for --project" };
  const base = a.baseUrl.replace(/\/+$/, "");
  const storedUrl = `${base}/projects/${encodeURIComponent(kept.name)}/scans/${encodeURIComponent(kept.scan_id)}`;
  const stored = await send(a.baseUrl, storedUrl, { headers: { ...auth, Accept: ACCEPT.sarif } });
  if (!stored.ok)
    return {
      ok: false,
      problem: `the scan was kept as ${kept.scan_id}, but its SARIF log was not read: ${stored.problem}`,
    };
  return { ok: true, body: stored.body, answer };
}
