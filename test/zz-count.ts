// Counts the SQL statements one /v1/assess and one geo request send, through the real handler on PostgreSQL.
import { createTestApp } from "./harness";
import { execSync } from "node:child_process";
const app = await createTestApp();
const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
const body = { event: "checkout", ip: "198.51.100.7", user_agent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36", amount: 50, currency: "USD", billing_country: "US" };
for (let i = 0; i < 3; i++) await app.request("POST", "/v1/assess", { key: ws.apiKey, body });
await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey });
await new Promise((r) => setTimeout(r, 1500));
const mark = `-- MARK ${Date.now()}`;
await app.db.$queryRawUnsafe(`SELECT 1 ${mark}`);
const r = await app.request("POST", "/v1/assess", { key: ws.apiKey, body });
await new Promise((r) => setTimeout(r, 1500));
await app.db.$queryRawUnsafe(`SELECT 2 ${mark}`);
const g = await app.request("GET", "/v1/ip/8.8.4.4/geo", { key: ws.apiKey });
await new Promise((r) => setTimeout(r, 1500));
await app.db.$queryRawUnsafe(`SELECT 3 ${mark}`);
console.log(r.status, g.status, mark);
process.exit(0);
