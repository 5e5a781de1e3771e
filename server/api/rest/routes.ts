// The table of registered REST routes (method + path template), built once from the procedures' OpenAPI meta.
// It decides 404 LOOKUP_NOT_FOUND and CORS preflight before any authentication or other work happens.
import type { AnyTRPCRouter } from "@trpc/server";
import {
  forEachOpenApiProcedure,
  getInputOutputParsers,
  instanceofZodTypeLikeVoid,
  unwrapZodType,
} from "trpc-to-openapi";

export interface RestRoute {
  method: string;
  template: string;
  regex: RegExp;
  params: string[];
  procedurePath: string;
  type: "query" | "mutation";
  takesInput: boolean;
  arrayKeys: Set<string>;
  /** Query parameters read as numbers: written in decimal digits only (see plain-door.ts assembleInput). */
  numberKeys: Set<string>;
}

// Parameters that may hold unencoded slashes (a Go module path such as github.com/gin-gonic/gin); the spec
// allows URL-encoding them "when slashes cannot be preserved", so both spellings are accepted.
const SLASH_PARAMS = new Set(["coordinate"]);

function templateRegex(template: string): { regex: RegExp; params: string[] } {
  const params: string[] = [];
  const trimmed = template.replace(/\/+$/, "");
  const source = trimmed
    .split("/")
    .map((seg) => {
      const m = /^\{(.+)\}$/.exec(seg);
      if (m) {
        params.push(m[1]);
        return SLASH_PARAMS.has(m[1]) ? "([^/]+(?:/[^/]+)*?)" : "([^/]+)";
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  // The spec writes some paths with a trailing slash; accept both spellings.
  return { regex: new RegExp(`^${source}/?$`), params };
}

export function buildRouteTable(router: AnyTRPCRouter): RestRoute[] {
  const routes: RestRoute[] = [];
  forEachOpenApiProcedure(router._def.procedures, ({ path, procedure, meta }) => {
    const def = (procedure as unknown as { _def: { type: string } })._def;
    if (def.type === "subscription") return;
    const { inputParser } = getInputOutputParsers(procedure as never);
    const unwrapped = unwrapZodType(inputParser as never, true) as unknown;
    const takesInput = !instanceofZodTypeLikeVoid(unwrapped as never);
    const arrayKeys = new Set<string>();
    const numberKeys = new Set<string>();
    const shape = (unwrapped as { shape?: Record<string, unknown> }).shape;
    if (shape) {
      for (const [key, field] of Object.entries(shape)) {
        const inner = unwrapZodType(field as never, true) as unknown as { def?: { type?: string } };
        if (inner?.def?.type === "array") arrayKeys.add(key);
        if (inner?.def?.type === "number") numberKeys.add(key);
      }
    }
    const { regex, params } = templateRegex(meta.openapi.path);
    routes.push({
      method: meta.openapi.method.toUpperCase(),
      template: meta.openapi.path,
      regex,
      params,
      procedurePath: path,
      type: def.type as "query" | "mutation",
      takesInput,
      arrayKeys,
      numberKeys,
    });
  });
  // Literal segments win over parameters (e.g. /events.csv before /events/{id}).
  routes.sort((a, b) => a.params.length - b.params.length);
  return routes;
}

export function matchRoute(
  routes: RestRoute[],
  method: string,
  path: string,
): { route: RestRoute; rawParams: Record<string, string> } | null {
  for (const route of routes) {
    if (route.method !== method) continue;
    const m = route.regex.exec(path);
    if (!m) continue;
    const rawParams: Record<string, string> = {};
    route.params.forEach((name, i) => (rawParams[name] = m[i + 1]));
    return { route, rawParams };
  }
  return null;
}

export function pathIsRegistered(routes: RestRoute[], path: string): boolean {
  return routes.some((r) => r.regex.test(path));
}
