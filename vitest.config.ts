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
          // A worker runs its files in one process (decision 0095): no new process a file, and the
          // packages in node_modules load once a worker; our own modules are still evaluated
          // afresh for each file, and each file builds its own app and database (PGlite run:
          // 17.0 minutes instead of 22.8 here).
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        // `npm run test:hard` only (npm test names its projects): faults and load against the
        // built server as a process on real PostgreSQL; minutes long.
        test: {
          name: "hard",
          include: ["tests/hard/**/*.test.ts"],
          environment: "node",
          testTimeout: 300_000,
          hookTimeout: 180_000,
          // One file at a time: the load test's figures are not shared with another file's work.
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
