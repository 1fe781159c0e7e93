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
          // A worker's files share its modules (decision 0095): each file builds its own app and
          // database, so what a file changes is its own, and the server build, Better Auth and
          // drizzle are imported once a worker instead of once a file (about 6 of 23 minutes).
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
