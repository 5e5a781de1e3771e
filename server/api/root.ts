// Every router of the service. Procedures with OpenAPI meta are also served under /v1 by the REST door.
import { accountRouter } from "./routers/account";
import { assessmentRouter } from "./routers/assessment";
import { asnRouter } from "./routers/asn";
import { blocklistsRouter } from "./routers/blocklists";
import { captchaRouter } from "./routers/captcha";
import { cidrRouter } from "./routers/cidr";
import { dnsRouter } from "./routers/dns";
import { domainRouter } from "./routers/domain";
import { emailRouter } from "./routers/email";
import { geoRouter } from "./routers/geo";
import { linksRouter } from "./routers/links";
import { hostsRouter } from "./routers/hosts";
import { ipRouter } from "./routers/ip";
import { rdapRouter } from "./routers/rdap";
import { reportsRouter } from "./routers/reports";
import { rulesRouter } from "./routers/rules";
import { vulnerabilitiesRouter } from "./routers/vulnerabilities";
import { webhooksRouter } from "./routers/webhooks";
import { workspaceReadsRouter } from "./routers/workspace-reads";
import { router } from "./trpc";

export const appRouter = router({
  account: accountRouter,
  geo: geoRouter,
  assessment: assessmentRouter,
  rules: rulesRouter,
  ip: ipRouter,
  asn: asnRouter,
  rdap: rdapRouter,
  domain: domainRouter,
  dns: dnsRouter,
  email: emailRouter,
  hosts: hostsRouter,
  blocklists: blocklistsRouter,
  cidr: cidrRouter,
  captcha: captchaRouter,
  vulnerabilities: vulnerabilitiesRouter,
  webhooks: webhooksRouter,
  workspace: workspaceReadsRouter,
  reports: reportsRouter,
  links: linksRouter,
});

export type AppRouter = typeof appRouter;
