// The production entry (`npm start`): one Node listener for the REST API and the Next dashboard;
// on a PostgreSQL server, WEB_CONCURRENCY worker processes of it behind the one port.
import cluster from "node:cluster";
import { clusterSize, runPrimary } from "./process/cluster";
import { startOrExit, StartupError } from "./process/start";
import { logger } from "./observability/logger";

const workers = clusterSize();
if (cluster.isPrimary && workers > 1) {
  try {
    await runPrimary(workers);
  } catch (error) {
    logger.fatal({ err: error }, "cannot start");
    if (error instanceof StartupError) process.stderr.write(`\n${error.message}\n\n`);
    process.exit(1);
  }
} else {
  await startOrExit({ dev: false });
}
