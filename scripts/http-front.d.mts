import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

export function createFront(
  handle: (req: IncomingMessage, res: ServerResponse) => unknown,
): (req: IncomingMessage, res: ServerResponse) => unknown;
export function answerClientError(
  err: Error & { code?: string; rawPacket?: Buffer },
  socket: Socket,
  previousUrl?: string | null,
): void;
export function answerConnect(req: IncomingMessage, socket: import("node:stream").Duplex): void;
export const PEER_ADDRESS_HEADER: "x-service-peer-address";
export const PEER_ADDRESS_FLAG: "__servicePeerAddressFromFront";
export function sendError(res: ServerResponse, status: number, code: string, message: string, head?: boolean): void;
export function countFrontAnswer(method: string, route: string, status: number, seconds: number): void;
export const BODY_READ: unique symbol;
export function plainSegments(path: string): boolean;
