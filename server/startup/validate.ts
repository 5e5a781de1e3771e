// Start-up check of every numeric setting: each configuration module's setting readers are called once, so an
// invalid value stops the server at start with the variable's name, not on the first request that reads it.
import * as assessment from "../assessment/config";
import * as blocklists from "../blocklists/config";
import * as captcha from "../captcha/providers";
import * as db from "../db/config";
import * as domain from "../domain/config";
import * as dns from "../providers/dns/config";
import * as rdap from "../providers/rdap/config";
import * as reports from "../reports/config";
import * as bulk from "../bulk/config";
import * as feeds from "../feeds/config";
import * as feedSchedule from "../feeds/schedule";
import * as http from "../http/config";
import * as keys from "../keys/config";
import * as links from "../links/config";
import * as net from "../net/config";
import * as onlineCheck from "../online-check/config";
import * as operate from "../operate/config";
import * as ct from "../providers/ct/config";
import * as packages from "../providers/packages/config";
import * as rules from "../rules/config";
import * as scans from "../scans/config";
import * as webhooks from "../webhooks/config";
import * as weights from "../weights/config";
import { ConfigurationError } from "../env";

const MODULES: Record<string, unknown>[] = [
  assessment,
  blocklists,
  bulk,
  captcha,
  db,
  dns,
  domain,
  rdap,
  reports,
  feeds,
  feedSchedule,
  http,
  keys,
  links,
  net,
  onlineCheck,
  operate,
  ct,
  packages,
  rules,
  scans,
  webhooks,
  weights,
];

/** Every configuration problem found, one line each naming the variable; empty when all settings are valid. */
export function configurationProblems(): string[] {
  const problems: string[] = [];
  for (const mod of MODULES) {
    for (const value of Object.values(mod)) {
      // Setting readers take no argument; helpers that need one (a feed's name, a request origin) are skipped.
      if (typeof value !== "function" || value.length !== 0) continue;
      try {
        (value as () => unknown)();
      } catch (err) {
        // Other failures (an unreadable CA file, a malformed probe list) are reported where they are used.
        if (err instanceof ConfigurationError) problems.push(err.message);
      }
    }
  }
  return [...new Set(problems)];
}

/** Throws one ConfigurationError listing every invalid setting. */
export function assertValidConfiguration(): void {
  const problems = configurationProblems();
  if (problems.length) throw new ConfigurationError(`Invalid configuration:\n  ${problems.join("\n  ")}`);
}
