// `npm run admin -- <command> [--json]`. Works against the database the server uses: PostgreSQL directly, or
// the embedded database through the running server's admin channel (or directly when no server runs).
import path from "node:path";
import { databaseUrl } from "../db/config";
import { setting } from "../env";
import { claimEmbeddedStoreForCommand, releaseEmbeddedStore, sendAdminCommand } from "./channel";

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  // Asking for help is not an error: the usage on stdout, exit 0, with no database opened.
  if (argv.includes("--help") || argv.includes("-h") || argv[0] === "help") {
    const { USAGE } = await import("./commands");
    console.log(USAGE);
    return 0;
  }
  // A folder named on the command line is the operator's, relative to where they ran it, not to the server.
  const to = argv.indexOf("--to");
  // `npm run` starts the command in the project's root; where the operator ran it is npm's INIT_CWD.
  if (to >= 0 && argv[to + 1]) argv[to + 1] = path.resolve(setting("INIT_CWD") ?? process.cwd(), argv[to + 1]);
  const json = argv.includes("--json");
  let outcome:
    | { ok: true; result: unknown; text: string; failed?: string; failedCode?: string }
    | { ok: false; code: string; message: string };

  // With no server running, this command opens the embedded database itself and holds the folder's lock meanwhile.
  if (!databaseUrl() && (await claimEmbeddedStoreForCommand()) === "server") {
    const { status, body } = await sendAdminCommand(argv);
    outcome =
      status === 200
        ? { ok: true, result: body.result, text: body.text, failed: body.failed, failedCode: body.failedCode }
        : { ok: false, code: body.error.code, message: body.error.message };
  } else {
    const { getDb, closeDb } = await import("../db/client");
    const { adminFailure, runAdminCommand } = await import("./commands");
    try {
      const r = await runAdminCommand(await getDb(), argv);
      outcome = { ok: true, ...r };
    } catch (err) {
      const { code, message, internal } = adminFailure(err);
      if (internal) console.error(err);
      outcome = { ok: false, code, message };
    } finally {
      await closeDb().catch(() => undefined);
      releaseEmbeddedStore();
    }
  }

  if (outcome.ok) {
    console.log(json ? JSON.stringify(outcome.result) : outcome.text);
    // The command ran and printed what it did, but part of it failed (a feed whose source did not answer).
    // With --json, stderr holds the same shape as every other failure's.
    if (outcome.failed)
      console.error(
        json
          ? JSON.stringify({ error: { code: outcome.failedCode ?? "FEED_REFRESH_FAILED", message: outcome.failed } })
          : `error: ${outcome.failed}`,
      );
    return outcome.failed ? 1 : 0;
  }
  if (json) console.error(JSON.stringify({ error: { code: outcome.code, message: outcome.message } }));
  else console.error(`error: ${outcome.message}`);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
