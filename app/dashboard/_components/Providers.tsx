"use client";
// React Query + tRPC for the dashboard. Every call carries the selected workspace in X-Service-Workspace, so the
// server never has to guess; the layout remounts this provider (key) when the workspace changes.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { useState, type ReactNode } from "react";
import { MAX_BATCH_CALLS } from "../../../server/api/batch-limit";
import type { AppRouter } from "../../../server/api/root";
import { TRPCProvider } from "./trpc";

export function Providers({ workspaceId, children }: { workspaceId: string | null; children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, retry: false, refetchOnWindowFocus: false } } }),
  );
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        httpBatchLink({
          url: "/api/trpc",
          maxItems: MAX_BATCH_CALLS,
          headers: () => (workspaceId ? { "X-Service-Workspace": workspaceId } : {}),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
