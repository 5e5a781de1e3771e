/**
 * Whether the operator declared a production deployment (SERVICE_ENV=production). NODE_ENV cannot tell: `next
 * start` always runs with NODE_ENV=production, also for a newcomer's local `npm start` and for test servers.
 * `npm start` sets SERVICE_ENV=production itself when the operator started it with NODE_ENV=production.
 */
export function isProductionDeployment(): boolean {
  return process.env.SERVICE_ENV?.trim().toLowerCase() === "production";
}
