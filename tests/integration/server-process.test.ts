import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { networkInterfaces, tmpdir } from "node:os";
import { connect } from "node:net";
import path from "node:path";
import { demoClients, demoDiggers, demoGigs } from "../../server/db/seed/demo-data.ts";
import { pastLeads } from "../../server/db/seed/demo-reviews.ts";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createTestDatabase } from "../support/database.ts";
import { freePort } from "../support/ports.ts";
import { startServerProcess, waitForReady } from "../support/server-process.ts";

const dirs: string[] = [];

/** The first line an SMTP server at `port` says (its 220 greeting), or the connection's error code. */
function smtpGreeting(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("data", (chunk: Buffer) => {
      resolve(chunk.toString().split("\r\n")[0]!);
      socket.destroy();
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** The pids of the processes that logged "inbound SMTP listening" (reply by e-mail), in order. */
const inboundListeners = (output: string) =>
  output
    .split("\n")
    .filter((line) => line.includes('"msg":"inbound SMTP listening"'))
    .map((line) => (JSON.parse(line) as { pid: number }).pid);
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe("the server process", () => {
  it("refuses to start on a bad setting and names it", async () => {
    const server = startServerProcess({ PORT: "eighty" });
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/Invalid configuration:\s+- PORT: /);
  });

  it("refuses to start in production without its required settings", async () => {
    const server = startServerProcess({ NODE_ENV: "production" });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain("DATABASE_URL: required in production");
  });

  it("serves (and takes replies by e-mail on INBOUND_SMTP_PORT), then shuts down on SIGTERM closing both, leaving a PGlite directory that opens again with its data", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "dg-shutdown-"));
    dirs.push(dataDir);
    const port = await freePort();
    const smtpPort = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = startServerProcess({ DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", SEED_DEMO_DATA: "true", INBOUND_SMTP_PORT: String(smtpPort) });
    await waitForReady(url, server);
    const page = await fetch(`${url}/browse-gigs`);
    expect(page.status).toBe(200);
    expect(await smtpGreeting(smtpPort)).toMatch(/^220 reply\.localhost /);

    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
    expect(await smtpGreeting(smtpPort)).toBe("ECONNREFUSED");

    const reopened = await PGlite.create(path.join(dataDir, "pglite"), { extensions: { pg_trgm } });
    try {
      const gigs = await reopened.query<{ n: number }>("select count(*)::int as n from gigs");
      const users = await reopened.query<{ n: number }>("select count(*)::int as n from users");
      // The demo gigs, and one closed gig per past lead the seed gives the diggers their reviews from.
      expect(gigs.rows[0]!.n).toBe(demoGigs.length + pastLeads(demoDiggers, demoClients.length).length);
      expect(users.rows[0]!.n).toBeGreaterThan(20);
    } finally {
      await reopened.close();
    }
  }, 240_000);

  it("in local mode without HOST, listens on loopback only: /dev/mail's reset links are not on the local network", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "dg-host-"));
    dirs.push(dataDir);
    const port = await freePort();
    // Every address of this machine that is not loopback (the test machine has one: its network).
    const outside = Object.values(networkInterfaces())
      .flat()
      .filter((entry) => entry && !entry.internal && entry.family === "IPv4")
      .map((entry) => entry!.address);
    expect(outside.length).toBeGreaterThan(0);
    const server = startServerProcess({ DATA_DIR: dataDir, PORT: String(port) });
    try {
      // It listens before it migrates (startup.ts): /healthz answers from the first moment.
      await vi.waitFor(async () => expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200), { timeout: 60_000, interval: 200 });
      for (const address of outside) {
        await expect(fetch(`http://${address}:${port}/healthz`)).rejects.toMatchObject({ cause: { code: "ECONNREFUSED" } });
      }
    } finally {
      // Still migrating: nothing to finish, and its data directory is thrown away.
      server.child.kill("SIGKILL");
      await server.exited;
    }
  }, 120_000);

  it("behind a trusted proxy (TRUST_PROXY=1), over a real socket, counts and logs each client by the address the proxy appended", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "dg-proxy-"));
    dirs.push(dataDir);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = startServerProcess({ DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: url, TRUST_PROXY: "1" });
    await waitForReady(url, server);
    try {
      const signUp = (forwardedFor: string) =>
        fetch(`${url}/api/auth/sign-up/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: url, "x-forwarded-for": forwardedFor, "x-dg-client-ip": "192.0.2.1" },
          body: JSON.stringify({ name: "Proxy Person", email: `proxy-${randomUUID()}@example.com`, password: "correct-horse", ageConfirmed: true }),
        });
      // Ten sign-ups a minute per client address (server/auth/auth.ts); leading entries are the client's own.
      for (let i = 0; i < 10; i++) expect((await signUp(`203.0.113.${i}, 198.51.100.7`)).status).toBe(200);
      expect((await signUp("198.51.100.7")).status).toBe(429);
      expect((await signUp("198.51.100.8")).status).toBe(200);
      // The log is written as the response goes out: wait for it.
      await vi.waitFor(() => expect(server.output()).toMatch(/"path":"\/api\/auth\/sign-up\/email","clientIp":"198\.51\.100\.8","status":200/));
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  }, 240_000);
});

describe("npm run cluster", () => {
  it("refuses to start without DATABASE_URL: the embedded database serves one process", async () => {
    const cluster = startServerProcess({ PORT: String(await freePort()) }, "server/cluster.ts");
    expect(await cluster.exited).toBe(1);
    expect(cluster.output()).toContain("DATABASE_URL: required by npm run cluster");
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)("runs CLUSTER_SIZE servers behind one port, replaces one that dies, and stops them all on SIGTERM", async () => {
    const database = await createTestDatabase({ migrated: false });
    const dataDir = await mkdtemp(path.join(tmpdir(), "dg-cluster-"));
    dirs.push(dataDir);
    const port = await freePort();
    const smtpPort = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const cluster = startServerProcess(
      { DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: url, DATABASE_URL: database.url!, CLUSTER_SIZE: "2", INBOUND_SMTP_PORT: String(smtpPort) },
      "server/cluster.ts",
    );
    const workers = () => [...cluster.output().matchAll(/"pid":(\d+),"msg":"Digs & Gigs is listening"/g)].map((m) => Number(m[1]));
    try {
      await waitForReady(url, cluster);
      await vi.waitFor(() => expect(new Set(workers()).size).toBe(2), { timeout: 60_000 });
      for (let i = 0; i < 4; i += 1) expect((await fetch(`${url}/readyz`)).status).toBe(200);

      // One inbound SMTP listener for the cluster, not one per worker.
      await vi.waitFor(() => expect(inboundListeners(cluster.output())).toHaveLength(1), { timeout: 30_000 });
      const [listener] = inboundListeners(cluster.output());
      expect(workers()).toContain(listener);
      expect(await smtpGreeting(smtpPort)).toMatch(/^220 /);

      // The worker holding it dies: its replacement listens in its place.
      process.kill(listener!, "SIGKILL");
      await vi.waitFor(() => expect(new Set(workers()).size).toBe(3), { timeout: 60_000 });
      expect(cluster.output()).toContain("worker exited; starting another");
      await vi.waitFor(async () => expect((await fetch(`${url}/readyz`)).status).toBe(200), { timeout: 30_000 });
      await vi.waitFor(() => expect(inboundListeners(cluster.output())).toHaveLength(2), { timeout: 30_000 });
      expect(inboundListeners(cluster.output())[1]).not.toBe(listener);
      expect(await smtpGreeting(smtpPort)).toMatch(/^220 /);

      cluster.child.kill("SIGTERM");
      expect(await cluster.exited).toBe(0);
      const alive = workers().filter((pid) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      });
      expect(alive).toEqual([]);
    } finally {
      if (cluster.child.exitCode === null) cluster.child.kill("SIGKILL");
      await database.destroy();
    }
  });
});
