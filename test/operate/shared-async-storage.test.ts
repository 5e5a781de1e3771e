// The production server's AsyncLocalStorage instances share one of the platform's (scripts/shared-async-storage.mjs).
// Each behaviour is checked against Node's own class: the same script of runs, awaits, timers, exits and snapshots
// is played on both and must observe the same stores at every step. The install is checked in child processes, so
// that this test's process keeps Node's class.
import { AsyncLocalStorage } from "node:async_hooks";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  installSharedAsyncStorage,
  PlatformAsyncLocalStorage,
  replaceable,
  sharedAsyncLocalStorageClass,
  sharedAsyncStorageWanted,
} from "../../scripts/shared-async-storage.mjs";
import { SETTINGS } from "../../server/env/registry";

const root = path.resolve(__dirname, "../..");

type StorageClass = {
  new (): {
    getStore(): unknown;
    run<R>(store: unknown, fn: (...args: any[]) => R, ...args: any[]): R;
    exit<R>(fn: (...args: any[]) => R, ...args: any[]): R;
    enterWith(store: unknown): void;
    disable(): void;
  };
  snapshot(): <R>(fn: (...args: any[]) => R, ...args: any[]) => R;
  bind<F extends (...args: any[]) => any>(fn: F): F;
};

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const later = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Plays one script of nested runs, awaits, timers, exits, snapshots and concurrency; returns what it saw. */
async function play(Storage: StorageClass): Promise<string[]> {
  const a = new Storage();
  const b = new Storage();
  const seen: string[] = [];
  const look = (label: string) => seen.push(`${label}: a=${String(a.getStore())} b=${String(b.getStore())}`);

  look("outside");
  const value = a.run(
    "a1",
    (x: number, y: number) => {
      look("run a");
      return x + y;
    },
    2,
    3,
  );
  seen.push(`returned ${value}`);
  look("after run");

  await a.run("a1", async () => {
    look("a async start");
    await b.run("b1", async () => {
      look("a and b");
      await tick();
      look("a and b after setImmediate");
      await a.run("a2", async () => {
        look("inner a");
        await later(1);
        look("inner a after timer");
      });
      look("back to a1 with b1");
      a.exit(() => {
        look("a exited");
        b.exit(() => look("both exited"));
      });
      look("after exit");
    });
    look("b done");
    await new Promise<void>((resolve) => queueMicrotask(() => (look("microtask"), resolve())));
  });
  look("all done");

  // Concurrent tasks each keep their own store across interleaved awaits.
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      a.run(`task${i}`, async () => {
        for (let step = 0; step < 3; step += 1) {
          await (i % 3 === step ? later(i % 4) : tick());
          if (a.getStore() !== `task${i}`) return `task${i} saw ${String(a.getStore())}`;
        }
        return b.run(`b${i}`, async () => {
          await tick();
          return `${String(a.getStore())}/${String(b.getStore())}`;
        });
      }),
    ),
  );
  seen.push(...results);

  // A throw leaves the store as it was.
  try {
    a.run("thrown", () => {
      throw new Error("boom");
    });
  } catch (err) {
    seen.push(`caught ${(err as Error).message}`);
  }
  look("after throw");

  // A snapshot (and a bound function) runs later in the context it was taken in, every storage alike.
  const snapshot = a.run("snap-a", () => b.run("snap-b", () => Storage.snapshot()));
  const bound = a.run("bound-a", () => Storage.bind(() => look("bound")));
  look("before snapshot");
  snapshot(() => look("in snapshot"));
  bound();
  await later(0);
  snapshot(() => setTimeout(() => look("timer from snapshot"), 0));
  await later(5);

  // enterWith holds for the rest of the synchronous run and what it schedules.
  await new Promise<void>((resolve) =>
    setImmediate(() => {
      a.enterWith("entered");
      look("entered");
      setTimeout(() => {
        look("entered, in a timer");
        resolve();
      }, 0);
    }),
  );
  look("outside enterWith");
  return seen;
}

describe("SharedAsyncLocalStorage", () => {
  it("observes the same stores as Node's AsyncLocalStorage through runs, awaits, timers, exits and snapshots", async () => {
    const Shared = sharedAsyncLocalStorageClass() as unknown as StorageClass;
    const platform = await play(AsyncLocalStorage as unknown as StorageClass);
    const shared = await play(Shared);
    expect(shared).toEqual(platform);
    // The script saw real stores, not undefined everywhere.
    expect(platform).toContain("a and b after setImmediate: a=a1 b=b1");
    expect(platform).toContain("inner a after timer: a=a2 b=b1");
    expect(platform).toContain("a exited: a=undefined b=b1");
    expect(platform).toContain("in snapshot: a=snap-a b=snap-b");
    expect(platform).toContain("timer from snapshot: a=snap-a b=snap-b");
    expect(platform).toContain("bound: a=bound-a b=undefined");
    expect(platform).toContain("entered, in a timer: a=entered b=undefined");
    expect(platform.filter((line) => line === "task7/b7")).toHaveLength(1);
  });

  it("keeps every instance's stores in one platform instance", async () => {
    let made = 0;
    class Counting extends PlatformAsyncLocalStorage<unknown> {
      constructor() {
        super();
        made += 1;
      }
    }
    const Shared = sharedAsyncLocalStorageClass(
      Counting as unknown as typeof AsyncLocalStorage,
    ) as unknown as StorageClass;
    const views = Array.from({ length: 5 }, () => new Shared());
    await Promise.all(views.map((view, i) => view.run(i, async () => (await tick(), view.getStore()))));
    expect(made).toBe(1);
    // Two classes never see each other's stores.
    const Other = sharedAsyncLocalStorageClass() as unknown as StorageClass;
    const other = new Other();
    views[0]!.run("mine", () => expect(other.getStore()).toBeUndefined());
  });

  it("forgets a disabled instance's store in every context, until it runs again", async () => {
    const Shared = sharedAsyncLocalStorageClass() as unknown as StorageClass;
    const a = new Shared();
    const b = new Shared();
    const seen: unknown[] = [];
    const pending = a.run("before", () =>
      b.run("b", async () => {
        await later(5);
        seen.push(a.getStore(), b.getStore());
      }),
    );
    a.disable();
    expect(a.getStore()).toBeUndefined();
    await pending;
    expect(seen).toEqual([undefined, "b"]);
    expect(a.run("again", () => a.getStore())).toBe("again");
  });

  it("runs the callback in place when the store is already the current one", () => {
    const Shared = sharedAsyncLocalStorageClass() as unknown as StorageClass;
    const a = new Shared();
    const store = { id: 1 };
    a.run(store, () => {
      const snapshotBefore = Shared.snapshot();
      a.run(store, () => a.enterWith({ id: 2 }));
      // Entered inside the nested run of the same store: still current, as with Node's class.
      expect((a.getStore() as { id: number }).id).toBe(2);
      snapshotBefore(() => expect(a.getStore()).toBe(store));
    });
  });
});

/** Runs `script` as an ES module in its own Node process (cwd: the repository), with `env` added. */
function inChild(script: string, env: Record<string, string> = {}): Record<string, unknown> {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  return JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, unknown>;
}

describe("installSharedAsyncStorage", () => {
  const script = `
    import "./scripts/install-shared-async-storage.mjs";
    import { AsyncLocalStorage as imported } from "node:async_hooks";
    import { createRequire } from "node:module";
    const require = createRequire(import.meta.url);
    require("next/dist/server/node-environment-baseline");
    const nextStorage = require("next/dist/server/app-render/async-local-storage").createAsyncLocalStorage();
    const required = require("async_hooks").AsyncLocalStorage;
    const store = nextStorage.run("next", () => nextStorage.getStore());
    console.log(JSON.stringify({
      imported: imported.name,
      required: required.name,
      global: globalThis.AsyncLocalStorage.name,
      next: nextStorage.constructor.name,
      store,
    }));`;

  it("gives Next, React's require() and ES imports the shared class before Next loads", () => {
    expect(inChild(script)).toEqual({
      imported: "SharedAsyncLocalStorage",
      required: "SharedAsyncLocalStorage",
      global: "SharedAsyncLocalStorage",
      next: "SharedAsyncLocalStorage",
      store: "next",
    });
  });

  it("keeps Node's class when SERVICE_SHARED_ASYNC_STORAGE is off", () => {
    expect(inChild(script, { SERVICE_SHARED_ASYNC_STORAGE: "off" })).toMatchObject({
      imported: "AsyncLocalStorage",
      required: "AsyncLocalStorage",
      next: "AsyncLocalStorage",
      store: "next",
    });
    expect(sharedAsyncStorageWanted({})).toBe(true);
    expect(sharedAsyncStorageWanted({ SERVICE_SHARED_ASYNC_STORAGE: "0" })).toBe(false);
  });

  it("reads SERVICE_SHARED_ASYNC_STORAGE as the settings registry reads the flag, word by word", () => {
    // The script reads it before the server's code loads, so it cannot call the registry: the two must agree.
    const entry = SETTINGS.SERVICE_SHARED_ASYNC_STORAGE;
    for (const raw of [undefined, "", " ", "1", "true", "YES", " on ", "0", "false", "No", "OFF "])
      expect(sharedAsyncStorageWanted({ SERVICE_SHARED_ASYNC_STORAGE: raw }), String(raw)).toBe(
        entry.read("SERVICE_SHARED_ASYNC_STORAGE", raw),
      );
  });

  it("leaves a Node whose class is exported through a getter (22.7 and later) as it is, without throwing", () => {
    const later = Object.defineProperty({}, "AsyncLocalStorage", {
      get: () => PlatformAsyncLocalStorage,
      enumerable: true,
      configurable: true,
    });
    expect(replaceable(later)).toBe(false);
    expect(installSharedAsyncStorage({}, later)).toBeNull();
    expect((later as { AsyncLocalStorage: unknown }).AsyncLocalStorage).toBe(PlatformAsyncLocalStorage);
    // Node 20's module exports it as a plain value, which the server replaces.
    expect(replaceable({ AsyncLocalStorage: PlatformAsyncLocalStorage })).toBe(true);
  });

  it("is installed by the production server before it imports Next", () => {
    const server = readFileSync(path.join(root, "scripts", "server.mjs"), "utf8");
    const install = server.indexOf('import "./install-shared-async-storage.mjs"');
    expect(install).toBeGreaterThan(0);
    expect(install).toBeLessThan(server.indexOf('from "next"'));
    expect(install).toBeLessThan(server.indexOf('from "./rest-direct.mjs"'));
  });
});
