// Next.js calls register() once when the server starts, before it serves requests.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // Traces only when an OTLP endpoint is configured; otherwise no OpenTelemetry package is loaded.
    if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
      const { startTracing } = await import("./server/operate/tracing");
      await startTracing();
    }
    const { startServer } = await import("./server/startup/index");
    await startServer();
  }
}
