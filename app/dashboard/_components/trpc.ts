"use client";
// The typed tRPC hooks for dashboard client components: useTRPC() for query/mutation options,
// useTRPCClient() for calling a procedure by its path (the lookup console).
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { AppRouter } from "../../../server/api/root";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();
