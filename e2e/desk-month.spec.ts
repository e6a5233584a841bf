import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { expect, test } from "./test";
import { expectNoSeriousAxe } from "./axe";
import { expectNoHorizontalScroll, signIn, snap } from "./helpers";
import { hotelOfItsOwn } from "./own-hotel";
import { scan } from "./words-scan";

// Issue 39, points 1 and 6 as an owner meets them: the hotel's own mail server under Settings (a
// real SMTP server started here refuses a wrong password, then takes the test and the held
// confirmation, and the held-mail banner goes), and the guest's data as a page in words. Each at
// 1280 and 390 px, with axe. The hotel is an account of its own, so no other spec's mail changes.

test.describe.configure({ timeout: 150_000 });

test("an owner sets up the mail server: a refused password is said in words, the test then goes, and the held mail with it", async ({ page, request }) => {
  const password = "harbour-smtp-pass";
  const delivered: { to: string; data: string }[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === "desk@harbour.example" && auth.password === password) return callback(null, { user: auth.username });
      callback(Object.assign(new Error("5.7.8 Username and Password not accepted"), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      let data = "";
      stream.on("data", (c: Buffer) => (data += c.toString()));
      stream.on("end", () => {
        delivered.push({ to: session.envelope.rcptTo[0].address, data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  try {
    const hotel = await hotelOfItsOwn(request, { name: "Mail Harbour Inn", role: "owner", timezone: "America/New_York", rooms: ["101"] });
    await hotel.book("Hal", "Held", 1, 3);
    await signIn(page, hotel.staff);

    await page.goto("/developers/outbox");
    await expect(page.getByTestId("mail-held")).toContainText("no mail server is set up");

    await page.goto("/settings");
    const form = page.getByRole("form", { name: "Mail server settings" });
    await form.getByLabel("Server (SMTP host)").fill("127.0.0.1");
    await form.getByLabel("Port").fill(String(port));
    await form.getByLabel("User name").fill("desk@harbour.example");
    await form.getByLabel("Password").fill("not-the-password");
    await form.getByLabel("Sender's address").fill("reservations@harbour.example");
    await form.getByLabel("Sender's name").fill("Harbour Inn");
    await form.getByLabel(/Replies go to/).fill("desk@harbour.example");
    await form.getByRole("button", { name: "Save mail server" }).click();
    await expect(form.getByText("A password is saved: leave empty to keep it.")).toBeVisible();
    await expect(form.getByLabel("Password")).toHaveValue("");

    const test = page.getByRole("form", { name: "Send a test e-mail" });
    await test.getByLabel("Send a test to").fill("owner@harbour.example");
    await test.getByRole("button", { name: "Send test e-mail" }).click();
    await expect(page.getByTestId("test-mail-result")).toContainText("The mail server refused the user name or password.");
    await expect(page.getByTestId("test-mail-result")).toContainText("Username and Password not accepted");

    await form.getByLabel("Password").fill(password);
    await form.getByRole("button", { name: "Save mail server" }).click();
    await expect(page.getByTestId("test-mail-result")).toHaveCount(0);
    // The saved settings replace the form, never sit beside it.
    await expect(page.getByRole("form", { name: "Mail server settings" })).toHaveCount(1);
    await expect(form.getByRole("button", { name: "Save mail server" })).toBeEnabled();
    await test.getByLabel("Send a test to").fill("owner@harbour.example");
    await test.getByRole("button", { name: "Send test e-mail" }).click();
    await expect(page.getByTestId("test-mail-result")).toHaveText("The test e-mail was sent to owner@harbour.example. Check that it arrived.");
    expect(delivered.find((d) => d.to === "owner@harbour.example")?.data).toContain("From: Harbour Inn <reservations@harbour.example>");

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole("heading", { name: "Mail server" }).scrollIntoViewIfNeeded();
      await expectNoSeriousAxe(page);
      if (width === 390) await expectNoHorizontalScroll(page);
      expect(scan(await page.locator("main").innerText())).toEqual([]);
      await snap(page, "settings-mail-server");
    }

    // The held confirmation goes through the hotel's server; the banner is gone.
    await expect.poll(() => delivered.filter((d) => d.to.startsWith("held.")).length, { timeout: 60_000 }).toBe(1);
    await page.goto("/developers/outbox");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByTestId("mail-held")).toHaveCount(0);
  } finally {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
});

test("the guest's data reads as a page in words, beside the download", async ({ page, request }) => {
  const hotel = await hotelOfItsOwn(request, { name: "Data Harbour Inn", role: "owner", timezone: "America/New_York", rooms: ["101"] });
  const stay = (await hotel.book("Dora", "Data", 2, 2)) as { id: string; guest: { id: string } };
  await hotel.api.post(`/reservations/${stay.id}/cancel`, { reason: "Plans changed" });
  await signIn(page, hotel.staff);
  await page.goto(`/guests/${stay.guest.id}`);
  const link = page.getByRole("link", { name: "Read it as a page" });
  await expect(link).toHaveAttribute("href", `/guests/${stay.guest.id}/data`);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/guests/${stay.guest.id}/data`);
    const doc = page.getByTestId("guest-data-document");
    await expect(doc.getByRole("heading", { level: 1 })).toHaveText("Personal data held about Dora Data");
    await expect(doc).toContainText("Double at Data Harbour Inn");
    await expect(doc.locator("dd").filter({ hasText: /^Cancelled/ })).toBeVisible();
    await expect(doc).toContainText("$240.00");
    await expectNoSeriousAxe(page);
    if (width === 390) await expectNoHorizontalScroll(page);
    expect(scan(await page.locator("main").innerText())).toEqual([]);
    await snap(page, "guest-data-page");
  }
});
