// A fake Stripe API on 127.0.0.1 for the official `stripe` client (STRIPE_API_BASE points it here): customers,
// Checkout sessions, subscriptions (retrieve and price update), Customer Portal sessions, and a page at each
// session's URL so a browser can follow the Checkout redirect. Tests set subscription states directly, as Stripe
// would after a payment, a failure or a cancellation, and read what the service asked for in `calls`.
import http from "node:http";

export interface FakeSubscription {
  id: string;
  object: "subscription";
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  ended_at: number | null;
  metadata: Record<string, string>;
  items: {
    object: "list";
    data: {
      id: string;
      object: "subscription_item";
      price: { id: string; object: "price" };
      current_period_end: number;
    }[];
  };
}

export interface FakeStripe {
  url: string;
  port: number;
  calls: { method: string; path: string; params: Record<string, string>; idempotencyKey?: string }[];
  subscriptions: Map<string, FakeSubscription>;
  /** Creates (or replaces) a subscription as Stripe holds it. */
  putSubscription(a: {
    id: string;
    customer: string;
    price: string;
    status?: string;
    periodEnd?: Date;
    cancelAtPeriodEnd?: boolean;
  }): FakeSubscription;
  close(): Promise<void>;
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const calls: FakeStripe["calls"] = [];
  const subscriptions = new Map<string, FakeSubscription>();
  const customersByKey = new Map<string, string>();
  let seq = 0;
  const next = (prefix: string) => `${prefix}_fake${++seq}`;
  let base = "";

  const putSubscription: FakeStripe["putSubscription"] = (a) => {
    const end = Math.floor((a.periodEnd ?? new Date(Date.now() + 30 * 86_400_000)).getTime() / 1000);
    const sub: FakeSubscription = {
      id: a.id,
      object: "subscription",
      customer: a.customer,
      status: a.status ?? "active",
      cancel_at_period_end: a.cancelAtPeriodEnd ?? false,
      canceled_at: a.status === "canceled" ? Math.floor(Date.now() / 1000) : null,
      ended_at: a.status === "canceled" ? Math.floor(Date.now() / 1000) : null,
      metadata: {},
      items: {
        object: "list",
        data: [
          {
            id: `si_${a.id}`,
            object: "subscription_item",
            price: { id: a.price, object: "price" },
            current_period_end: end,
          },
        ],
      },
    };
    subscriptions.set(a.id, sub);
    return sub;
  };

  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0]!;
      const params = Object.fromEntries(new URLSearchParams(raw));
      const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
      calls.push({ method: req.method ?? "GET", path, params, idempotencyKey });
      const m = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
      if (req.method === "GET" && path.startsWith("/checkout/")) {
        res
          .writeHead(200, { "content-type": "text/html" })
          .end(`<!doctype html><title>Fake Stripe Checkout</title><h1>Fake Stripe Checkout</h1><p>${path}</p>`);
      } else if (req.method === "POST" && path === "/v1/customers") {
        // Stripe answers a repeated idempotency key with the same object.
        const id = (idempotencyKey && customersByKey.get(idempotencyKey)) || next("cus");
        if (idempotencyKey) customersByKey.set(idempotencyKey, id);
        json(res, 200, {
          id,
          object: "customer",
          name: params.name ?? null,
          email: params.email ?? null,
          metadata: {},
        });
      } else if (req.method === "POST" && path === "/v1/checkout/sessions") {
        const id = next("cs");
        json(res, 200, {
          id,
          object: "checkout.session",
          mode: params.mode,
          customer: params.customer,
          url: `${base}/checkout/${id}`,
          subscription: null,
        });
      } else if (req.method === "POST" && path === "/v1/billing_portal/sessions") {
        const id = next("bps");
        json(res, 200, {
          id,
          object: "billing_portal.session",
          customer: params.customer,
          url: `${base}/portal/${id}`,
          return_url: params.return_url,
        });
      } else if (m && (req.method === "GET" || req.method === "POST")) {
        const sub = subscriptions.get(decodeURIComponent(m[1]!));
        if (!sub)
          return json(res, 404, {
            error: { type: "invalid_request_error", code: "resource_missing", message: "No such subscription" },
          });
        if (req.method === "POST" && params["items[0][price]"])
          sub.items.data[0]!.price = { id: params["items[0][price]"], object: "price" };
        json(res, 200, sub);
      } else {
        json(res, 404, {
          error: { type: "invalid_request_error", message: `fake Stripe has no ${req.method} ${path}` },
        });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    port,
    calls,
    subscriptions,
    putSubscription,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The settings that put the service in Stripe mode against this fake. */
export function stripeEnv(fake: { url: string }): Record<string, string> {
  return {
    SERVICE_BILLING: "stripe",
    STRIPE_SECRET_KEY: "sk_test_fake",
    STRIPE_WEBHOOK_SECRET: "whsec_test_fake",
    STRIPE_API_BASE: fake.url,
    SERVICE_STRIPE_PRICE_EMAIL: "price_email",
    SERVICE_STRIPE_PRICE_SUITE_STARTER: "price_suite_starter",
    SERVICE_STRIPE_PRICE_SUITE_BUSINESS: "price_suite_business",
    SERVICE_STRIPE_PRICE_LOOKUPS_DEVELOPER: "price_lookups_developer",
    SERVICE_STRIPE_PRICE_SUITE_AGENCY: "price_suite_agency",
    SERVICE_STRIPE_PRICE_LOOKUPS_GROWTH: "price_lookups_growth",
  };
}
