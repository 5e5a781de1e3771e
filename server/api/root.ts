// Every router of the service. Procedures with OpenAPI meta are also served under /v1 by the REST API.
import { abuseRouter } from "./routers/abuse";
import { accountRouter } from "./routers/account";
import { assessmentRouter } from "./routers/assessment";
import { asnRouter } from "./routers/asn";
import { blocklistsRouter } from "./routers/blocklists";
import { captchaRouter } from "./routers/captcha";
import { casesRouter } from "./routers/cases";
import { cidrRouter } from "./routers/cidr";
import { deviceRouter } from "./routers/device";
import { dnsRouter } from "./routers/dns";
import { domainRouter } from "./routers/domain";
import { emailRouter } from "./routers/email";
import { geoRouter } from "./routers/geo";
import { linksRouter } from "./routers/links";
import { listsRouter } from "./routers/lists";
import { monitorsRouter } from "./routers/monitors";
import { projectsRouter } from "./routers/projects";
import { hostsRouter } from "./routers/hosts";
import { ipRouter } from "./routers/ip";
import { passwordsRouter } from "./routers/passwords";
import { phoneRouter } from "./routers/phone";
import { jobsRouter } from "./routers/jobs";
import { sourcesRouter } from "./routers/sources";
import { usersRouter } from "./routers/users";
import { rdapRouter } from "./routers/rdap";
import { reportsRouter } from "./routers/reports";
import { rulesRouter } from "./routers/rules";
import { sendersRouter } from "./routers/senders";
import { scansRouter } from "./routers/site-scans";
import { vulnerabilitiesRouter } from "./routers/vulnerabilities";
import { webhooksRouter } from "./routers/webhooks";
import { weightsRouter } from "./routers/weights";
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
  phone: phoneRouter,
  passwords: passwordsRouter,
  hosts: hostsRouter,
  blocklists: blocklistsRouter,
  cidr: cidrRouter,
  captcha: captchaRouter,
  vulnerabilities: vulnerabilitiesRouter,
  webhooks: webhooksRouter,
  workspace: workspaceReadsRouter,
  reports: reportsRouter,
  senders: sendersRouter,
  links: linksRouter,
  scans: scansRouter,
  abuse: abuseRouter,
  device: deviceRouter,
  jobs: jobsRouter,
  sources: sourcesRouter,
  weights: weightsRouter,
  users: usersRouter,
  lists: listsRouter,
  cases: casesRouter,
  monitors: monitorsRouter,
  projects: projectsRouter,
});

export type AppRouter = typeof appRouter;
