/** Lifetimes of the contract (§4), in seconds. */
export const codeLifetime = 10 * 60;
export const accessTokenLifetime = 60 * 60;
export const refreshTokenLifetime = 90 * 24 * 60 * 60;

/** Token prefixes: `hat_` is the contract's; the others only have to be told apart. */
export const tokenPrefixes = { access: "hat", refresh: "hrt", code: "hac" } as const;
