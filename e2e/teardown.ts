// After the browser suite: a PostgreSQL run's throwaway database goes (the server may still hold it).
export default async function teardown() {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) return;
  const { dropDatabase } = await import("./database.mjs");
  await dropDatabase(url);
}
