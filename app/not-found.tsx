import Link from "next/link";

export default function NotFound() {
  return (
    <main style={{ maxWidth: 720, margin: "4rem auto", padding: "0 1rem" }}>
      <h1>Page not found</h1>
      <p>There is nothing at this address.</p>
      <p>
        <Link href="/">Home</Link> · <Link href="/dashboard">Dashboard</Link> · <Link href="/docs">API reference</Link>
      </p>
    </main>
  );
}
