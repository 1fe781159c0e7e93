import { describe, expect, it } from "vitest";
import { inlineParts, textBlocks } from "../../server/mail/text-blocks.ts";

describe("an e-mail's text as blocks for its HTML part", () => {
  it("keeps paragraphs and their lines, and makes a labelled link line an action", () => {
    expect(textBlocks("Hello Ann,\n\nLine one\nline two.\n\nYour leads: https://x.test/my-leads\n")).toEqual([
      { type: "paragraph", lines: [[{ type: "text", text: "Hello Ann," }]] },
      { type: "paragraph", lines: [[{ type: "text", text: "Line one" }], [{ type: "text", text: "line two." }]] },
      { type: "action", label: "Your leads", url: "https://x.test/my-leads", lead: null },
    ]);
  });

  it("names a bare link's button after its page, and keeps a long label as a sentence before it", () => {
    expect(textBlocks("https://x.test/reference-requests")).toEqual([{ type: "action", label: "Open reference requests", url: "https://x.test/reference-requests", lead: null }]);
    expect(textBlocks("Approve or reject the refund under View Issues: https://x.test/my-gigs")).toEqual([
      { type: "action", label: "Open my gigs", url: "https://x.test/my-gigs", lead: "Approve or reject the refund under View Issues:" },
    ]);
  });

  it("links inside a sentence stay inline, without their trailing punctuation; '--' is a rule", () => {
    expect(inlineParts("Open https://x.test/a?b=1. Then go.")).toEqual([
      { type: "text", text: "Open " },
      { type: "link", url: "https://x.test/a?b=1" },
      { type: "text", text: ". Then go." },
    ]);
    expect(textBlocks("Body\n--\nFooter").map((b) => b.type)).toEqual(["paragraph", "divider", "paragraph"]);
  });

  it("never makes anything but http(s) a link", () => {
    expect(textBlocks("javascript:alert(1)\nmailto:a@b.test")).toEqual([
      { type: "paragraph", lines: [[{ type: "text", text: "javascript:alert(1)" }], [{ type: "text", text: "mailto:a@b.test" }]] },
    ]);
  });
});
