import path from "node:path";
import { defineConfig } from "@playwright/test";
import { serverNodeOptions } from "./server/node-options.ts";
import { findChromium } from "./tests/support/chromium.ts";

const port = Number(process.env.E2E_PORT ?? 3199);
const baseURL = `http://127.0.0.1:${port}`;
// A fresh embedded database with demo data for every run.
const dataDir = path.resolve(`test-results/e2e-data-${port}`);

const launchOptions = (executablePath: string) => ({
  executablePath,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});

export default defineConfig({
  testDir: "tests/e2e",
  // Per port, so that parallel runs (E2E_PORT) never delete each other's traces.
  outputDir: `test-results/e2e-artifacts-${port}`,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Two cores run the server, the database and Chromium together: allow for a busy machine.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  workers: 2,
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    // The service worker would answer build files from its cache, out of reach of the
    // `page.route` of other specs; installable-app.spec.ts allows it and tests it.
    serviceWorkers: "block",
  },
  // Chromium's headless shell, about three times as quick to open and hydrate a page here
  // (decision 0091); a spec that needs what only the full browser has is tagged @full-chromium.
  projects: [
    { name: "chromium", grepInvert: /@full-chromium/, use: { browserName: "chromium", launchOptions: launchOptions(findChromium()) } },
    { name: "full-chromium", grep: /@full-chromium/, use: { browserName: "chromium", launchOptions: launchOptions(findChromium({ full: true })) } },
  ],
  webServer: {
    command: `rm -rf "${dataDir}" && node ${serverNodeOptions().join(" ")} --import tsx server/main.ts`,
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      NODE_ENV: "test",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      SEED_DEMO_DATA: "true",
      LOG_LEVEL: "warn",
      DATABASE_URL: "",
      // push-devices.spec.ts's subscriptions are at this name, which never resolves: no push leaves the machine.
      PUSH_SERVICE_TEST_HOSTS: "push.example.test",
    },
  },
});
