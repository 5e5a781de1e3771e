// What start-up leaves for the moment the public port listens (the demo credentials' addresses with PORT=0, which the
// system picks then: server/startup/demo.ts), run by scripts/server.mjs from its listening callback. A step that
// fails there (the demo credentials' file on a read-only data folder) was an uncaught exception, thrown from the
// server's "listening" event, that ended the process: each step's failure is logged (one JSON line) instead, and the
// steps after it still run.
import { scriptLogger } from "./log.mjs";

/**
 * The steps to run once the port listens: `register(fn)` keeps `fn` until `listening(port)`, and from then on runs it
 * at once (start-up may still be under way, waiting for the database). Each `fn(port)` is run on its own: a throw,
 * or a rejection of the promise it returns, is logged through `logger()`.
 */
export function afterListeningSteps(logger = scriptLogger) {
  const waiting = [];
  let port = null;
  const failed = (err) =>
    logger().error({ err, port }, "a start-up step after the port opened failed; the server goes on");
  const run = (fn) => {
    try {
      const result = fn(port);
      if (result && typeof result.then === "function") result.then(undefined, failed);
    } catch (err) {
      failed(err);
    }
  };
  return {
    register(fn) {
      if (port === null) waiting.push(fn);
      else run(fn);
    },
    listening(listeningPort) {
      port = listeningPort;
      for (const fn of waiting.splice(0)) run(fn);
    },
  };
}
