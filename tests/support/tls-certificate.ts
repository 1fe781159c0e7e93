/**
 * A self-signed certificate for 127.0.0.1 and localhost, made once per test process with
 * `openssl req -x509` (never committed: a private key in the repository would look like a
 * leak), for the TLS-terminating proxy in front of the servers (proxy.ts) and the HTTP
 * clients that talk to it (http-user.ts trusts it, as a browser told to would).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface TestCertificate {
  key: string;
  cert: string;
}

let made: TestCertificate | undefined;

export function testCertificate(): TestCertificate {
  if (made) return made;
  const dir = mkdtempSync(path.join(tmpdir(), "dg-tls-"));
  try {
    const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
    execFileSync(
      "openssl",
      [
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
        "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
      ],
      { stdio: "ignore" },
    );
    made = { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8") };
    return made;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
