// A stored monitor alert as the alert, email and run modules read it (its own module: the email outbox and composer
// need the type, and alerts.ts needs the outbox).
export interface AlertRow {
  id: string;
  monitorId: string;
  workspaceId: string;
  type: string;
  check: string;
  severity: string;
  before: unknown;
  after: unknown;
  reminder: boolean;
  open: boolean;
  runId: string | null;
  createdAt: Date;
  lastNotifiedAt: Date | null;
}
