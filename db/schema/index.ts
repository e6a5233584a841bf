export * from "./accounts";
export * from "./properties";
export * from "./guests";
export * from "./rooms";
export * from "./idempotency";
