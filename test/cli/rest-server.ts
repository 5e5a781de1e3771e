// The service's REST entry on a real node:http server on 127.0.0.1, for the CLI's tests: the command talks HTTP to
// it as it would to the service, and `seen` records each request's method and URL.
import { createServer, type Server } from "node:http";
import { handleRestRequest } from "../../server/api/rest/handler";

export async function serveRestApi(seen: string[]): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    seen.push(`${req.method} ${req.url}`);
    const answer = await handleRestRequest(
      new Request(`http://127.0.0.1${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      }),
    );
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1` };
}
