export declare const SHUTDOWN_DEFAULTS: Readonly<{
  SERVICE_SHUTDOWN_DELAY_MS: number;
  SERVICE_SHUTDOWN_GRACE_MS: number;
}>;
export declare const SHUTDOWN_MINIMUMS: Readonly<{
  SERVICE_SHUTDOWN_DELAY_MS: number;
  SERVICE_SHUTDOWN_GRACE_MS: number;
}>;
export function shutdownTiming(name: keyof typeof SHUTDOWN_DEFAULTS, env?: Record<string, string | undefined>): number;
