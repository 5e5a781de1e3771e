// Child of log-stdout.test.ts: logs through the process's own logger (file descriptor 1) as the test's mode says, so
// the parent can see how the records reach a pipe.
import { logger } from "../../server/operate/log";

const mode = process.argv[2];
const log = logger();

if (mode === "spaced") {
  // A record every 5 ms for 300 ms, then a quiet second before exiting on its own.
  let n = 0;
  const timer = setInterval(() => {
    log.info({ n }, "spaced");
    if (++n === 60) {
      clearInterval(timer);
      setTimeout(() => undefined, 1000);
    }
  }, 5);
} else if (mode === "lone") {
  // One record, then alive until the parent stops it.
  log.info("lone");
  setInterval(() => undefined, 1000);
} else if (mode === "exit") {
  // Records, then process.exit in the same tick: nothing may be left behind.
  for (let n = 0; n < 500; n++) log.info({ n }, "exit");
  process.exit(0);
} else if (mode === "done") {
  // Records, then nothing left to do: the process ends by itself.
  for (let n = 0; n < 3; n++) log.info({ n }, "done");
}
