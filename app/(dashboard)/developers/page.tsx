import { redirect } from "next/navigation";

// /developers: the console opens on the webhook endpoints.
export default function DevelopersPage() {
  redirect("/developers/webhooks");
}
