// Types of scripts/startup-gate.mjs for the TypeScript tests.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
export function startupGate(
  handler: (req: IncomingMessage, res: ServerResponse) => unknown,
  options?: {
    answersWithoutDatabase?: (req: IncomingMessage) => boolean;
    routeLabel?: (req: IncomingMessage) => string;
  },
): (req: IncomingMessage, res: ServerResponse) => unknown;
export function countUnrouted(server: Server): void;
export function startBeforeListening(handler: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<void>;
export const STARTUP_REQUEST_HEADER: "x-service-startup-request";
