// `npm run db:migrate`: applies pending migrations to the configured database (embedded or DATABASE_URL).
import { closeDb, migrationsAppliedAtOpen } from "../db/client";
import { claimEmbeddedStoreForCommand, releaseEmbeddedStore } from "./channel";
import { databaseUrl } from "../db/config";

const USAGE =
  "usage: npm run db:migrate   (applies pending migrations to the configured database: DATABASE_URL, else the embedded one)";

async function main() {
  // Asking for help runs nothing; any other argument is refused before the database is opened (it used to be
  // ignored, so `npm run db:migrate -- --help` created and migrated a database).
  const args = process.argv.slice(2);
  if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) {
    console.log(USAGE);
    return;
  }
  if (args.length > 0) {
    console.error(
      `error: db:migrate takes no arguments (got ${args.map((a) => JSON.stringify(a)).join(", ")})\n${USAGE}`,
    );
    process.exitCode = 1;
    return;
  }
  // A server that is starting on the folder (its lock taken, its channel not yet open) is waited for, not joined;
  // else this command holds the folder's lock while it has the database open, so a server started meanwhile is refused.
  if (!databaseUrl() && (await claimEmbeddedStoreForCommand()) === "server") {
    console.log("The running server holds the embedded database and applied its migrations at start.");
    return;
  }
  const applied = await migrationsAppliedAtOpen();
  await closeDb();
  releaseEmbeddedStore();
  if (applied.length === 0) console.log("Migrations are up to date: none to apply.");
  else {
    console.log(`Applied ${applied.length} migration${applied.length === 1 ? "" : "s"}:`);
    for (const name of applied) console.log(`  ${name}`);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
