// `npm run dev`: the same listener as `npm start`, with Next in development mode (Turbopack, hot reload).
import { startOrExit } from "@/server/process/start";

await startOrExit({ dev: true });
