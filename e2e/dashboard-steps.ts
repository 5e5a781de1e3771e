// Steps shared by the dashboard journeys of issue 8. givePlan is the one place that decides how a test
// workspace gets its plan: the operator's grant (plans never come from the owner's own request).
import { expect, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import pg from "pg";
import * as helpers from "./helpers";

type Grant = (page: Page, plans: string[]) => Promise<void>;

/**
 * Grants plans to the signed-in user's workspace. Uses e2e/helpers.ts `grantPlans` when it exists; otherwise
 * does what `admin plan set` does, in the e2e server's PostgreSQL schema (these journeys run with DATABASE_URL):
 * the operator's earlier grants end and new active operator subscriptions start.
 */
export async function givePlan(page: Page, plans: string[]): Promise<void> {
  const grant = (helpers as Record<string, unknown>).grantPlans as Grant | undefined;
  if (grant) return grant(page, plans);
  await asOperator(page, async (client, s, ws) => {
    await client.query(
      `UPDATE "${s}"."Subscription" SET status = 'canceled', "canceledAt" = now() WHERE "workspaceId" = $1 AND source = 'operator' AND status <> 'canceled'`,
      [ws],
    );
    for (const plan of plans) {
      await client.query(
        `INSERT INTO "${s}"."Subscription" (id, "workspaceId", plan, status, source) VALUES ($1, $2, $3, 'active', 'operator')`,
        [`sub_${randomBytes(8).toString("hex")}`, ws, plan],
      );
    }
  });
}

/**
 * Runs `work` against the e2e server's database as an operator would, with the schema and the id of the workspace
 * owned by the signed-in user. The journeys run with DATABASE_URL (PostgreSQL) for this.
 */
export async function asOperator(
  page: Page,
  work: (client: pg.Client, schema: string, workspaceId: string) => Promise<void>,
): Promise<void> {
  const email = (await page.getByTestId("signed-in-as").textContent())?.trim() ?? "";
  const url = process.env.DATABASE_URL;
  if (!url)
    throw new Error("The dashboard journeys act as the operator in PostgreSQL: run them with DATABASE_URL set.");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const schemas = await client.query<{ s: string }>(
      `SELECT table_schema AS s FROM information_schema.tables WHERE table_name = 'Member' AND table_schema LIKE 'e2e\\_%'`,
    );
    for (const { s } of schemas.rows) {
      const m = await client.query<{ workspaceId: string }>(
        `SELECT "workspaceId" FROM "${s}"."Member" WHERE email = $1 AND role = 'owner'`,
        [email],
      );
      const ws = m.rows[0]?.workspaceId;
      if (ws) return await work(client, s, ws);
    }
    throw new Error(`No e2e workspace is owned by ${email}.`);
  } finally {
    await client.end();
  }
}

/** Signs in a new user with a new workspace on the given plans (none: Free); returns the first API key. */
export async function newWorkspace(page: Page, label: string, plans: string[]): Promise<string> {
  await helpers.signIn(page, helpers.uniqueEmail(label.toLowerCase()));
  const key = await helpers.createFirstWorkspace(page, label);
  if (plans.length) await givePlan(page, plans);
  await expect(page.getByTestId("signed-in-as")).toBeVisible();
  return key;
}
