// Steps shared by the dashboard journeys of issue 8. givePlan is the one place that decides how a test
// workspace gets its plan: the operator's grant (plans never come from the owner's own request). Everything the
// operator does is an admin command (helpers.runAdmin: the server's admin channel, as the CLI uses it, on the
// embedded database; the CLI on PostgreSQL), so the journeys run the same on both.
import type { Page } from "@playwright/test";
import * as helpers from "./helpers";

/** Grants plans to the signed-in user's workspace with `npm run admin -- plan set`. */
export async function givePlan(page: Page, plans: string[]): Promise<void> {
  await helpers.grantPlans(page, plans);
}

/** What a journey needs of a database connection: one statement, $1.. bound to params, rows back. */
export interface OperatorSql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

/**
 * Runs `work` against the e2e server's database as an operator would (`npm run admin -- sql`, one statement per
 * query, through helpers.runAdmin), with the schema to qualify table names and the id of the workspace the signed-in
 * user has selected.
 */
export async function asOperator(
  page: Page,
  work: (client: OperatorSql, schema: string, workspaceId: string) => Promise<void>,
): Promise<void> {
  const workspaceId = await helpers.currentWorkspaceId(page);
  const schema = helpers.e2eServer().env.SERVICE_DB_SCHEMA ?? "public";
  const client: OperatorSql = {
    async query<T>(text: string, params: unknown[] = []) {
      const argv = ["sql", "--query", text, ...params.flatMap((p) => ["--param", String(p)])];
      return helpers.runAdmin<{ rows: T[] }>(argv);
    },
  };
  await work(client, schema, workspaceId);
}

/**
 * Signs in a new user with a new workspace on the given plans (none: Free); returns the first API key. Every journey
 * gets a user and a workspace of its own (usage, events and lists start empty), made with the requests the sign-in
 * and the first-run form send and the operator's grant, without loading a page: the journey's first page is the
 * first one it opens. The sign-in form and the first-run screen are journeys of their own (workspaces.spec.ts,
 * sources.spec.ts, helpers.signIn and helpers.createFirstWorkspace).
 */
export async function newWorkspace(page: Page, label: string, plans: string[]): Promise<string> {
  await helpers.signInByRequest(page, helpers.uniqueEmail(label.toLowerCase().replace(/[^a-z0-9]+/g, "-")));
  const key = await helpers.createWorkspaceByRequest(page, label);
  if (plans.length) await helpers.planSet(page, plans);
  return key;
}
