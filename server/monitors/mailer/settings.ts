// Whether monitor alert emails can be sent here, and how: SERVICE_SMTP_URL names the SMTP server (unset: email
// alerts are off, and a monitor says so with `email_alerts.available: false`), SERVICE_SMTP_FROM the sender.
import { setting } from "../../env";

/** The configured SMTP server's URL, or null when email alerts are off (unset, or not an smtp(s) URL). */
export function smtpUrl(): string | null {
  const raw = setting("SERVICE_SMTP_URL");
  if (!raw) return null;
  try {
    return ["smtp:", "smtps:"].includes(new URL(raw).protocol) ? raw : null;
  } catch {
    return null;
  }
}

export const emailAvailable = () => smtpUrl() !== null;

/** The From address: SERVICE_SMTP_FROM, else alerts@ the public host, else alerts@localhost. */
export function smtpFrom(): string {
  const configured = setting("SERVICE_SMTP_FROM");
  if (configured) return configured;
  const publicUrl = setting("SERVICE_PUBLIC_URL");
  const host = publicUrl ? new URL(publicUrl).hostname : "localhost";
  return `alerts@${host}`;
}
