// The records the e2e server's fake DNS server answers (e2e/serve.mjs reads this folder on every query). Each
// Playwright worker keeps its own file, replaced whole by a rename, so the server never reads a half-written file
// and two workers never overwrite each other's records.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

type FakeRecord = { type: string; data: unknown; ttl?: number };

const dir = () => path.join(tmpdir(), `svc-e2e-dns-${process.env.E2E_PORT ?? "3217"}`);
const file = () => path.join(dir(), `${process.pid}.json`);

export function publishDnsRecords(records: Record<string, FakeRecord[]>): void {
  let current: Record<string, FakeRecord[]> = {};
  try {
    current = JSON.parse(readFileSync(file(), "utf8"));
  } catch {
    current = {};
  }
  mkdirSync(dir(), { recursive: true });
  const next = `${file()}.tmp`;
  writeFileSync(next, JSON.stringify({ ...current, ...records }));
  renameSync(next, file());
}
