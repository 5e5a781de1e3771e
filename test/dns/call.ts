// Calls this area's procedures through the real metered pipeline (API-key authentication, capability, bulk,
// validation, atomic unit reservation) with the same context the REST door builds, and shapes the outcome like a
// response. Used until the routers are registered in server/api/root.ts; the REST door then serves the same code.
import { newId } from "../../server/ids";
import { authenticateApiKeyOrThrow } from "../../server/keys/authenticate";
import type { Context, Principal } from "../../server/api/context";
import { createCallerFactory, router } from "../../server/api/trpc";
import { blocklistsRouter } from "../../server/api/routers/blocklists";
import { cidrRouter } from "../../server/api/routers/cidr";
import { dnsRouter } from "../../server/api/routers/dns";
import { emailRouter } from "../../server/api/routers/email";
import { toErrorBody } from "../../server/errors";
import type { TestApp } from "../harness";

const areaRouter = router({ dns: dnsRouter, email: emailRouter, blocklists: blocklistsRouter, cidr: cidrRouter });
const createCaller = createCallerFactory(areaRouter);

export type Procedure = "dns.dnsLookup" | "email.emailCheck" | "email.emailSecurity" | "blocklists.blocklistsCheck" | "cidr.cidrCheck";

export async function callProcedure(app: TestApp, key: string, procedure: Procedure, input: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const resHeaders = new Headers();
  let principal: Promise<Principal> | null = null;
  const ctx: Context = {
    db: app.db,
    door: "rest",
    requestId: newId("req"),
    resHeaders,
    sessionUser: null,
    authenticate: () => (principal ??= authenticateApiKeyOrThrow(app.db, key)),
  };
  const caller = createCaller(ctx) as unknown as Record<string, Record<string, (i: unknown) => Promise<unknown>>>;
  const [area, name] = procedure.split(".");
  try {
    const body = await caller[area][name](input);
    return { status: 200, body: JSON.parse(JSON.stringify(body)), headers: resHeaders };
  } catch (err) {
    const { status, body } = toErrorBody(err);
    return { status, body, headers: resHeaders };
  }
}
