// Writes the OpenAPI document exactly as the server serves it at /v1/openapi.json (asked through the REST API in
// this process; no database or network needed) to the given file, or to stdout. Used by `npm run lint:openapi`
// and `npm run client:generate`.
import { writeFileSync } from "node:fs";
import { handleRestRequest } from "../server/api/rest/handler";

export async function servedOpenApiDocument(): Promise<Record<string, unknown>> {
  const res = await handleRestRequest(new Request("http://127.0.0.1/v1/openapi.json"));
  if (res.status !== 200) throw new Error(`GET /v1/openapi.json answered ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

if (process.argv[1]?.endsWith("openapi-document.ts")) {
  process.env.LOG_LEVEL ||= "silent"; // the document goes to stdout: no request log line in it
  const text = `${JSON.stringify(await servedOpenApiDocument(), null, 2)}\n`;
  if (process.argv[2]) writeFileSync(process.argv[2], text);
  else process.stdout.write(text);
}
