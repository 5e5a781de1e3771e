// Child process of at-rest.test.ts: opens the embedded database in the folder given by SERVICE_DATA_DIR, then
// either creates a workspace and a webhook ("create", prints the secret shown once) or reads the stored webhook
// back through the decryption path ("read", prints the opened secret). Closes the database cleanly either way.
import { closeDb, getDb } from "../../server/db/client";
import { openWebhookSecret } from "../../server/secrets/stored-secrets";
import { createWebhook } from "../../server/webhooks/webhooks";
import { createWorkspace } from "../../server/workspaces/workspaces";

const [mode, name] = process.argv.slice(2);
const db = await getDb();
if (mode === "create") {
  const ws = await createWorkspace(db, { name: "at rest", plans: ["suite_agency"] });
  const hook = await createWebhook(db, {
    workspaceId: ws.workspaceId,
    requestId: "req_at_rest",
    actor: { kind: "operator" },
    name,
    url: "http://127.0.0.1:8080/hook",
    eventTypes: ["high_risk_assessment"],
  });
  console.log(JSON.stringify({ secret: hook.secret }));
} else {
  const row = await db.webhook.findFirstOrThrow({ where: { name } });
  console.log(JSON.stringify({ secret: openWebhookSecret(row), stored: row.secret }));
}
await closeDb();
