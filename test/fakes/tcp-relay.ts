// A TCP relay on 127.0.0.1 between a client under test and a real server (the test PostgreSQL): each direction's
// bytes can be watched on their way, and cut() drops every connection and refuses new ones until restore().
import { connect, createServer, type Server, type Socket } from "node:net";
import { freePort } from "../operate/server-process";

export interface RelayTaps {
  /** Called with each chunk a new connection's client sends; a tap per connection, made when it opens. */
  fromClient?: () => (chunk: Buffer) => void;
  /** The same for what the server answers. */
  fromServer?: () => (chunk: Buffer) => void;
}

export async function tcpRelay(target: { host: string; port: number }, taps: RelayTaps = {}) {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const open = () =>
    new Promise<void>((r) => {
      server = createServer((a) => {
        const b = connect(target.port, target.host);
        for (const s of [a, b]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
          s.on("error", () => undefined);
        }
        const up = taps.fromClient?.();
        const down = taps.fromServer?.();
        if (up) a.on("data", up);
        if (down) b.on("data", down);
        a.pipe(b).pipe(a);
      });
      server.listen(port, "127.0.0.1", () => r());
    });
  await open();
  const cut = () =>
    new Promise<void>((r) => {
      server!.close(() => r());
      for (const s of sockets) s.destroy();
    });
  return { port, cut, restore: open };
}
