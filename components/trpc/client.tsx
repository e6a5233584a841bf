"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import { useState, type ReactNode } from "react";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { environmentHeader, type Environment } from "@/server/staff/data-set";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: (count, error) => count < 2 && !("data" in error && error.data) },
    },
  });
}

/**
 * tRPC and React Query for the dashboard. Every call names the data set on screen in the
 * `Service-Environment` header; the layout remounts this provider (and so empties its cache)
 * whenever the live/sandbox switch moves.
 */
export function TRPCReactProvider({ environment, children }: { environment: Environment; children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        // Subscriptions are server-sent events (EventSource sends no custom header: the
        // switch's cookie names the data set there); everything else is batched HTTP.
        splitLink({
          condition: (op) => op.type === "subscription",
          true: httpSubscriptionLink({ url: "/api/trpc" }),
          false: httpBatchLink({ url: "/api/trpc", headers: () => ({ [environmentHeader]: environment }) }),
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
