import { getTranslations } from "next-intl/server";

// A booking page's 404: no hotel has this address, or its engine is switched off.
export default async function NoBookingPage() {
  const t = await getTranslations("book.missing");
  return (
    <main className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-xl font-semibold">{t("title")}</h1>
      <p className="mt-2 text-sm text-stone-600">{t("body")}</p>
    </main>
  );
}
