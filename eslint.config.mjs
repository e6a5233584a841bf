import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      // `_name` marks a parameter a signature requires but the body does not use.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  globalIgnores([
    ".next/**",
    "out/**",
    "build/**",
    // The compiled production server (npm run build).
    "dist/**",
    "next-env.d.ts",
    ".data/**",
    ".scratch-*/**",
    "test-results/**",
    "playwright-report/**",
    "bench-results/**",
    "clients/typescript/dist/**",
  ]),
]);
