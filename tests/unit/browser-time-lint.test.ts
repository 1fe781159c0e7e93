/**
 * The browser formats no time (issue 47, decision 0071; eslint.config.js): a page that imports
 * the relative-time or zoned formatters, or the zone helpers of core/dates.ts, is refused; the
 * server writes the text. Linted as a throwaway file through ESLint's own API and configuration.
 */
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, "../..") });
const REFUSED = "The browser formats no time: send the text from the server (server/reader-time.ts).";

const code = `
import { timeAgo } from "#core/relative-time.ts";
import { listTime } from "#core/zoned-dates.ts";
import { addDays, dayIn, formatDate } from "#core/dates.ts";
export const used = [timeAgo, listTime, addDays, dayIn, formatDate];
`;

async function refusals(filePath: string): Promise<number[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.message === REFUSED).map((m) => m.line);
}

describe("the browser-time lint rule", () => {
  it("refuses time formatting in a page and its features, and lets the server and a calendar day's formatter be", async () => {
    expect(await refusals("app/features/gigs/throwaway.tsx")).toEqual([2, 3, 4]);
    expect(await refusals("app/routes/throwaway.tsx")).toEqual([2, 3, 4]);
    expect(await refusals("server/gigs/throwaway.ts")).toEqual([]);
  }, 60_000);
});
