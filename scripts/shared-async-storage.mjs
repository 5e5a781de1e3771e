// One platform AsyncLocalStorage for the whole production server (scripts/server.mjs), instead of one per instance.
//
// Node 20 carries every enabled AsyncLocalStorage instance's store from each new promise's creator to the promise,
// one instance after the other, in a hook that runs for every promise of the process. Next and React create their
// own instances (Next's request, work and work-unit storages, React's renderers' request storages, the proxy's),
// and the start-up's first page renders and the first proxy run enable five of them for the life of the process.
// A /v1 request reads none of them, yet each of its promises (about 90 for a metered lookup) paid for all five:
// 11 % of a metered lookup's CPU in the production server's profile (docs/benchmarks.md). Measured on this machine,
// a million awaited steps cost 1.47 s with no instance enabled, 1.95 s with one and 2.87 s with five.
//
// installSharedAsyncStorage() replaces node:async_hooks' AsyncLocalStorage (and so globalThis.AsyncLocalStorage,
// which Next copies from it) with SharedAsyncLocalStorage before Next loads: every instance is a view of one
// platform instance whose store is a small frame, an immutable map from view to its store. A view's run() enters a
// copy of the frame with its own store set, so what each view sees, in which callbacks and across which awaits, is
// what a platform instance of its own would show; the hook carries one store per promise instead of five.
// Differences, none used by Next, React or OpenTelemetry's context manager: disable() forgets the view's store in
// every context for good (a platform instance finds its old stores again once it is used again), and a store entered
// with enterWith() inside another view's run() ends with that run.
// SERVICE_SHARED_ASYNC_STORAGE=0 keeps Node's own class.

import asyncHooks from "node:async_hooks";
import { syncBuiltinESMExports } from "node:module";

/** The AsyncLocalStorage class node:async_hooks exported before any replacement. */
export const PlatformAsyncLocalStorage = asyncHooks.AsyncLocalStorage;

/**
 * A class with AsyncLocalStorage's interface whose instances all keep their stores in one instance of `Platform`.
 * Each call makes its own class (its own platform instance), so tests can hold two apart.
 */
export function sharedAsyncLocalStorageClass(Platform = PlatformAsyncLocalStorage) {
  /** The one platform instance: its store is a frame, Map<view, { store, generation }>, never changed once entered. */
  const frames = new Platform();

  const framed = (frame, view, cell) => {
    const next = new Map(frame);
    if (cell) next.set(view, cell);
    else next.delete(view);
    return next;
  };

  return class SharedAsyncLocalStorage {
    /** Raised by disable(): cells of an earlier generation are no longer this view's store. */
    #generation = 0;

    /** A function that runs in the execution context it was bound in (every view's stores), as Node's does. */
    static bind(fn) {
      return Platform.bind(fn);
    }

    /** A function that runs a callback in the execution context of this call, as Node's does. */
    static snapshot() {
      return Platform.snapshot();
    }

    #cell() {
      const cell = frames.getStore()?.get(this);
      return cell !== undefined && cell.generation === this.#generation ? cell : undefined;
    }

    getStore() {
      return this.#cell()?.store;
    }

    run(store, callback, ...args) {
      const cell = this.#cell();
      // As Node's: no new context when this store is already the current one.
      if (cell !== undefined && Object.is(cell.store, store)) return Reflect.apply(callback, null, args);
      return frames.run(framed(frames.getStore(), this, { store, generation: this.#generation }), callback, ...args);
    }

    exit(callback, ...args) {
      const frame = frames.getStore();
      if (!frame?.has(this)) return Reflect.apply(callback, null, args);
      return frames.run(framed(frame, this, null), callback, ...args);
    }

    enterWith(store) {
      frames.enterWith(framed(frames.getStore(), this, { store, generation: this.#generation }));
    }

    disable() {
      this.#generation += 1;
    }
  };
}

/**
 * Whether the production server shares one platform instance: SERVICE_SHARED_ASYNC_STORAGE, a flag of the settings
 * registry (server/env/operate.ts), on unless `0`, `false`, `no` or `off`. Read here because it acts before the
 * server's code loads, so only from the process's environment: a `.env` file, which Next reads later, cannot turn
 * it off. The registry refuses any other word when the server starts.
 */
export function sharedAsyncStorageWanted(env = process.env) {
  return !["0", "false", "no", "off"].includes(
    String(env.SERVICE_SHARED_ASYNC_STORAGE ?? "")
      .trim()
      .toLowerCase(),
  );
}

/**
 * Whether `hooks` (node:async_hooks) exports AsyncLocalStorage as a plain writable value, as Node 20 does. Node 22.7
 * and later export it through a getter (its AsyncContextFrame carries every store in one slot, so there is nothing
 * to share), and assigning it would throw: there the platform's class stays.
 */
export function replaceable(hooks) {
  const own = Object.getOwnPropertyDescriptor(hooks, "AsyncLocalStorage");
  return Boolean(own && "value" in own && own.writable);
}

/**
 * Makes node:async_hooks' AsyncLocalStorage (for require() and import alike) and globalThis.AsyncLocalStorage the
 * shared class. Must run before Next or React load, since they take the class when their modules load. Returns the
 * class installed, or null when it was not (turned off, already installed, or a Node whose class cannot be replaced).
 */
export function installSharedAsyncStorage(env = process.env, hooks = asyncHooks) {
  if (!sharedAsyncStorageWanted(env)) return null;
  if (!replaceable(hooks) || hooks.AsyncLocalStorage !== PlatformAsyncLocalStorage) return null;
  const Shared = sharedAsyncLocalStorageClass();
  hooks.AsyncLocalStorage = Shared;
  syncBuiltinESMExports();
  if (typeof globalThis.AsyncLocalStorage === "function") globalThis.AsyncLocalStorage = Shared;
  return Shared;
}
