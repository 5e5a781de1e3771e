// server.pid: start.mjs names the server it starts there at once, so that the admin CLI waits for that server's
// channel instead of opening the embedded database itself (server/admin/channel.ts reads it).
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { makeFolders } from "../server/db/make-folders.mjs";

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

/**
 * Writes `pid` to DIR/server.pid and returns what to do when that server has exited: when the file still names it,
 * put back the pid it replaced if that process still runs (this server was refused because that one holds the
 * folder), else remove the file (a server that stopped leaves no pid behind, not an older dead one).
 */
export function recordServerPid(dataDir, pid) {
  const file = path.join(dataDir, "server.pid");
  try {
    makeFolders(dataDir);
  } catch {
    // A folder that cannot be made (a read-only or special file system): the server started on it fails on it too,
    // and names it in its one start-up line; there is no server.pid to keep.
    return () => {};
  }
  const replaced = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
  writeFileSync(file, String(pid));
  return function serverExited() {
    try {
      if (readFileSync(file, "utf8") !== String(pid)) return;
      const before = Number(replaced);
      if (Number.isInteger(before) && before > 0 && before !== pid && alive(before)) writeFileSync(file, replaced);
      else unlinkSync(file);
    } catch {
      // gone with the folder
    }
  };
}
