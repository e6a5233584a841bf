import { TRPCClientError } from "@trpc/client";
import { shownFormat } from "@/components/ui/property-format";
import { formatDay } from "@/lib/dates";
import { formatMoney } from "@/lib/money";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { staffErrorMessage } from "@/lib/words";

/**
 * The contract error of a failed call (`code`, `param`) with its message in the staff's words
 * (server/words.ts `staffErrorMessage`: amounts in the property's format), or a generic one.
 */
export function callError(error: unknown): { message: string; code: string | null; param: string | null } {
  if (error instanceof TRPCClientError) {
    const data = (error as TRPCClientError<AppRouter>).data;
    const code = data?.apiError?.code ?? data?.code ?? null;
    const param = data?.apiError?.param ?? null;
    const { locale } = shownFormat();
    const message = staffErrorMessage({ code, param, message: error.message, amount: data?.apiError?.amount }, { money: (m) => formatMoney(m, locale), day: (d) => formatDay(d, locale, "medium") });
    return { message, code, param };
  }
  return { message: "Something went wrong. Try again.", code: null, param: null };
}
