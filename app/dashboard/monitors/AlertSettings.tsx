// Where a monitor's alerts go: webhooks subscribed to monitor.alert / monitor.resolved (set up on the webhooks
// page), and events in the workspace's event log.
import Link from "next/link";

export function AlertSettings() {
  return (
    <section className="card" aria-labelledby="alert-settings-heading" data-testid="alert-settings">
      <h2 id="alert-settings-heading">Alert settings</h2>
      <p>
        Every alert is an event in the <Link href="/dashboard/events">event log</Link>. To have alerts sent to your
        systems, add a webhook on the <Link href="/dashboard/webhooks">webhooks page</Link> with the event types{" "}
        <code>monitor.alert</code> (a change, a reminder, a skipped run) and <code>monitor.resolved</code> (a problem
        cleared). Webhooks apply to all the workspace&apos;s monitors.
      </p>
    </section>
  );
}
