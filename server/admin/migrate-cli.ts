// `npm run db:migrate`: applies pending migrations to the configured database (embedded or DATABASE_URL).
import { closeDb, getDb } from "../db/client";
import { channelAlive } from "./channel";
import { databaseUrl } from "../db/config";

async function main() {
  if (!databaseUrl() && (await channelAlive())) {
    console.log("The running server holds the embedded database and applied its migrations at start.");
    return;
  }
  await getDb();
  await closeDb();
  console.log("migrations are up to date");
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
