// The records the e2e server's fake DNS server answers (e2e/serve.mjs reads this file on every query).
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

type FakeRecord = { type: string; data: unknown; ttl?: number };

const file = () => path.join(tmpdir(), `svc-e2e-dns-${process.env.E2E_PORT ?? "3217"}.json`);

export function publishDnsRecords(records: Record<string, FakeRecord[]>): void {
  let current: Record<string, FakeRecord[]> = {};
  try {
    current = JSON.parse(readFileSync(file(), "utf8"));
  } catch {
    current = {};
  }
  writeFileSync(file(), JSON.stringify({ ...current, ...records }));
}
