// The svc_workspace cookie remembers the selected workspace between visits; the server validates it against
// the user's memberships on every request, so a forged value selects nothing.
export function selectWorkspace(workspaceId: string): void {
  document.cookie = `svc_workspace=${encodeURIComponent(workspaceId)}; path=/; max-age=31536000; SameSite=Lax`;
}
