import type { IncomingMessage, ServerResponse } from "node:http";

/** The compiled route's handlers by method (the exports of app/v1/[[...path]]/route.ts). */
export type RestRoute = Record<string, (req: Request) => Promise<Response>>;

export function loadRestRoute(distDir: string): RestRoute | null;
export function takesDirect(url: string): boolean;
export function serveDirect(route: RestRoute, req: IncomingMessage, res: ServerResponse): Promise<void>;
