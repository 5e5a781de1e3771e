// Assessment settings, read at call time so tests and operators can change them without a restart.
import { numberSetting } from "../env";

const num = (name: string, fallback: number, min = 0): number => numberSetting(name, fallback, { min, integer: false });

/** SERVICE_ASSESS_MX_TIMEOUT_MS: budget of the email domain's MX lookup; 0 turns the lookup off. */
export const mxTimeoutMs = () => num("SERVICE_ASSESS_MX_TIMEOUT_MS", 300);

/** SERVICE_ASSESS_HIGH_AMOUNT: a checkout amount at or above this (major units) is a signal; five times it weighs more. */
export const highAmount = () => num("SERVICE_ASSESS_HIGH_AMOUNT", 1000, 1);

/** SERVICE_ASSESS_VELOCITY_WINDOW_MINUTES: how far back earlier assessments count towards velocity. */
export const velocityWindowMinutes = () => num("SERVICE_ASSESS_VELOCITY_WINDOW_MINUTES", 60, 1);
