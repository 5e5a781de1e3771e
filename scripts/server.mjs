// The production server that `npm start` runs (scripts/start.mjs builds first): Next.js as a custom server behind
// the small node:http front in http-front.mjs, which answers only what Next cannot answer in the spec's terms
// (unknown methods on /v1, bodies on GET, requests Node's parser refuses). Everything else, /v1 included, is
// Next's own request handler, as under `next start`. `next dev` stays the development server.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { installGracefulShutdown } from "./graceful-shutdown.mjs";
import { answerClientError, answerConnect, createFront } from "./http-front.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const port = Number(process.env.PORT ?? "3000");
const hostname = process.env.HOST ?? "0.0.0.0";

const app = next({ dev: false, dir: root, hostname, port });
await app.prepare();
const handle = app.getRequestHandler();

const server = http.createServer(createFront((req, res) => handle(req, res)));
server.on("clientError", answerClientError);
server.on("connect", answerConnect);
server.listen(port, hostname, () => {
  console.log(`Ready on http://${hostname}:${port}`);
});

// SIGTERM/SIGINT: readiness 503 at once, connections accepted for SERVICE_SHUTDOWN_DELAY_MS, in-flight requests
// finish, workers stop, the database closes, exit 0 (scripts/graceful-shutdown.mjs).
installGracefulShutdown({ server, app });
