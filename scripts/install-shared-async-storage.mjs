// Imported by scripts/server.mjs before Next: every AsyncLocalStorage of the process shares one platform instance
// (scripts/shared-async-storage.mjs says why). Its own module, so that the install runs before `next` is evaluated.
import { installSharedAsyncStorage } from "./shared-async-storage.mjs";

installSharedAsyncStorage();
