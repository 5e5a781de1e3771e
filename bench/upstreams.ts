// Local upstreams for scenarios that need them: the fake DNS server (DNSBL zones) and the fake package sources,
// each in its own process (bench/fakes-host.ts). A fake is started once per run however many scenarios use it,
// and each exposes running call counts so the report can say how many upstream calls a request made.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startChild, type Child } from "./process";
import type { Prepared } from "./scenarios";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

async function startHost(
  kind: "dns" | "packages",
): Promise<{ child: Child; env: Record<string, string>; statsUrl: string }> {
  const tsxCli = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
  const child = startChild(process.execPath, [tsxCli, path.join("bench", "fakes-host.ts"), kind], {
    cwd: root,
    env: process.env,
    label: `fake ${kind}`,
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const line = child
      .output()
      .split("\n")
      .find((l) => l.startsWith("{"));
    if (line) {
      const parsed = JSON.parse(line) as { env: Record<string, string>; statsUrl: string };
      return { child, ...parsed };
    }
    if (child.proc.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await child.stop();
  throw new Error(`the fake ${kind} upstream did not start:\n${child.output().slice(-2000)}`);
}

/** A `prepare` that starts the fake once per run and shares it between the scenarios that name it. */
function shared(kind: "dns" | "packages"): () => Promise<Prepared> {
  let started: Promise<Prepared> | null = null;
  return () => {
    started ??= startHost(kind).then(({ child, env, statsUrl }) => {
      let stopped = false;
      return {
        env,
        counters: async () => {
          const res = await fetch(statsUrl, { signal: AbortSignal.timeout(10_000) });
          return ((await res.json()) as { calls: Record<string, number> }).calls;
        },
        teardown: async () => {
          if (stopped) return;
          stopped = true;
          await child.stop();
        },
      };
    });
    return started;
  };
}

export const fakeDns = shared("dns");
export const fakePackageSources = shared("packages");
