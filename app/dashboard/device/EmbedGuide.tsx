"use client";
// How to embed the script: the page posts the signals to the customer's backend, which forwards them with its key.
import { CopyButton } from "../_components/CopyButton";
import { usePageOrigin } from "../_components/usePageOrigin";

export function EmbedGuide() {
  const origin = usePageOrigin();
  const tag = `<script src="${origin}/device.js" data-endpoint="/api/device-signals" async></script>`;
  const server = `// On your server, at /api/device-signals:
const { device } = await request.json();
const res = await fetch("${origin}/v1/device/check", {
  method: "POST",
  headers: { Authorization: "Bearer " + process.env.SERVICE_API_KEY, "Content-Type": "application/json" },
  body: JSON.stringify({ device, ip: clientIp, user_id: session.userId }),
});`;
  return (
    <section aria-labelledby="embed">
      <h2 id="embed">Embed the script</h2>
      <p className="small">
        Add this tag to your sign-up, login or checkout page. It posts <code>{"{ device }"}</code> to the address in{" "}
        <code>data-endpoint</code> on your own site; without it nothing is sent and you call{" "}
        <code>ServiceDevice.collect()</code> yourself. Keep your API key on your server.
      </p>
      <pre className="raw-json embed-code" tabIndex={0}>
        {tag}
      </pre>
      <CopyButton text={tag} label="Copy the tag" />
      <p className="small">
        Your endpoint forwards the signals, with the visitor&apos;s IP address, to the device check or to{" "}
        <code>POST /v1/assess</code> as <code>device</code>:
      </p>
      <pre className="raw-json embed-code" tabIndex={0}>
        {server}
      </pre>
    </section>
  );
}
