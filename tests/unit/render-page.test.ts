/**
 * app/render-page.server.ts (decision 0065): a page React can finish at once is rendered whole
 * and sent with its length; one that leaves a Suspense boundary to the browser (something in
 * it suspended or failed) is rendered again by the stream renderer, which waits for the one and
 * reports the other with a 500, as React Router's own entry does. The string renderer hands a
 * page over in segments (patches/react-dom+19.3.1.patch, decision 0089), each encoded in turn.
 */
import { createElement as h, lazy, Suspense, type ReactNode } from "react";
import { renderToString, renderToStringSegments } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { LEFT_TO_THE_BROWSER, pageBytes, renderPage, SEGMENT_LENGTH, type PageOptions } from "../../app/render-page.server.ts";

const options = (overrides: Partial<PageOptions> = {}): PageOptions => ({
  status: 200,
  headers: new Headers(),
  nonce: "n0nce",
  waitForAll: false,
  onBoundaryError: () => {
    throw new Error("no boundary error expected");
  },
  ...overrides,
});
const documentOf = (...children: ReactNode[]) => h("html", null, h("head", null, h("title", null, "T")), h("body", null, ...children));

function Failing(): ReactNode {
  throw new Error("broken part");
}

describe("renderPage", () => {
  it("renders a page it can finish at once whole: doctype, the page, its length", async () => {
    const response = await renderPage(documentOf(h("p", null, "Hello <there>")), options());
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html");
    expect(response.headers.get("content-length")).toBe(String(bytes.length));
    expect(bytes.toString()).toMatch(/^<!DOCTYPE html><html><head>.*<title>T<\/title>.*<\/head><body><p>Hello &lt;there&gt;<\/p><\/body><\/html>$/);
  });

  it("writes any text as UTF-8, with its byte length, on pages small and larger than the scratch buffer, one after another", async () => {
    // Two- to four-byte characters (an en dash, a thin space, CJK, an emoji, a lone surrogate
    // written as U+FFFD), on a small page, a 1.2 MB one (past the 256 KB scratch buffer, which
    // grows) and a 5 MB one (past the largest it keeps), then a small one again.
    const text = "3:00\u2009\u2013\u20095:00 PM · 東京 🎉 \ud800 café";
    for (const repeat of [1, 20_000, 90_000, 1]) {
      const page = documentOf(h("p", null, text.repeat(repeat)));
      const response = await renderPage(page, options());
      const bytes = Buffer.from(await response.arrayBuffer());
      const expected = Buffer.from(`<!DOCTYPE html><html><head><title>T</title></head><body><p>${text.replaceAll("\ud800", "\ufffd").repeat(repeat)}</p></body></html>`);
      expect(response.headers.get("content-length"), `x${repeat}`).toBe(String(expected.length));
      expect(bytes.equals(expected), `x${repeat}`).toBe(true);
    }
  });

  it("hands a long page over in segments (our patch of react-dom) that join to the string renderer's page, none of them near V8's large-object size", async () => {
    // A list page of 3,000 cards, 440K characters, one of them outside Latin-1 (as a visit's
    // window or a curly apostrophe makes a real page): whole, a two-byte string of 880 KB.
    const cards = Array.from({ length: 3_000 }, (_, i) => h("li", { key: i, className: "card gap-4" }, h("h2", null, `Gig ${i}`), h("p", null, i === 1_500 ? "9:00 \u2013 11:00 AM" : "From $4,000")));
    const page = documentOf(h("ul", null, cards));
    const whole = renderToString(page);
    const { segments, leftToTheBrowser } = renderToStringSegments(page, SEGMENT_LENGTH);
    expect(leftToTheBrowser).toBe(false);
    expect(segments.join("")).toBe(whole);
    expect(segments.length).toBeGreaterThan(whole.length / SEGMENT_LENGTH);
    // 64K two-byte characters are V8's 128 KB: each segment stays at a quarter of that.
    for (const segment of segments) expect(segment.length).toBeLessThanOrEqual(SEGMENT_LENGTH);
    // Full: the next piece would have taken each segment past the length.
    for (const segment of segments.slice(0, -1)) expect(segment.length).toBeGreaterThan(SEGMENT_LENGTH - 100);
    expect(pageBytes(segments).equals(Buffer.from(`<!DOCTYPE html>${whole}`))).toBe(true);
    const response = await renderPage(page, options());
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(`<!DOCTYPE html>${whole}`))).toBe(true);
  });

  it("gives a piece longer than a segment a segment of its own, and refuses a length that is not positive", () => {
    const long = "x".repeat(3 * SEGMENT_LENGTH);
    const { segments } = renderToStringSegments(documentOf(h("p", null, "Before"), h("p", null, long), h("p", null, "After")), SEGMENT_LENGTH);
    expect(segments).toHaveLength(3);
    expect(segments[0]).toMatch(/<p>Before<\/p><p>$/);
    expect(segments[1]).toBe(long);
    expect(segments[2]).toMatch(/^<\/p><p>After<\/p>/);
    for (const length of [0, -1, Number.NaN]) expect(() => renderToStringSegments(h("p", null, "x"), length)).toThrow("segmentLength must be a positive number");
  });

  it("says when it left a boundary to the browser, as renderToString writes it, and not for a page's own text that looks like one", () => {
    const page = documentOf(h(Suspense, { fallback: h("p", null, "Fallback") }, h(Failing)), h("p", null, "The rest"));
    const { segments, leftToTheBrowser } = renderToStringSegments(page, SEGMENT_LENGTH);
    expect(leftToTheBrowser).toBe(true);
    expect(segments.join("")).toContain(LEFT_TO_THE_BROWSER);
    // Text a user wrote is escaped: never the marker, never a boundary.
    const text = renderToStringSegments(documentOf(h("p", null, LEFT_TO_THE_BROWSER)), SEGMENT_LENGTH);
    expect(text.leftToTheBrowser).toBe(false);
    expect(text.segments.join("")).not.toContain(LEFT_TO_THE_BROWSER);
  });

  it("streams a page with a part that suspends, waiting for it, with no length", async () => {
    let loaded = false;
    const Later = lazy(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      loaded = true;
      return { default: () => h("p", null, "Loaded later") };
    });
    const response = await renderPage(documentOf(h(Suspense, { fallback: h("p", null, "Waiting") }, h(Later))), options({ waitForAll: true }));
    const html = await response.text();
    expect(loaded).toBe(true);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBeNull();
    expect(html).toMatch(/^<!DOCTYPE html><html>/);
    expect(html).toContain("<p>Loaded later</p>");
    expect(html).not.toContain("Waiting");
    expect(html).not.toContain(LEFT_TO_THE_BROWSER);
  });

  it("streams a page with a part that fails inside a boundary, as a 500, the boundary left to the browser, and tells the error", async () => {
    const told: unknown[] = [];
    const page = documentOf(h(Suspense, { fallback: h("p", null, "Fallback") }, h(Failing)), h("p", null, "The rest"));
    const response = await renderPage(page, options({ onBoundaryError: (error) => told.push(error) }));
    const html = await response.text();
    expect(response.status).toBe(500);
    expect(response.headers.get("content-length")).toBeNull();
    expect(html).toContain(LEFT_TO_THE_BROWSER);
    expect(html).toContain("<p>The rest</p>");
    expect(told.map((error) => (error as Error).message)).toEqual(["broken part"]);
  });

  it("writes a streamed page's finished boundaries in place, however long, never moved by a script", async () => {
    const cards = Array.from({ length: 400 }, (_, i) => h("li", { key: i }, h(Suspense, null, h("p", null, `Card ${i} `.repeat(80)))));
    const page = documentOf(h(Suspense, { fallback: h("p", null, "Fallback") }, h(Failing)), h("ul", null, cards));
    const html = await (await renderPage(page, options({ onBoundaryError: () => {} }))).text();
    expect(html).toContain(`<li><!--$--><p>${"Card 399 ".repeat(80)}</p><!--/$--></li>`);
    expect(html).not.toMatch(/\$RC|hidden id="S:/);
  });

  it("rejects a page that fails outside every boundary, as the stream renderer's shell error does, and tells nothing more", async () => {
    await expect(renderPage(documentOf(h(Failing)), options())).rejects.toThrow("broken part");
  });
});
