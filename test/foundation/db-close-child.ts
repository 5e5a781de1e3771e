// Child of db-close.test.ts: opens the embedded database, queues queries behind a running one, closes the database
// at once, and prints what became of each. A close that left a query behind spins here forever (the parent's timeout).
import { closeDb, embeddedStore, getDb } from "../../server/db/client";

const db = await getDb();
const { pg } = (await embeddedStore())!;
const outcomes = [
  pg.query("SELECT pg_sleep(0.2)"),
  pg.query("SELECT 1 AS one"),
  pg.exec("SELECT 2"),
  db.$queryRawUnsafe("SELECT 3 AS three"),
  pg.transaction(async (tx) => tx.query("SELECT 4")),
].map((p) =>
  p.then(
    () => "done",
    (err: Error) => `refused: ${err.message}`,
  ),
);
await closeDb();
const after = await pg.query("SELECT 5").then(
  () => "done",
  (err: Error) => `refused: ${err.message}`,
);
console.log(JSON.stringify({ queued: await Promise.all(outcomes), after }));
