// `npm run db:migrate`: applies pending migrations to the configured database (embedded or DATABASE_URL).
import { closeDb, migrationsAppliedAtOpen } from "../db/client";
import { claimEmbeddedStoreForCommand, releaseEmbeddedStore } from "./channel";
import { databaseUrl } from "../db/config";

async function main() {
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
