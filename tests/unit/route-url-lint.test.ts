/**
 * A route reads its address from its loader's or action's `url` (docs/decisions/0085,
 * eslint.config.js): with future.v8_passThroughRequests its `request` is the request as it came,
 * /page.data?_routes=… on a client navigation. Linted as a throwaway file through ESLint's own
 * API and configuration.
 */
import { describe, expect, it } from "vitest";
import { lintRefusals } from "../support/lint-refusals.ts";

const code = `
export function loader({ request }: { request: Request }) {
  return new URL(request.url).searchParams.get("token");
}
export function action(args: { request: Request; url: URL }) {
  return [args.request.url, args.url.searchParams.get("next"), args.request.headers.get("cookie")];
}
`;

describe("the route address lint rule", () => {
  it("refuses request.url in a route module, and lets its url and the request's headers be", async () => {
    const refusals = (filePath: string) => lintRefusals(code, filePath, "not `request.url`");
    expect(await refusals("app/routes/throwaway.tsx")).toBe(2);
    // A page's features and the server's middleware (which runs before React Router) are not routes.
    expect(await refusals("app/features/gigs/throwaway.tsx")).toBe(0);
    expect(await refusals("server/security/throwaway.ts")).toBe(0);
  }, 60_000);
});
