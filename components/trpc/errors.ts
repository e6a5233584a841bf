import { TRPCClientError } from "@trpc/client";
import type { AppRouter } from "@/server/trpc/routers/_app";

/** The contract error of a failed call (`code`, `param`, message), or a generic one. */
export function callError(error: unknown): { message: string; code: string | null; param: string | null } {
  if (error instanceof TRPCClientError) {
    const data = (error as TRPCClientError<AppRouter>).data;
    return { message: error.message, code: data?.apiError?.code ?? data?.code ?? null, param: data?.apiError?.param ?? null };
  }
  return { message: "Something went wrong. Try again.", code: null, param: null };
}
