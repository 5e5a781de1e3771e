// Shows a failed call the way the API names it: the app's error code and its message.
type MaybeTrpcError = { message?: string; data?: { appCode?: string } | null } | null | undefined;

export function errorCode(err: unknown): string | null {
  return (err as MaybeTrpcError)?.data?.appCode ?? null;
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const e = error as MaybeTrpcError;
  const code = e?.data?.appCode;
  return (
    <p className="error" role="alert" data-testid="error-note">
      {code ? <code>{code}</code> : null} {e?.message ?? "Something went wrong."}
    </p>
  );
}
