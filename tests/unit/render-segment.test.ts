/**
 * app/components/render-segment.tsx (decision 0089): a part of a page in a boundary of its own,
 * so that React's server renderer collects its HTML in an array of its own; the page reads the
 * same, with the boundary's markers around the part, and the browser hydrates it.
 */
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RenderSegment } from "../../app/components/render-segment.tsx";

describe("RenderSegment", () => {
  it("renders its part in place, between a boundary's markers, with nothing left to the browser", () => {
    const list = (segmented: boolean) =>
      h("ul", null, ["a", "b"].map((id) => h("li", { key: id }, segmented ? h(RenderSegment, null, h("p", null, `Card ${id}`)) : h("p", null, `Card ${id}`))));
    expect(renderToString(list(false))).toBe("<ul><li><p>Card a</p></li><li><p>Card b</p></li></ul>");
    expect(renderToString(list(true))).toBe("<ul><li><!--$--><p>Card a</p><!--/$--></li><li><!--$--><p>Card b</p><!--/$--></li></ul>");
  });
});
