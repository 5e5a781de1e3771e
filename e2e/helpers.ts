// Shared steps for the dashboard tests: sign in through the development sign-in (its form, or, for the journeys
// about something else, the same next-auth endpoints the form posts to), create a workspace, read a shown-once key,
// run the operator's commands, and keep a full-page screenshot of each page visited as a test artifact.
import { expect, test, type APIRequestContext, type Page, type TestInfo } from "@playwright/test";
import { sendAdminCommand } from "../server/admin/channel";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

export function uniqueEmail(label: string): string {
  return `${label}-${randomBytes(4).toString("hex")}@example.test`;
}

export async function snap(
  page: Page,
  testInfo: TestInfo,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  // The whole page by default; long pages (the API reference) take a minute to capture in full, so they pass
  // fullPage: false and keep what is in view.
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

/**
 * The development sign-in as a person uses it: the sign-in page's form, then the dashboard. The journeys about the
 * sign-in itself use this (workspaces.spec.ts; sources.spec.ts fills the same form from a deep link).
 */
export async function signInThroughForm(page: Page, email: string): Promise<void> {
  await page.goto("/signin?callbackUrl=%2Fdashboard");
  await expect(page.getByRole("heading", { name: "Development sign-in" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await page.waitForURL(/\/dashboard$/);
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
}

/**
 * Signs in through the development sign-in without its page: the two requests its form makes (next-auth's CSRF
 * token, then the credentials callback of the "dev" provider), in the page's own cookie jar, then opens the
 * dashboard, which must show the user signed in. About 2 s cheaper per journey than loading /signin and following
 * the form's redirect; what the form itself does is proven by signInThroughForm's journeys.
 */
export async function signIn(page: Page, email: string): Promise<void> {
  await signInByRequest(page, email);
  await page.goto("/dashboard");
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
}

/**
 * The development sign-in's two requests in the page's cookie jar, then next-auth's session endpoint, which must
 * name the user: the session the pages will use, without loading one (the journey's first page does).
 */
export async function signInByRequest(page: Page, email: string): Promise<void> {
  const csrf = await page.request.get("/api/auth/csrf");
  expect(csrf.status()).toBe(200);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await page.request.post("/api/auth/callback/dev", {
    form: { email, csrfToken, callbackUrl: "/dashboard", json: "true" },
  });
  expect(res.status(), "the development sign-in's credentials callback").toBe(200);
  const { url } = (await res.json()) as { url: string };
  expect(new URL(url, "http://x").searchParams.get("error"), `signing in as ${email}`).toBeNull();
  const session = await page.request.get("/api/auth/session");
  expect(((await session.json()) as { user?: { email?: string } }).user?.email, "the session's user").toBe(email);
}

/** Creates a workspace from the first-run screen; returns the first API key, shown once. */
export async function createFirstWorkspace(page: Page, name: string): Promise<string> {
  await expect(page.getByRole("heading", { name: "Create your first workspace" })).toBeVisible();
  await page.getByLabel("Workspace name").fill(name);
  await page.getByRole("button", { name: "Create workspace" }).click();
  const key = (await page.getByTestId("new-api-key").textContent())?.trim() ?? "";
  expect(key).toMatch(/^svc_live_/);
  await page.getByRole("button", { name: "Open the workspace" }).click();
  await expect(page.getByTestId("workspace-name")).toHaveText(name);
  return key;
}

/**
 * Creates a workspace with the mutation the first-run form sends (account.createWorkspace, from the dashboard's own
 * origin) and selects it as the form's "Open the workspace" does (the svc_workspace cookie), without loading a page;
 * the dashboard must then report it as the selected workspace. Returns the first API key. For journeys about
 * something else: the form itself is the subject of createFirstWorkspace's journeys.
 */
export async function createWorkspaceByRequest(page: Page, name: string): Promise<string> {
  const origin = new URL(test.info().project.use.baseURL ?? "").origin;
  const res = await page.request.post("/api/trpc/account.createWorkspace", {
    headers: { Origin: origin, "Content-Type": "application/json" },
    data: { name },
  });
  expect(res.status(), "account.createWorkspace").toBe(200);
  const { workspaceId, apiKey } = ((await res.json()) as { result: { data: { workspaceId: string; apiKey: string } } })
    .result.data;
  expect(apiKey).toMatch(/^svc_live_/);
  await page.context().addCookies([{ name: "svc_workspace", value: workspaceId, url: origin }]);
  expect(await currentWorkspaceId(page), "the workspace the dashboard selects").toBe(workspaceId);
  return apiKey;
}

/** The workspace the dashboard has selected for the signed-in user (the same selection the pages use). */
export async function currentWorkspaceId(page: Page): Promise<string> {
  const res = await page.request.get("/api/trpc/account.overview");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { result: { data: { workspace: { id: string } } } }).result.data.workspace.id;
}

/**
 * Runs an operator command (`npm run admin -- <argv>`) against the e2e server's database and returns its JSON
 * result. On the embedded database the CLI itself only hands the command to the running server over its admin
 * channel (server/admin/channel.ts); this does the same from the test's process, without starting the CLI's node
 * and tsx for each grant. On PostgreSQL, where the CLI opens the server's schema itself, it runs the CLI.
 * runAdminCli always runs the CLI, for the journey that shows an operator's command line at work.
 */
export async function runAdmin<T = unknown>(argv: string[]): Promise<T> {
  const socket = e2eServer().adminSocket;
  if (!socket) return runAdminCli<T>(argv);
  const { status, body } = await sendAdminCommand(argv, socket);
  if (status !== 200) throw new Error(`admin ${argv.join(" ")}: ${status} ${JSON.stringify(body)}`);
  return body.result as T;
}

/**
 * Runs `npm run admin -- <argv> --json` as the operator would, against the e2e server's database (e2e/serve.mjs
 * records its settings; with the embedded database the CLI hands the command to the running server over its admin
 * channel, with PostgreSQL it opens the server's schema). Returns the command's JSON result. The CLI runs in one
 * node process with tsx's loader (`node --import tsx`), as `npm run admin` runs it but without the second process
 * that tsx's own launcher starts.
 */
export async function runAdminCli<T = unknown>(argv: string[]): Promise<T> {
  const server = e2eServer();
  const env: NodeJS.ProcessEnv = { ...process.env, ...server.env };
  if (!server.env.DATABASE_URL) delete env.DATABASE_URL;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "server/admin/cli.ts", ...argv, "--json"],
    {
      env,
      cwd: process.cwd(),
      timeout: 60_000,
    },
  );
  return JSON.parse(stdout) as T;
}

/**
 * The e2e server's database settings and, on the embedded database, its admin channel's socket, written by
 * e2e/serve.mjs while it runs.
 */
export function e2eServer(): { env: Record<string, string>; adminSocket?: string } {
  const port = process.env.E2E_PORT ?? "3217";
  return JSON.parse(readFileSync(path.join(tmpdir(), `svc-e2e-server-${port}.json`), "utf8"));
}

/**
 * Grants plans to the selected workspace the only way an owner can get them in operator mode: the operator's
 * `npm run admin -- plan set` (through the admin channel, or `{ cli: true }`: the CLI itself). Then opens the plan
 * page. Returns the command's result (plans, effective plans, active and paused key ids).
 */
export async function grantPlans(
  page: Page,
  plans: string[],
  options: { cli?: boolean } = {},
): Promise<{ plans: string[]; effectivePlans: string[]; activeKeys: string[]; pausedKeys: string[] }> {
  const result = await planSet(page, plans, options);
  await page.goto("/dashboard/plan");
  return result;
}

/** `npm run admin -- plan set` for the selected workspace, without opening a page. */
export async function planSet(
  page: Page,
  plans: string[],
  options: { cli?: boolean } = {},
): Promise<{ plans: string[]; effectivePlans: string[]; activeKeys: string[]; pausedKeys: string[] }> {
  const workspaceId = await currentWorkspaceId(page);
  const argv = ["plan", "set", "--workspace", workspaceId, ...plans.flatMap((p) => ["--plan", p])];
  const result = await (options.cli ? runAdminCli : runAdmin)<{
    plans: string[];
    effectivePlans: string[];
    activeKeys: string[];
    pausedKeys: string[];
  }>(argv);
  expect(result.plans, `the operator's grant of ${plans.join(", ")}`).toEqual(expect.arrayContaining(plans));
  return result;
}

export async function createKey(page: Page, name: string): Promise<string> {
  await page.goto("/dashboard/keys");
  await page.getByLabel("Key name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-api-key").textContent())?.trim() ?? "";
  expect(key).toMatch(/^svc_live_/);
  return key;
}

export async function geoLookup(request: APIRequestContext, key: string, ip = "8.8.8.8") {
  return request.get(`/v1/ip/${ip}/geo`, { headers: { Authorization: `Bearer ${key}` } });
}

export function keyRow(page: Page, key: string) {
  return page.locator(`[data-testid=key-row][data-key-prefix="${key.slice(0, 13)}"]`);
}

/** RFC 4180 rows (quoted cells may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') ((cell += '"'), i++);
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") (row.push(cell), (cell = ""));
    else if (c === "\n" || (c === "\r" && text[i + 1] === "\n")) {
      if (c === "\r") i++;
      (row.push(cell), rows.push(row), (row = []), (cell = ""));
    } else cell += c;
  }
  if (cell || row.length) (row.push(cell), rows.push(row));
  return rows;
}

/** A call that failed as the service fails when it is busy or a source is down: 503 UPSTREAM_UNAVAILABLE. */
export function unavailable(message: string) {
  return {
    message,
    code: -32603,
    data: { code: "SERVICE_UNAVAILABLE", httpStatus: 503, appCode: "UPSTREAM_UNAVAILABLE" },
  };
}

/**
 * A handler for page.route("**\/api/trpc/**", ...) that answers every call of `procedures` in the dashboard's tRPC
 * batches with `error` (tRPC's JSON-RPC error: message, code, data), and the batch's other calls as the server
 * answered them (status 207, as tRPC answers a mixed batch). `before` is awaited before the batch goes on to the
 * server (to hold it while a loading state is looked at). page.unroute with the same handler takes it off.
 */
export function failInBatch(procedures: string[], error: object, before?: () => Promise<void>) {
  return async (route: Parameters<Parameters<Page["route"]>[1]>[0]) => {
    const paths = new URL(route.request().url()).pathname.replace(/^\/api\/trpc\//, "").split(",");
    if (!paths.some((p) => procedures.includes(p))) return route.continue();
    await before?.();
    const res = await route.fetch();
    const body = (await res.json()) as unknown[];
    paths.forEach((p, i) => {
      if (procedures.includes(p)) body[i] = { error };
    });
    await route.fulfill({ response: res, status: 207, json: body });
  };
}
