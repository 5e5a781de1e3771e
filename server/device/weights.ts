// Weights of the device signals for /device/check and the device part of /assess: the device rows of the one table
// of signal weights (server/scoring/signal-weights.ts), as code -> points.
import { SIGNALS, signalsOf, type CodesOf } from "../scoring/signal-weights";

export const DEVICE_WEIGHTS = Object.fromEntries(
  Object.keys(signalsOf("device")).map((code) => [code, SIGNALS[code as CodesOf<"device">].weight]),
) as { readonly [K in CodesOf<"device">]: (typeof SIGNALS)[K]["weight"] };

export type DeviceSignalCode = keyof typeof DEVICE_WEIGHTS;

/** Distinct accounts (user ids or emails) on one device at or above which the device looks shared or farmed. */
export const MANY_ACCOUNTS = 3;
export const VERY_MANY_ACCOUNTS = 10;
export const MANY_IPS = 5;
