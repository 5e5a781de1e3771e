// The dashboard page of a monitor, as alerts (webhooks, email) and the API answer link to it: on the configured public
// origin, else the local server's. A module of its own because the answer, the alerts and the email composer all
// need it and none of them should import another for it.
import { setting } from "../env";

export function monitorUrl(id: string): string {
  const base = (setting("SERVICE_PUBLIC_URL") ?? `http://localhost:${setting("PORT")}`).replace(/\/+$/, "");
  return `${base}/dashboard/monitors/${id}`;
}
