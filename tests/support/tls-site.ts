/**
 * The built server behind a proxy that ends TLS, as the documented production setup runs it:
 * browsers reach https://127.0.0.1:PORT (PUBLIC_URL), the proxy passes requests on over plain
 * HTTP with X-Forwarded-For and X-Forwarded-Proto (TRUST_PROXY=1). In production mode on a
 * fresh PostgreSQL database when TEST_DATABASE_URL names a server; else in local mode on the
 * embedded database, so that `npm test` needs no PostgreSQL (the scheme of the hop behind the
 * proxy is the same in both).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "./database.ts";
import { freePort } from "./ports.ts";
import { startProductionServer } from "./production-server.ts";
import { startProxy, type TestProxy } from "./proxy.ts";
import { startServerProcess, waitForReady, type ServerProcess } from "./server-process.ts";
import { testCertificate } from "./tls-certificate.ts";

export interface TlsSite {
  /** The public URL: the proxy's https origin. */
  url: string;
  mode: "production" | "local";
  proxy: TestProxy;
  process: ServerProcess;
  stop(): Promise<void>;
}

export async function startTlsSite(env: Record<string, string> = {}): Promise<TlsSite> {
  const port = await freePort();
  const url = `https://127.0.0.1:${port}`;
  const shared = { PUBLIC_URL: url, TRUST_PROXY: "1", LOG_LEVEL: "warn", ...env };
  let database: TestDatabase | undefined;
  let server: { url: string; process: ServerProcess; stop(): Promise<void> };
  if (process.env.TEST_DATABASE_URL) {
    const fresh = await createTestDatabase({ prefix: "dg_tls", migrated: false });
    database = fresh;
    server = await startProductionServer({ databaseUrl: fresh.url!, env: shared }).catch(async (error: unknown) => {
      await fresh.destroy();
      throw error;
    });
  } else {
    const backendPort = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), "dg-data-"));
    // No demo data: tests make their own, and seeding it takes a busy machine most of a minute.
    const child = startServerProcess({
      HOST: "127.0.0.1",
      PORT: String(backendPort),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SEED_DEMO_DATA: "false",
      ...shared,
    });
    const stop = async () => {
      if (child.child.exitCode === null) {
        child.child.kill("SIGTERM");
        await child.exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    };
    server = { url: `http://127.0.0.1:${backendPort}`, process: child, stop };
    await waitForReady(server.url, child, 100_000).catch(async (error: unknown) => {
      await stop();
      throw error;
    });
  }
  const proxy = await startProxy([server.url], { port, tls: testCertificate() });
  return {
    url,
    mode: database ? "production" : "local",
    proxy,
    process: server.process,
    stop: async () => {
      await proxy.close();
      await server.stop();
      await database?.destroy();
    },
  };
}
