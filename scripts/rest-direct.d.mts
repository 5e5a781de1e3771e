import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";

/** The plain door of POST /v1/assess (server/api/rest/assess-door.ts), found on the route's handler. */
export interface PlainDoor {
  takes(method: string, url: string, headers: IncomingHttpHeaders): boolean;
  answer(req: {
    method: string;
    url: string;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
    receivedAt?: number;
  }): Promise<{ status: number; headers: Record<string, string>; body: string; undelivered: (() => void) | null }>;
}

/** A method's handler of the compiled route; the production server also looks for the plain door on POST's. */
export type RestHandler = ((req: Request) => Promise<Response>) & { plain?: PlainDoor };

/** The compiled route's handlers by method (the exports of app/v1/[[...path]]/route.ts). */
export type RestRoute = Record<string, RestHandler>;

export function loadRestRoute(distDir: string): RestRoute | null;
export function takesDirect(url: string): boolean;
export function serveDirect(route: RestRoute, req: IncomingMessage, res: ServerResponse): Promise<void>;
