/** The route label of /metrics (server/metrics.ts, routePatterns): each address matched once, the label always the table's. */
import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { routePatterns } from "#server/metrics.ts";

const routes = {
  root: { id: "root", path: "" },
  "routes/home": { id: "routes/home", parentId: "root", index: true },
  "routes/gig": { id: "routes/gig", parentId: "root", path: "gig/:id" },
  "routes/browse-gigs": { id: "routes/browse-gigs", parentId: "root", path: "browse-gigs" },
  "routes/ops": { id: "routes/ops", parentId: "root", path: "ops" },
} as unknown as ServerBuild["routes"];

describe("routePatterns", () => {
  it("labels pages, data requests and unknown addresses by pattern, the same when asked again", () => {
    const label = routePatterns(routes);
    for (let round = 0; round < 2; round++) {
      expect(label("/gig/123")).toBe("/gig/:id");
      expect(label("/gig/123.data")).toBe("/gig/:id.data");
      expect(label("/_.data")).toBe("/_.data");
      expect(label("/browse-gigs")).toBe("/browse-gigs");
      expect(label("/nowhere")).toBe("/*");
      expect(label("/ops")).toBe("/*");
    }
  });

  it("still labels right past the addresses it keeps", () => {
    const label = routePatterns(routes);
    for (let i = 0; i < 2500; i++) expect(label(`/gig/${i}`)).toBe("/gig/:id");
    expect(label("/gig/0")).toBe("/gig/:id");
    expect(label("/browse-gigs")).toBe("/browse-gigs");
  });
});
