// Calls the host, online-check and domain procedures through the real metered pipeline (API-key authentication,
// capability, validation, burst limit, preflight, atomic unit reservation) with the context the REST API builds,
// shaped like a response. Used until the routers are registered in server/api/root.ts; the REST API then serves
// the same procedures.
import { newId } from "../../server/ids";
import { authenticateApiKeyOrThrow } from "../../server/keys/authenticate";
import type { Context, Principal } from "../../server/api/context";
import { createCallerFactory, router } from "../../server/api/trpc";
import { domainRouter } from "../../server/api/routers/domain";
import { hostsRouter } from "../../server/api/routers/hosts";
import { toErrorBody } from "../../server/errors";
import type { TestApp } from "../harness";

const areaRouter = router({ hosts: hostsRouter, domain: domainRouter });
const createCaller = createCallerFactory(areaRouter);

export type Procedure =
  | "hosts.hostSsl"
  | "hosts.hostStatus"
  | "hosts.onlineCheck"
  | "domain.domainIntel"
  | "domain.domainSubdomains"
  | "domain.domainInfrastructure";

export type CallResult = { status: number; body: any; headers: Headers };

export async function callProcedure(
  app: TestApp,
  key: string,
  procedure: Procedure,
  input: unknown,
): Promise<CallResult> {
  const resHeaders = new Headers();
  let principal: Promise<Principal> | null = null;
  const ctx: Context = {
    db: app.db,
    via: "api",
    requestId: newId("req"),
    resHeaders,
    sessionUser: null,
    requestHeaders: new Headers({ authorization: `Bearer ${key}` }),
    authenticate: () => (principal ??= authenticateApiKeyOrThrow(app.db, key)),
  };
  const caller = createCaller(ctx) as unknown as Record<string, Record<string, (i: unknown) => Promise<unknown>>>;
  const [area, name] = procedure.split(".") as [string, string];
  try {
    const body = await caller[area]![name]!(input);
    return { status: 200, body: JSON.parse(JSON.stringify(body)), headers: resHeaders };
  } catch (err) {
    const { status, body, headers } = toErrorBody(err);
    for (const [k, v] of Object.entries(headers)) resHeaders.set(k, v);
    return { status, body, headers: resHeaders };
  }
}
