import path from "node:path";
import type { Config } from "@react-router/dev/config";
import { writeServiceWorker } from "./pwa/service-worker-build.ts";
import { precompressAssets } from "./server/web/precompressed-assets.ts";

export default {
  appDirectory: "app",
  ssr: true,
  // BUILD_DIR lets two builds (say, two developers' test runs) live side by side.
  buildDirectory: process.env.BUILD_DIR ?? "build",
  // allowedActionOrigins is not set here: the server sets it from PUBLIC_URL when it starts
  // (server/app.ts), so that one build serves any deployment (docs/decisions/0033).
  // Once every file of the client build is written: the service worker (pwa/README.md) and
  // the assets' .br and .gz copies (server/web/precompressed-assets.ts).
  buildEnd: async ({ reactRouterConfig }) => {
    const clientDir = path.join(reactRouterConfig.buildDirectory, "client");
    await writeServiceWorker(clientDir);
    precompressAssets(clientDir);
  },
  // The whole route manifest is one cached file every page imports (decision 0088), not a part
  // of it written into each page with the rest fetched from /__manifest as links appear.
  routeDiscovery: { mode: "initial" },
  future: {
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    // Loaders and actions get the request as it came and the page's address as `url`
    // (docs/decisions/0085-pass-through-requests.md): read the address from `url` only.
    v8_passThroughRequests: true,
  },
} satisfies Config;
