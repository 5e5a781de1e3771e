// Preloaded into the service (NODE_OPTIONS=--import) when BENCH_CPU_PROF_DIR is set: Node 20 refuses --cpu-prof in
// NODE_OPTIONS, so this records a V8 CPU profile through node:inspector and writes it when the process exits.
import { writeFileSync, mkdirSync } from "node:fs";
import { Session } from "node:inspector";
import path from "node:path";

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 500 });
  session.post("Profiler.start");
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    // An in-thread inspector session answers synchronously, so this works inside an exit handler.
    session.post("Profiler.stop", (err, res) => {
      if (err || !res) return;
      mkdirSync(dir, { recursive: true });
      const name = `${path.basename(process.argv[1] ?? "node")}-${process.pid}.cpuprofile`;
      writeFileSync(path.join(dir, name), JSON.stringify(res.profile));
    });
  };
  process.on("exit", write);
}
