// The production entry (`npm start`): one Node listener for the REST API and the Next dashboard.
import { startOrExit } from "./process/start";

await startOrExit({ dev: false });
