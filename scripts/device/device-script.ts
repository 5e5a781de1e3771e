// Source of public/device.js (bundled by scripts/device/build.mjs). Two ways to include it in a page:
//
//   Backend mode: <script src="https://YOUR-SERVICE/device.js" data-endpoint="/api/device-signals" async></script>
//   Direct mode:  <script src="https://YOUR-SERVICE/device.js" data-publishable-key="pk_live_…"
//                   data-endpoint="https://YOUR-SERVICE/v1/device/check" async></script>
//
// It collects browser signals, builds a stable visitor id (FingerprintJS, MIT) and runs the in-page bot detector
// (BotD, MIT). Backend mode POSTs `{ device }` as JSON to data-endpoint (your backend, which forwards it to
// POST /v1/device/check or POST /assess with its secret key: that key never reaches the browser). Direct mode
// POSTs `{ device }` to POST /v1/device/check itself with the publishable key (which can do nothing else, only
// from the key's allowed origins), and hands the diagnosis to the page: `ServiceDevice.diagnosis`, the
// `service-device-diagnosis` event (detail: the diagnosis, or `{ error }`) and the promise
// `ServiceDevice.ready`; send its `device_id` to your backend, which passes it to POST /assess. Without
// data-endpoint nothing is sent; call `ServiceDevice.collect()` yourself. Every run also fires a
// `service-device` event on window with the signals in `detail`. Neither library's usage ping is enabled.
import FingerprintJS from "@fingerprintjs/fingerprintjs";
import { load as loadBotd } from "@fingerprintjs/botd";

type Signals = Record<string, unknown>;

function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

async function hash(s: string): Promise<string> {
  try {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s));
    return Array.from(new Uint8Array(digest).slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
  } catch {
    return fnv1a(s); // crypto.subtle exists only in secure contexts
  }
}

async function canvasHash(): Promise<string | null> {
  try {
    const c = document.createElement("canvas");
    c.width = 240;
    c.height = 60;
    const g = c.getContext("2d");
    if (!g) return null;
    g.textBaseline = "top";
    g.font = "16px Arial";
    g.fillStyle = "#f60";
    g.fillRect(100, 1, 62, 20);
    g.fillStyle = "#069";
    g.fillText("Device check, 😃 1.0", 2, 15);
    g.fillStyle = "rgba(102, 204, 0, 0.7)";
    g.arc(50, 30, 20, 0, Math.PI * 2);
    g.fill();
    return await hash(c.toDataURL());
  } catch {
    return null;
  }
}

async function webgl(): Promise<Signals | null> {
  try {
    const gl = document.createElement("canvas").getContext("webgl") as WebGLRenderingContext | null;
    if (!gl) return null;
    const dbg = gl.getExtension("WEBGL_debug_renderer_info");
    const vendor = dbg ? String(gl.getParameter(dbg.UNMASKED_VENDOR_WEBGL)) : String(gl.getParameter(gl.VENDOR));
    const renderer = dbg ? String(gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL)) : String(gl.getParameter(gl.RENDERER));
    const params = [gl.MAX_TEXTURE_SIZE, gl.MAX_VERTEX_ATTRIBS, gl.MAX_VIEWPORT_DIMS, gl.ALIASED_LINE_WIDTH_RANGE].map(
      (p) => String(gl.getParameter(p)),
    );
    return {
      vendor,
      renderer,
      hash: await hash([vendor, renderer, ...params, (gl.getSupportedExtensions() ?? []).join(",")].join("|")),
    };
  } catch {
    return null;
  }
}

async function clientHints(): Promise<Signals | null> {
  const uad = (
    navigator as unknown as {
      userAgentData?: {
        brands: { brand: string; version: string }[];
        mobile: boolean;
        platform: string;
        getHighEntropyValues?(h: string[]): Promise<Record<string, unknown>>;
      };
    }
  ).userAgentData;
  if (!uad) return null;
  let platformVersion: string | undefined;
  try {
    platformVersion =
      String((await uad.getHighEntropyValues?.(["platformVersion"]))?.platformVersion ?? "") || undefined;
  } catch {
    platformVersion = undefined;
  }
  return {
    brands: uad.brands.map((b) => ({ brand: b.brand, version: b.version })),
    mobile: uad.mobile,
    platform: uad.platform,
    platform_version: platformVersion,
  };
}

function headlessHints(): string[] {
  const hints: string[] = [];
  const ua = navigator.userAgent;
  if (/HeadlessChrome/.test(ua)) hints.push("HeadlessChrome in the user agent");
  if (/Chrome\//.test(ua) && !(window as unknown as { chrome?: unknown }).chrome)
    hints.push("window.chrome is missing in Chrome");
  if (/Chrome\//.test(ua) && !/Mobile|Android/.test(ua) && navigator.plugins.length === 0)
    hints.push("no plugins in desktop Chrome");
  if (window.outerWidth === 0 && window.outerHeight === 0) hints.push("the window has no outer size");
  if (!navigator.languages || navigator.languages.length === 0) hints.push("navigator.languages is empty");
  return hints;
}

export async function collect(): Promise<Signals> {
  const [fp, botd, canvas, gl, ch] = await Promise.all([
    FingerprintJS.load({ monitoring: false }).then((a) => a.get()),
    loadBotd({ monitoring: false })
      .then((b) => b.detect())
      .catch(() => null),
    canvasHash(),
    webgl(),
    clientHints(),
  ]);
  const nav = navigator as Navigator & { deviceMemory?: number };
  return {
    visitor_id: fp.visitorId,
    confidence: fp.confidence.score,
    webdriver: typeof navigator.webdriver === "boolean" ? navigator.webdriver : null,
    bot: botd
      ? { detected: botd.bot, kind: botd.bot ? String((botd as { botKind?: string }).botKind ?? "") || null : null }
      : undefined,
    user_agent: navigator.userAgent,
    client_hints: ch,
    platform: navigator.platform,
    languages: Array.from(navigator.languages ?? []),
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    timezone_offset: new Date().getTimezoneOffset(),
    screen: {
      width: screen.width,
      height: screen.height,
      color_depth: screen.colorDepth,
      pixel_ratio: window.devicePixelRatio,
    },
    touch: { max_touch_points: navigator.maxTouchPoints ?? 0, touch_event: "ontouchstart" in window },
    hardware: { concurrency: navigator.hardwareConcurrency ?? null, memory: nav.deviceMemory ?? null },
    canvas_hash: canvas,
    webgl: gl,
    headless_hints: headlessHints(),
  };
}

export async function send(endpoint: string, extra: Record<string, unknown> = {}): Promise<Response> {
  const device = await collect();
  return fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify({ ...extra, device }),
  });
}

/** Direct mode: the device check itself, with a publishable key; resolves to the diagnosis or throws its error. */
export async function check(endpoint: string, publishableKey: string): Promise<Record<string, unknown>> {
  const device = await collect();
  window.dispatchEvent(new CustomEvent("service-device", { detail: device }));
  // No cookies: the key is the only credential, and CORS never allows credentials.
  const res = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${publishableKey}` },
    credentials: "omit",
    body: JSON.stringify({ device }),
  });
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok || !body)
    throw Object.assign(new Error(`device check answered ${res.status}`), { status: res.status, body });
  return body;
}

type Api = {
  collect: typeof collect;
  send: typeof send;
  check: typeof check;
  diagnosis: Record<string, unknown> | null;
  ready: Promise<Record<string, unknown> | null>;
};

const script = document.currentScript as HTMLScriptElement | null;
const endpoint = script?.dataset.endpoint;
const publishableKey = script?.dataset.publishableKey;
const api: Api = { collect, send, check, diagnosis: null, ready: Promise.resolve(null) };
(window as unknown as { ServiceDevice: Api }).ServiceDevice = api;
if (endpoint && publishableKey) {
  api.ready = check(endpoint, publishableKey).then(
    (diagnosis) => {
      api.diagnosis = diagnosis;
      window.dispatchEvent(new CustomEvent("service-device-diagnosis", { detail: diagnosis }));
      return diagnosis;
    },
    (err: Error & { status?: number; body?: unknown }) => {
      console.warn("device.js:", err);
      window.dispatchEvent(
        new CustomEvent("service-device-diagnosis", {
          detail: { error: { status: err.status ?? null, body: err.body ?? null, message: err.message } },
        }),
      );
      return null;
    },
  );
} else {
  collect()
    .then(async (device) => {
      window.dispatchEvent(new CustomEvent("service-device", { detail: device }));
      if (endpoint)
        await fetch(endpoint, {
          method: "POST",
          headers: { "content-type": "application/json" },
          credentials: "same-origin",
          body: JSON.stringify({ device }),
        });
    })
    .catch((err) => console.warn("device.js:", err));
}
