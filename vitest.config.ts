import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // PGlite runs in-process: two files at a time keeps memory and CPU sane on 2 cores.
    maxWorkers: 2,
    projects: [
      {
        test: { name: "unit", include: ["tests/unit/**/*.test.ts", "core/**/*.test.ts"], environment: "node" },
      },
      {
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
