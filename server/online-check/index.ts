export { runOnlineCheck } from "./check";
export { runLocalProbe, runProbe } from "./probe";
export { probeLocations, onlineCheckRateLimit, onlineCheckRateWindowSeconds, type ProbeLocation } from "./config";
export { onlineCheckResultSchema, probeResultSchema, type OnlineCheckResult, type ProbeResult } from "./schemas";
