"use client";
// The analytics page's error tables: the range's most frequent error statuses in words, and requests, 4xx and 5xx
// per endpoint (the API's by their published summary and route, the dashboard's own calls in words: procedure-names.ts).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../server/api/root";
import type { ProcedureName } from "./procedure-names";
import { statusInWords } from "./status-words";

type Timeseries = inferRouterOutputs<AppRouter>["workspace"]["analyticsTimeseries"];

const fmt = new Intl.NumberFormat("en-US");
export const percent = (r: number) => `${(r * 100).toFixed(1)} %`;

/** The range's most frequent error statuses, each with what it means ("402 Out of lookup units"). */
export function TopErrors({ errors, requests }: { errors: Timeseries["responses"]["topErrors"]; requests: number }) {
  return (
    <section className="card chart-card" aria-labelledby="top-errors-title" data-testid="top-errors">
      <h2 id="top-errors-title">Top error statuses</h2>
      {errors.length === 0 ? (
        <p className="muted small chart-empty" data-testid="top-errors-empty">
          {requests === 0 ? "No requests in this range." : "No request was refused or failed in this range."}
        </p>
      ) : (
        <div
          className="chart-table-scroll"
          tabIndex={0}
          role="region"
          aria-label="Top error statuses (scrolls sideways)"
        >
          <table className="list">
            <caption className="visually-hidden">
              The most frequent error statuses of the range, with the requests answered with each
            </caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Requests</th>
                <th scope="col">Share of all requests</th>
              </tr>
            </thead>
            <tbody>
              {errors.map((e) => (
                <tr key={`${e.status} ${e.code ?? ""}`} data-testid={`top-error-${e.status}`}>
                  <th scope="row">{statusInWords(e.status, e.code)}</th>
                  <td className="num">{fmt.format(e.requests)}</td>
                  <td className="num">{requests === 0 ? "—" : percent(e.requests / requests)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const ENDPOINTS_SHOWN = 10;
/** A procedure the server no longer has (renamed since the day counted): not said by its path. */
const OTHER_CALL = "Other request";

/** Requests and errors per endpoint, the ones with the most errors first. */
export function EndpointErrors({
  endpoints,
  procedures,
}: {
  endpoints: Timeseries["responses"]["endpoints"];
  procedures: Record<string, ProcedureName>;
}) {
  if (endpoints.length === 0) return null;
  const shown = endpoints.slice(0, ENDPOINTS_SHOWN);
  return (
    <section className="card chart-card" aria-labelledby="endpoint-errors-title" data-testid="endpoint-errors">
      <h2 id="endpoint-errors-title">Requests and errors per endpoint</h2>
      <p className="muted small chart-note">
        {endpoints.length > ENDPOINTS_SHOWN
          ? `The ${ENDPOINTS_SHOWN} endpoints with the most errors, of ${endpoints.length}.`
          : "Every endpoint called in the range, the most errors first."}
      </p>
      <div
        className="chart-table-scroll"
        tabIndex={0}
        role="region"
        aria-label="Requests and errors per endpoint (scrolls sideways)"
      >
        <table className="list endpoint-errors">
          <caption className="visually-hidden">
            Requests, client errors and server errors per endpoint in the range
          </caption>
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">Requests</th>
              <th scope="col">4xx</th>
              <th scope="col">5xx</th>
              <th scope="col">Error rate</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((e) => {
              const name = procedures[e.endpoint];
              return (
                <tr key={e.endpoint}>
                  <th scope="row">
                    {name?.summary ?? OTHER_CALL}
                    {name ? <span className="muted small endpoint-route">{name.route ?? "Dashboard"}</span> : null}
                  </th>
                  <td className="num">{fmt.format(e.requests)}</td>
                  <td className="num">{fmt.format(e.clientErrors)}</td>
                  <td className="num">{fmt.format(e.serverErrors)}</td>
                  <td className="num">
                    {e.requests === 0 ? "—" : percent((e.clientErrors + e.serverErrors) / e.requests)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
