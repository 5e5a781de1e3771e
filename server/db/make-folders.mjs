// `mkdir -p` without Node's `recursive: true`, which retries forever, on the event loop, a folder whose creation
// fails with ENOENT although its parent exists (anything under /proc): SERVICE_DATA_DIR=/proc/x hung `npm start` and
// every admin command at full CPU, and `admin backup --to /proc/x` froze a running server. Each missing folder is
// made on its own here and the first refusal is thrown (its code kept). Plain JavaScript so that scripts/ and the
// server share it (server/env/shutdown-timings.mjs does the same).
import { existsSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";

/** Makes `folder` and any missing parents (`mode` for the new ones); a folder already there is fine. */
export function makeFolders(folder, mode) {
  const missing = [];
  let at = path.resolve(folder);
  while (!existsSync(at)) {
    missing.push(at);
    const up = path.dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const f of missing.reverse()) {
    try {
      mkdirSync(f, mode === undefined ? undefined : { mode });
    } catch (err) {
      // Made meanwhile by another process (two starting at once): what was wanted is there, if it is a folder (a
      // broken symbolic link is "missing" and EEXIST too: the check below refuses it).
      if (err?.code !== "EEXIST") throw err;
    }
  }
  // Only a folder will do: a file or a broken symbolic link in its place is refused, as `mkdir -p` refuses it.
  const target = path.resolve(folder);
  if (!statSync(target).isDirectory())
    throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${target}'`), { code: "ENOTDIR", path: target });
}
