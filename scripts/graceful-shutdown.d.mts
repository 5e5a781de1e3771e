import type { Server } from "node:http";

/** SERVICE_SHUTDOWN_DELAY_MS and SERVICE_SHUTDOWN_GRACE_MS, by the registry's defaults and rule. */
export function shutdownTimings(): { delayMs: number; graceMs: number };
export function installGracefulShutdown(o: { server: Server; app?: { close?: () => Promise<void> } }): void;
/** The signals that drain the server (scripts/start.mjs passes the same on to it). */
export const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[];
