// OpenTelemetry traces over OTLP/HTTP, only when OTEL_EXPORTER_OTLP_ENDPOINT (or ..._TRACES_ENDPOINT) is set:
// instrumentation.ts imports this module only then, so without it no OpenTelemetry package is even loaded.
// Spans: one per /v1 request named by its route template (server/operate/observe.ts), Next.js's own request
// spans, every Prisma query (@prisma/instrumentation) and every upstream call made with fetch (undici).
// The standard OTEL_* variables apply (OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_HEADERS, ...).
import type { Tracer } from "@opentelemetry/api";
import { ConfigurationError, setting } from "../env";

export interface TraceHooks {
  tracer: Tracer;
  api: typeof import("@opentelemetry/api");
  shutdown(): Promise<void>;
  forceFlush(): Promise<void>;
}

const g = globalThis as unknown as { __serviceTracing?: TraceHooks };

export function tracingConfigured(): boolean {
  try {
    return Boolean(setting("OTEL_EXPORTER_OTLP_ENDPOINT") || setting("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"));
  } catch (err) {
    // An endpoint that is no http(s) URL: no tracing here; start-up's check of every setting, which runs next, names
    // it and stops the server (instrumentation.ts starts tracing first, where Next would report a throw in its own
    // words, with its stack).
    if (err instanceof ConfigurationError) return false;
    throw err;
  }
}

export async function startTracing(): Promise<TraceHooks | null> {
  if (!tracingConfigured()) return null;
  if (g.__serviceTracing) return g.__serviceTracing;
  const [
    api,
    { NodeTracerProvider },
    { BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { registerInstrumentations },
    { UndiciInstrumentation },
    { PrismaInstrumentation },
  ] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/instrumentation"),
    import("@opentelemetry/instrumentation-undici"),
    import("@prisma/instrumentation"),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      "service.name": setting("OTEL_SERVICE_NAME"),
    }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    // Upstream calls are traced by method and host; query strings can hold what a caller looked up.
    instrumentations: [
      new UndiciInstrumentation({ requestHook: (span) => span.setAttribute("url.query", "[omitted]") }),
      new PrismaInstrumentation(),
    ],
  });
  g.__serviceTracing = {
    api,
    tracer: api.trace.getTracer("service"),
    shutdown: () => provider.shutdown(),
    forceFlush: () => provider.forceFlush(),
  };
  return g.__serviceTracing;
}

/** The hooks when tracing runs in this process, else null (read through globalThis; nothing is imported). */
export function tracing(): TraceHooks | null {
  return g.__serviceTracing ?? null;
}
