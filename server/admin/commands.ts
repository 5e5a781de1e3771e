// Operator commands (`npm run admin -- <command>`), as plain functions over a database handle so that the CLI
// can run them directly or hand them to a running embedded server through its admin channel.
import { EmbeddedStoreUnreadable, type Db } from "../db/client";
import { firstInCauseChain, StoreConnectError, storeOutageReason } from "../db/outage-reason";
import { ConfigurationError } from "../env";
import { AppError, toErrorBody } from "../errors";
import { createApiKey, revokeApiKeyOrThrow } from "../keys/keys";
import { adjustUsage } from "../quota/adjust";
import { readUsage } from "../quota/reserve";
import { isEmailAddress } from "../workspaces/members";
import { createWorkspace, getWorkspaceOrThrow, setPlans, workspaceEntitlements } from "../workspaces/workspaces";
import { backupEmbeddedStore } from "../maintenance/backup";
import { feedsCommand } from "./feeds-command";
import { popularNamesCommand } from "./popular-names-command";
import { secretsCommand } from "./secrets-command";
import { statementCount } from "./sql-statements";

export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string[]>;
  json: boolean;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--json") json = true;
    else if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      const value =
        eq > 0 ? a.slice(eq + 1) : argv[i + 1] !== undefined && !argv[i + 1].startsWith("--") ? argv[++i] : "";
      flags.set(name, [...(flags.get(name) ?? []), value]);
    } else positional.push(a);
  }
  return { positional, flags, json };
}

function one(args: ParsedArgs, name: string): string {
  const v = args.flags.get(name);
  if (!v || !v[0]) throw new AppError("INVALID_REQUEST", `--${name} is required`);
  return v[v.length - 1];
}

export const USAGE = `usage: npm run admin -- <command> [--json]
  workspace create --name NAME --plan PLAN [--plan PLAN ...] [--owner EMAIL]
  key create --workspace ID [--name NAME]
  key revoke --key KEY_ID
  plan set --workspace ID --plan PLAN [--plan PLAN ...]   (the operator's grant; Stripe subscriptions stay)
  usage --workspace ID
  usage adjust --workspace ID --units N --reason TEXT
  secrets status
  secrets rotate
  feeds status
  feeds refresh [--feed NAME]
  popular-names status   (the typosquat check's lists of popular package names)
  popular-names refresh   (PyPI's list, from SERVICE_PYPI_POPULAR_URL)
  sql --query STATEMENT [--param VALUE ...]   (one statement on the server's database, $1.. bound to --param)
  backup --to DIR   (embedded database: a consistent copy, also while the server runs)
plans: free, email, suite_starter, suite_business, lookups_developer, suite_agency, lookups_growth`;

/**
 * The flags each command takes, read from its USAGE line (the one place they are written): the words before the
 * first flag name the command, and every `--flag` on the line (outside its parenthesised note) is one it takes.
 */
const COMMANDS: ReadonlyMap<string, { flags: ReadonlySet<string>; usage: string }> = new Map(
  USAGE.split("\n")
    .slice(1, -1)
    .map((line) => {
      const usage = line.replace(/\(.*\)/, "").trim();
      const words = usage.split(/\s+/);
      const first = words.findIndex((w) => w.startsWith("--") || w.startsWith("["));
      const name = (first < 0 ? words : words.slice(0, first)).join(" ");
      return [name, { flags: new Set([...usage.matchAll(/--([a-z-]+)/g)].map((m) => m[1])), usage }] as const;
    }),
);

/**
 * A flag the command does not take, or a word after the command's own, is refused rather than ignored: an operator's
 * typo (`--ownr`, `--plans`) or an unquoted value (`--reason refund for outage`) must not run the command without it.
 */
function refuseUnknownArguments(cmd: string, args: ParsedArgs): void {
  const command = COMMANDS.get(cmd);
  if (!command) return; // an unknown command: the switch's default says so
  const extra = args.positional.slice(cmd.split(" ").length);
  const unknown = [...args.flags.keys()].filter((f) => !command.flags.has(f));
  if (!extra.length && !unknown.length) return;
  const what = extra.length
    ? `unexpected ${extra.length > 1 ? "words" : "word"} ${extra.map((a) => JSON.stringify(a)).join(", ")} (quote a value that holds spaces)`
    : `${cmd} does not take ${unknown.map((f) => `--${f}`).join(", ")}`;
  throw new AppError("INVALID_REQUEST", `${what}\nusage: npm run admin -- ${command.usage} [--json]`);
}

/** The most units one `usage adjust` moves either way (the ledger's and the usage's counts are 32-bit integers). */
const MAX_ADJUST_UNITS = 1_000_000_000;

/** Runs one command; returns the machine-readable result and a line for people. */
export async function runAdminCommand(
  db: Db,
  argv: string[],
): Promise<{ result: unknown; text: string; failed?: string; failedCode?: string }> {
  const args = parseArgs(argv);
  const [area, verb] = args.positional;
  const two = [area, verb].filter(Boolean).join(" ");
  const cmd = !COMMANDS.has(two) && COMMANDS.has(area) ? area : two;
  refuseUnknownArguments(cmd, args);
  switch (cmd) {
    case "workspace create": {
      const ownerEmail = args.flags.has("owner") ? one(args, "owner").trim() : null;
      if (ownerEmail !== null && !isEmailAddress(ownerEmail))
        throw new AppError("INVALID_REQUEST", `--owner must be an email address (got "${ownerEmail}").`);
      const r = await createWorkspace(db, {
        name: one(args, "name"),
        plans: args.flags.get("plan") ?? [],
        ownerEmail,
        actor: { kind: "operator", command: "workspace create" },
      });
      return {
        result: { workspaceId: r.workspaceId, apiKey: r.apiKey },
        text: `workspace ${r.workspaceId}\napi key (shown once): ${r.apiKey}`,
      };
    }
    case "key create": {
      const workspaceId = one(args, "workspace");
      await getWorkspaceOrThrow(db, workspaceId);
      const r = await createApiKey(db, {
        workspaceId,
        // `--name` with no value is a mistake, not "the default name".
        name: args.flags.has("name") ? one(args, "name") : undefined,
        actor: { kind: "operator", command: `key create --workspace ${workspaceId}` },
      });
      return {
        result: { keyId: r.key.id, apiKey: r.plaintext },
        text: `key ${r.key.id}\napi key (shown once): ${r.plaintext}`,
      };
    }
    case "key revoke": {
      const keyId = one(args, "key");
      const r = await revokeApiKeyOrThrow(db, {
        keyId,
        actor: { kind: "operator", command: `key revoke --key ${keyId}` },
      });
      return { result: { keyId: r.id, status: r.status, revokedAt: r.revokedAt }, text: `key ${r.id} revoked` };
    }
    case "plan set": {
      const workspaceId = one(args, "workspace");
      const plans = args.flags.get("plan") ?? [];
      const command = ["plan set", `--workspace ${workspaceId}`, ...plans.map((p) => `--plan ${p}`)].join(" ");
      const r = await setPlans(db, { workspaceId, plans, actor: { kind: "operator", command } });
      return {
        result: {
          workspaceId,
          plans: r.plans,
          effectivePlans: r.effectivePlans,
          activeKeys: r.keys.active,
          pausedKeys: r.keys.paused,
        },
        text: `granted: ${r.plans.join(", ")}; effective plans: ${r.effectivePlans.join(", ")}; active keys: ${r.keys.active.length}; paused keys: ${r.keys.paused.length}`,
      };
    }
    case "usage":
    case "usage adjust": {
      const workspaceId = one(args, "workspace");
      // The command's own input first, then the workspace: every mistake in one run is said before any lookup.
      const adjust = verb === "adjust" ? { units: Number(one(args, "units")), reason: one(args, "reason") } : null;
      if (
        adjust &&
        (!Number.isInteger(adjust.units) || adjust.units === 0 || Math.abs(adjust.units) > MAX_ADJUST_UNITS)
      )
        throw new AppError(
          "INVALID_REQUEST",
          `--units must be a non-zero whole number from -${MAX_ADJUST_UNITS} to ${MAX_ADJUST_UNITS} (negative to give units back)`,
        );
      await getWorkspaceOrThrow(db, workspaceId);
      if (adjust) await adjustUsage(db, { workspaceId, ...adjust });
      const ent = await workspaceEntitlements(db, workspaceId);
      const u = await readUsage(db, workspaceId, ent.monthlyUnits);
      const result = { limit: u.limit, used: u.used, remaining: u.remaining, reset: u.reset.toISOString() };
      return { result, text: `limit ${u.limit}, used ${u.used}, remaining ${u.remaining}, resets ${result.reset}` };
    }
    case "secrets rotate":
    case "secrets status":
      return secretsCommand(db, verb);
    case "backup": {
      const r = await backupEmbeddedStore(one(args, "to"));
      return { result: r, text: `backed up ${r.files.join(" and ")} to ${r.to} (${r.createdAt})` };
    }
    case "feeds status":
    case "feeds refresh":
      // `--feed` without a name is a mistake, not "every feed".
      return feedsCommand(db, verb, args.flags.has("feed") ? one(args, "feed") : null);
    case "popular-names status":
    case "popular-names refresh":
      return popularNamesCommand(db, verb);
    case "sql": {
      // The operator's SQL console: with the embedded database the running server owns the only connection, so
      // this is the one way to read or repair a row while it runs (PostgreSQL operators have psql as well).
      const query = one(args, "query");
      // PostgreSQL would run every statement of a query without parameters, the embedded store none but the first.
      if (statementCount(query) > 1)
        throw new AppError(
          "INVALID_REQUEST",
          "sql runs one statement at a time: this query holds more than one (separated by ;). Run each on its own.",
        );
      const rows = await db
        .$queryRawUnsafe<Record<string, unknown>[]>(query, ...(args.flags.get("param") ?? []))
        .catch((err) => {
          throw refusedStatement(err);
        });
      const result = { rows: JSON.parse(JSON.stringify(rows, (_k, v) => (typeof v === "bigint" ? v.toString() : v))) };
      return { result, text: JSON.stringify(result.rows, null, 2) };
    }
    default: {
      // `workspace` alone, or `key list`: name the commands that area has rather than call it unknown.
      const verbs = [...COMMANDS.keys()].filter((c) => c.startsWith(`${area} `)).map((c) => c.slice(area.length + 1));
      if (verbs.length)
        throw new AppError(
          "INVALID_REQUEST",
          `${area} takes ${verbs.length > 1 ? "one of " : ""}${verbs.join(", ")}${verb ? ` (not ${JSON.stringify(verb)})` : ""}\n${USAGE}`,
        );
      throw new AppError("INVALID_REQUEST", cmd ? `unknown command: ${cmd}\n${USAGE}` : USAGE);
    }
  }
}

/**
 * The database's refusal of an operator's statement (a syntax error, an unknown table, two statements, a parameter
 * of the wrong type) is the operator's to fix, so it is told as the database says it. An outage stays an outage; a
 * table or schema that does not exist counts as one for the service's own queries, whose tables must be there, but
 * here it is most likely the statement's; so is a wrong number of --param.
 */
const STATEMENT_SQLSTATES = new Set(["42P01", "3F000", "08P01"]);

function refusedStatement(err: unknown): unknown {
  const e = err as { code?: unknown; meta?: { driverAdapterError?: { cause?: Record<string, unknown> } } };
  if (e.code !== "P2010") return err;
  const cause = e.meta?.driverAdapterError?.cause ?? {};
  const sqlstate = typeof cause.originalCode === "string" ? cause.originalCode : null;
  // 08P01 is a protocol violation, class 08 like a lost connection, but what PostgreSQL (and PGlite) answers a bind
  // whose parameter count is not the statement's: the operator's --param, not an outage.
  if (!STATEMENT_SQLSTATES.has(sqlstate ?? "") && storeOutageReason(err)) return err;
  const message = String(cause.originalMessage ?? cause.message ?? (err as Error).message).trim();
  return new AppError(
    "INVALID_REQUEST",
    `the database refused the statement: ${message}${sqlstate ? ` (SQLSTATE ${sqlstate})` : ""}`,
    { cause: err },
  );
}

/**
 * A command's failure as the operator reads it, on the CLI's direct path and through the channel alike: the API's
 * words for an outage ("retry after the time in Retry-After") mean nothing on a command line, so it says why.
 */
export function adminFailure(err: unknown): { status: number; code: string; message: string; internal: boolean } {
  // A setting the command cannot use is the operator's to fix, said as the server's start-up says it.
  if (err instanceof ConfigurationError)
    return { status: 500, code: "INVALID_CONFIGURATION", message: err.message, internal: false };
  // A damaged embedded database: the message names the folder and what to do; PGlite's stack would add nothing.
  if (err instanceof EmbeddedStoreUnreadable)
    return { status: 500, code: "INTERNAL_ERROR", message: err.message, internal: false };
  const { status, body, outage } = toErrorBody(err);
  // A connection PostgreSQL refused says why in its words (a database or role that does not exist, the address
  // refused), as the server's start-up does; the SQLSTATE alone told the operator little.
  const refused = firstInCauseChain(err, (e) => (e instanceof StoreConnectError ? e : null));
  const reason = refused ? refused.message.split("\n")[0] : storeOutageReason(err);
  const message = outage ? `cannot use the database: ${reason}` : body.error.message;
  return { status, code: body.error.code, message, internal: body.error.code === "INTERNAL_ERROR" };
}

/** The admin channel's answer to one command (server/admin/channel.ts): the result, or the error's status and body. */
export async function answerAdminCommand(db: Db, argv: string[]): Promise<{ status: number; body: unknown }> {
  if (argv[0] === "ping") return { status: 200, body: { result: "pong", text: "pong" } };
  try {
    return { status: 200, body: await runAdminCommand(db, argv) };
  } catch (err) {
    const { status, code, message } = adminFailure(err);
    return { status: status >= 500 ? 500 : 400, body: { error: { code, message } } };
  }
}
