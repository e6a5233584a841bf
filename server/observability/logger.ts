import pino from "pino";

/** JSON logs on stdout; each request's lines carry its `request_id` through a child logger. */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: { service: "innkeep" },
  timestamp: pino.stdTimeFunctions.isoTime,
});

export type Logger = pino.Logger;
