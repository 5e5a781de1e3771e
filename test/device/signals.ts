// Device objects as public/device.js sends them, for the device tests.

export const IP = "8.8.8.8"; // Mountain View in the shipped geolocation database

/** What device.js collects in an ordinary desktop Chrome on Windows. */
export const humanChrome = (visitor = "humanvisitor0001") => ({
  visitor_id: visitor,
  confidence: 0.6,
  webdriver: false,
  bot: { detected: false, kind: null },
  user_agent:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  client_hints: {
    brands: [
      { brand: "Google Chrome", version: "131" },
      { brand: "Chromium", version: "131" },
      { brand: "Not_A Brand", version: "24" },
    ],
    mobile: false,
    platform: "Windows",
  },
  platform: "Win32",
  languages: ["en-US", "en"],
  timezone: "America/Los_Angeles",
  timezone_offset: 300,
  screen: { width: 1920, height: 1080, color_depth: 24, pixel_ratio: 1 },
  touch: { max_touch_points: 0, touch_event: false },
  hardware: { concurrency: 8, memory: 8 },
  canvas_hash: "0123456789abcdef0123456789abcdef",
  webgl: {
    vendor: "Google Inc. (NVIDIA)",
    renderer: "ANGLE (NVIDIA GeForce RTX 3060)",
    hash: "fedcba9876543210fedcba9876543210",
  },
  headless_hints: [],
});
