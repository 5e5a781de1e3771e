// Weights of the device signals, the one table for /device/check and the device part of /assess.
export const DEVICE_WEIGHTS = {
  device_automation: 40,
  device_headless: 20,
  device_ua_mismatch: 15,
  device_timezone_mismatch: 10,
  device_no_languages: 5,
  device_many_accounts: 20,
  device_very_many_accounts: 35,
  device_many_ips: 10,
} as const;

export type DeviceSignalCode = keyof typeof DEVICE_WEIGHTS;

/** Distinct accounts (user ids or emails) on one device at or above which the device looks shared or farmed. */
export const MANY_ACCOUNTS = 3;
export const VERY_MANY_ACCOUNTS = 10;
export const MANY_IPS = 5;
