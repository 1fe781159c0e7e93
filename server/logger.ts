import { pino, type Logger } from "pino";

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    // Never log secrets or session material, whatever a caller passes in.
    redact: ["req.headers.cookie", "req.headers.authorization", "*.password", "*.token"],
  });
}
