import type { IncomingMessage, ServerResponse } from "node:http";

/** The REST door (server/api/rest/plain-door.ts answerPlain), found on the route's handlers. */
export interface PlainDoor {
  answer(req: {
    method: string;
    url: string;
    headers: Record<string, string | string[] | undefined>;
    missingHeader?: (name: string) => string | undefined;
    body?: Buffer | ((maxBytes: number) => Promise<Buffer | null | "broken">);
    base?: string;
    receivedAt?: number;
  }): Promise<{ status: number; headers: Record<string, string>; body: string; undelivered: (() => void) | null }>;
  /** Whether `answer` would answer this request without the database (an unknown route or method, a preflight). */
  answersWithoutDatabase?(req: {
    method: string;
    url: string;
    headers: Record<string, string | string[] | undefined>;
    missingHeader?: (name: string) => string | undefined;
    base?: string;
  }): boolean;
  /** The route label `answer` would count this request under on /metrics (a template, or "unmatched"). */
  routeLabel?(req: {
    method: string;
    url: string;
    headers: Record<string, string | string[] | undefined>;
    missingHeader?: (name: string) => string | undefined;
    base?: string;
  }): string;
}

/** A method's handler of the compiled route; the production server answers through its REST door when it has one. */
export type RestHandler = ((req: Request) => Promise<Response>) & { plain?: PlainDoor };

/** The compiled route's handlers by method (the exports of app/v1/[[...path]]/route.ts). */
export type RestRoute = Record<string, RestHandler>;

/** Past this many bytes dropped, a body the route left unread is no longer drained: its connection is closed. */
export const DRAIN_LIMIT_BYTES: number;
export function loadRestRoute(distDir: string): RestRoute | null;
export function takesDirect(url: string, bodyRead?: boolean): boolean;
export function answeredWithoutDatabase(route: RestRoute | null, req: IncomingMessage): boolean;
export function routeLabel(route: RestRoute | null, req: IncomingMessage): string;
export function serveDirect(route: RestRoute, req: IncomingMessage, res: ServerResponse): Promise<void>;
export function directOr(
  route: RestRoute | null,
  next: (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => unknown,
): (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => unknown;
