// Assessment settings, read at call time so tests and operators can change them without a restart.
import { setting } from "../env";

/** SERVICE_ASSESS_MX_TIMEOUT_MS: budget of the email domain's MX lookup; 0 turns the lookup off. */
export const mxTimeoutMs = () => setting("SERVICE_ASSESS_MX_TIMEOUT_MS");

/** SERVICE_ASSESS_HIGH_AMOUNT: a checkout amount at or above this (major units) is a signal; five times it weighs more. */
export const highAmount = () => setting("SERVICE_ASSESS_HIGH_AMOUNT");

/** SERVICE_ASSESS_VELOCITY_WINDOW_MINUTES: how far back earlier assessments count towards velocity. */
export const velocityWindowMinutes = () => setting("SERVICE_ASSESS_VELOCITY_WINDOW_MINUTES");

/** SERVICE_ASSESS_SMALL_AMOUNT_MINOR: a payment below this many minor units is a small amount (card testers' probes). */
export const smallAmountMinor = () => setting("SERVICE_ASSESS_SMALL_AMOUNT_MINOR");
