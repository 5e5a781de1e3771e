import Link from "next/link";

export default function Home() {
  return (
    <main style={{ maxWidth: 720, margin: "4rem auto", padding: "0 1rem" }}>
      <h1>Security and Fraud Intelligence API</h1>
      <p>Score signups, logins and checkouts; look up IPs, domains, DNS, email, TLS certificates, blocklists and package vulnerabilities.</p>
      <ul>
        <li><Link href="/dashboard">Dashboard</Link></li>
        <li><Link href="/docs">API reference</Link> (<a href="/v1/openapi.json">openapi.json</a>)</li>
      </ul>
      <p style={{ color: "var(--muted)", fontSize: 14 }}>
        <a href="https://db-ip.com">IP Geolocation by DB-IP</a>
      </p>
    </main>
  );
}
